package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// NullOrder is where NULLs sort in an ORDER BY key that does not say
// NULLS FIRST or NULLS LAST: the session's default_null_order setting,
// which the binder reads through the catalog (SettingsReader) as it binds
// each key, with default_order for keys that say neither ASC nor DESC.
type NullOrder uint8

const (
	NullsLast             NullOrder = iota // DuckDB's default
	NullsFirst                             // always first
	NullsFirstAscLastDesc                  // sqlite, mysql
	NullsLastAscFirstDesc                  // postgres
)

// nullOrderNames are the names current_setting shows, as DuckDB's.
var nullOrderNames = [...]string{"NULLS_LAST", "NULLS_FIRST", "NULLS_FIRST_ON_ASC_LAST_ON_DESC", "NULLS_LAST_ON_ASC_FIRST_ON_DESC"}

func (o NullOrder) String() string { return nullOrderNames[o] }

// First reports whether NULLs sort first in a key of direction desc.
func (o NullOrder) First(desc bool) bool {
	switch o {
	case NullsFirst:
		return true
	case NullsFirstAscLastDesc:
		return !desc
	case NullsLastAscFirstDesc:
		return desc
	}
	return false
}

// ParseNullOrder reads a default_null_order value as DuckDB does: a name
// in any case, with a space or an underscore, or the dialect it mimics.
func ParseNullOrder(s string) (NullOrder, bool) {
	switch strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), " ", "_") {
	case "nulls_last":
		return NullsLast, true
	case "nulls_first":
		return NullsFirst, true
	case "nulls_first_on_asc_last_on_desc", "sqlite", "mysql":
		return NullsFirstAscLastDesc, true
	case "nulls_last_on_asc_first_on_desc", "postgres":
		return NullsLastAscFirstDesc, true
	}
	return 0, false
}

// ParseOrder reads a default_order value: desc is false for ASC or
// ASCENDING, true for DESC or DESCENDING (any case).
func ParseOrder(s string) (desc, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "asc", "ascending":
		return false, true
	case "desc", "descending":
		return true, true
	}
	return false, false
}

// sortOrder is the direction and NULL placement of ORDER BY item o: what
// it states, else the session's defaults.
func (b *binder) sortOrder(o *ast.OrderItem) (desc, nullsFirst bool) {
	desc = o.Desc
	nulls := NullsLast
	if sr, ok := b.cat.(SettingsReader); ok {
		if !o.Desc && !o.Asc {
			if v, err := sr.CurrentSetting("default_order"); err == nil {
				desc, _ = ParseOrder(v.S)
			}
		}
		if o.Nulls == "" {
			if v, err := sr.CurrentSetting("default_null_order"); err == nil {
				nulls, _ = ParseNullOrder(v.S)
			}
		}
	}
	switch o.Nulls {
	case "FIRST":
		return desc, true
	case "LAST":
		return desc, false
	}
	return desc, nulls.First(desc)
}
