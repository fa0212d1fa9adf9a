package index

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// Op is the comparison of a Pred.
type Op uint8

const (
	Eq        Op = iota // col = v
	Ne                  // col <> v
	Lt                  // col < v
	Le                  // col <= v
	Gt                  // col > v
	Ge                  // col >= v
	Between             // v0 <= col <= v1
	In                  // col IN (v...)
	IsNull              // col IS NULL
	IsNotNull           // col IS NOT NULL
	Or                  // any of Any holds
	InSet               // col is non-NULL and Set.Has(col): a runtime join filter (keyset.go)
)

var opNames = [...]string{Eq: "=", Ne: "<>", Lt: "<", Le: "<=", Gt: ">", Ge: ">=", Between: "BETWEEN", In: "IN", IsNull: "IS NULL", IsNotNull: "IS NOT NULL", Or: "OR", InSet: "IN SET"}

func (o Op) String() string { return opNames[o] }

// Pred is a column compared with constants, or an OR of Preds. Col is a
// position in the table's schema. Vals are already of the column's type (the
// binder casts literals), and never NULL: a comparison with NULL never
// reaches a scan.
//
// An InSet Pred has no Vals: Set tests its (integer) column. It never comes
// from the query text, only from the planner's runtime join filters, and
// only to a table that declared it Exact; statistics can never rule a unit
// out with it (Stats.Verdict answers Maybe, or None for an all-NULL unit).
type Pred struct {
	Col  int
	Op   Op
	Vals []columnar.Value
	Any  []Pred  // for Or
	Set  *KeySet // for InSet
}

// String renders p with column names from s, for EXPLAIN.
func (p Pred) String(s columnar.Schema) string {
	name := func(c int) string {
		if c >= 0 && c < len(s) {
			return s[c].Name
		}
		return fmt.Sprintf("#%d", c)
	}
	lit := func(v columnar.Value) string {
		if v.Type.IsString() || v.Type.IsTemporal() || v.Type.ID == columnar.Time {
			return "'" + strings.ReplaceAll(v.String(), "'", "''") + "'"
		}
		return v.String()
	}
	switch p.Op {
	case Between:
		return fmt.Sprintf("%s BETWEEN %s AND %s", name(p.Col), lit(p.Vals[0]), lit(p.Vals[1]))
	case In:
		parts := make([]string, len(p.Vals))
		for i, v := range p.Vals {
			parts[i] = lit(v)
		}
		return fmt.Sprintf("%s IN (%s)", name(p.Col), strings.Join(parts, ", "))
	case IsNull, IsNotNull:
		return name(p.Col) + " " + p.Op.String()
	case InSet:
		return fmt.Sprintf("%s IN SET(%s)", name(p.Col), p.Set.Desc)
	case Or:
		parts := make([]string, len(p.Any))
		for i, q := range p.Any {
			parts[i] = q.String(s)
		}
		return "(" + strings.Join(parts, " OR ") + ")"
	}
	return fmt.Sprintf("%s %s %s", name(p.Col), p.Op, lit(p.Vals[0]))
}

// Cols appends the columns p reads to dst.
func (p Pred) Cols(dst []int) []int {
	if p.Op == Or {
		for _, q := range p.Any {
			dst = q.Cols(dst)
		}
		return dst
	}
	return append(dst, p.Col)
}

// Support says how a table applies a predicate it is offered.
type Support uint8

const (
	Unsupported Support = iota // the table ignores it; the filter stays above the scan
	Inexact                    // the table skips data with it; the filter stays above the scan
	Exact                      // the table returns only matching rows; the filter is dropped
)

func (s Support) String() string {
	return [...]string{"unsupported", "inexact", "exact"}[s]
}
