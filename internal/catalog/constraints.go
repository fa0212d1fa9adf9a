package catalog

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
)

// Constraints are declared on the tables that can hold them: in-memory
// tables (CREATE TABLE … NOT NULL, CHECK, PRIMARY KEY, UNIQUE) and
// CTables (whose schema stores nullability, bounds and lengths as
// python-blosc2 writes them, ctable.Rules).

// Rules returns the column constraints of t (nil for a table that
// declares none: a Parquet file, a query).
func Rules(t any) []ctable.Rules {
	switch x := t.(type) {
	case *MemTable:
		return x.Rules()
	case *ctable.Table:
		return x.Rules()
	}
	return nil
}

// Describe fills DESCRIBE's null and key columns for table t: nullable[i]
// false for a column declared NOT NULL, keys[i] "PRI" or "UNI" for a key
// column.
func Describe(t any, nullable []bool, keys []columnar.Value) {
	var rules []ctable.Rules
	switch x := t.(type) {
	case *MemTable:
		rules = x.rules
		for _, key := range x.keys {
			for _, c := range key {
				if keys[c].Null {
					keys[c] = columnar.StringValue("UNI")
				}
			}
		}
		for c, pk := range x.primary {
			if pk {
				keys[c] = columnar.StringValue("PRI")
			}
		}
	case *ctable.Table:
		rules = x.Rules()
	}
	for i, r := range rules {
		if i < len(nullable) && !r.Nullable {
			nullable[i] = false
		}
	}
}
