package catalog

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/sql"
)

// ColumnConstraints are what one column declares beyond its type, for
// every table that can hold them: NOT NULL, numeric CHECK bounds
// (`CHECK (x >= 0)`, as sql.Check), a maximum length of string and byte
// values (characters for strings), and a constant DEFAULT. In-memory
// tables keep them as declared; CTables store them in their schema as
// python-blosc2 writes it (ctable.Rules), converted only here, where a
// CTable's constraints are read (constraintsOf) and written (CTableRules).
// The zero value allows everything but NULL.
type ColumnConstraints struct {
	Nullable  bool
	Checks    []sql.Check
	MaxLength int // 0: no limit
	// Default is a CTable column's constant default (nil: none). An
	// in-memory table's defaults are expressions, kept beside
	// (MemTable.Defaults).
	Default *columnar.Value
}

// Unconstrained reports whether the column allows every value, NULL
// included.
func (c *ColumnConstraints) Unconstrained() bool {
	return c.Nullable && len(c.Checks) == 0 && c.MaxLength == 0
}

// Constraints returns the column constraints of t (nil for a table that
// declares none: a Parquet file, a query).
func Constraints(t any) []ColumnConstraints {
	switch x := t.(type) {
	case *MemTable:
		return x.Constraints()
	case *ctable.Table:
		return constraintsOf(x)
	}
	return nil
}

// constraintsOf reads a CTable schema's constraints.
func constraintsOf(t *ctable.Table) []ColumnConstraints {
	rules := t.Rules()
	out := make([]ColumnConstraints, len(rules))
	for i, r := range rules {
		c := ColumnConstraints{Nullable: r.Nullable, MaxLength: r.MaxLength, Default: r.Default}
		for _, b := range r.Bounds {
			c.Checks = append(c.Checks, sql.Check{Op: b.Op, Val: b.Val})
		}
		out[i] = c
	}
	return out
}

// CTableRules returns c as a CTable schema stores it.
func (c *ColumnConstraints) CTableRules() ctable.Rules {
	r := ctable.Rules{Nullable: c.Nullable, MaxLength: c.MaxLength, Default: c.Default}
	for _, ch := range c.Checks {
		r.Bounds = append(r.Bounds, ctable.Bound{Op: ch.Op, Val: ch.Val})
	}
	return r
}

// Describe fills DESCRIBE's null and key columns for table t: nullable[i]
// false for a column declared NOT NULL, keys[i] "PRI" or "UNI" for a key
// column.
func Describe(t any, nullable []bool, keys []columnar.Value) {
	if m, ok := t.(*MemTable); ok {
		for _, key := range m.keys {
			for _, c := range key {
				if keys[c].Null {
					keys[c] = columnar.StringValue("UNI")
				}
			}
		}
		for c, pk := range m.primary {
			if pk {
				keys[c] = columnar.StringValue("PRI")
			}
		}
	}
	for i, c := range Constraints(t) {
		if i < len(nullable) && !c.Nullable {
			nullable[i] = false
		}
	}
}
