package sql

import (
	"testing"

	"github.com/b2sql/b2sql/function"
)

// TestFunctionNamesRegistered keeps the binder's names and the registry
// (duckdb_functions(), completion) together: every function name the
// binder knows is registered, as a scalar, aggregate or table function.
func TestFunctionNamesRegistered(t *testing.T) {
	for _, n := range knownFuncs() {
		_, scalar := function.Lookup(n)
		_, agg := function.Find(function.Aggregate, n)
		_, table := function.Find(function.Table, n)
		if !scalar && !agg && !table {
			t.Errorf("%s: the binder knows it, the function registry does not", n)
		}
	}
}
