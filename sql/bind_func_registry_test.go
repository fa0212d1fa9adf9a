package sql

import (
	"maps"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/function"
)

// TestFunctionNamesRegistered keeps the binder's names and the registry
// (duckdb_functions(), completion, "did you mean") together: every
// function name the binder dispatches on is registered, as a scalar,
// aggregate or table function.
func TestFunctionNamesRegistered(t *testing.T) {
	names := []string{"abs", "round", "floor", "ceil", "ceiling", "coalesce", "nullif", "ifnull",
		"date_part", "datepart", "date_trunc", "datetrunc", "if", "typeof", "timezone", "random", "setseed",
		"current_setting", "epoch_ms", "concat_ws", "trunc", "log", "locate", "position", "greatest", "least",
		"mod", "date_add", "strptime", "try_strptime", "strftime", "to_timestamp", "hash", "printf", "format",
		"pi", "bit_count", "age", "time_bucket", "nanosecond", "regexp_full_match", "regexp_extract"}
	for _, m := range []map[string]string{intervalUnitFuncs, datePartFuncs, bytesFuncs} {
		names = slices.AppendSeq(names, maps.Keys(m))
	}
	names = slices.AppendSeq(names, maps.Keys(dateFuncs))
	names = slices.AppendSeq(names, maps.Keys(aggFuncs))
	names = slices.AppendSeq(names, maps.Keys(holisticAggs))
	for _, n := range names {
		_, scalar := function.Lookup(n)
		_, agg := function.Find(function.Aggregate, n)
		_, table := function.Find(function.Table, n)
		if !scalar && !agg && !table {
			t.Errorf("%s: the binder knows it, the function registry does not", n)
		}
	}
}
