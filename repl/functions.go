package repl

import "github.com/b2sql/b2sql/function"

// sqlFunction is a function the binder knows, for completion: its name,
// a one-line signature, and a call the test suite runs so this list
// cannot drift from the engine.
type sqlFunction struct {
	name, sig, example string
}

// functions returns the completion list: every function of the registry
// (package function) under each of its names, then the functions the
// registry does not hold yet (sqlFunctions).
// TODO(registry): drop sqlFunctions as the rest moves into the registry (#16).
func functions() []sqlFunction {
	var out []sqlFunction
	for _, s := range function.All() {
		if s.Internal || len(s.Overloads) == 0 {
			continue
		}
		ex := ""
		if len(s.Examples) > 0 {
			ex = s.Examples[0]
		}
		sig := s.Signature()
		for _, n := range append([]string{s.Name}, s.Aliases...) {
			out = append(out, sqlFunction{n, sig, ex})
		}
	}
	return append(out, sqlFunctions...)
}

var sqlFunctions = []sqlFunction{
	{"count", "count(*|x) → BIGINT", "count(*)"},
	{"sum", "sum(x) → number", "sum(1)"},
	{"avg", "avg(x) → DOUBLE", "avg(1)"},
	{"mean", "mean(x) → DOUBLE, same as avg", "mean(1)"},
	{"min", "min(x) → type of x", "min(1)"},
	{"max", "max(x) → type of x", "max(1)"},
	{"abs", "abs(x) → type of x", "abs(-1)"},
	{"round", "round(x[, digits]) → type of x", "round(1.25, 1)"},
	{"floor", "floor(x) → type of x", "floor(1.5)"},
	{"ceil", "ceil(x) → type of x", "ceil(1.5)"},
	{"ceiling", "ceiling(x) → type of x", "ceiling(1.5)"},
	{"coalesce", "coalesce(x, …) → first non-NULL", "coalesce(NULL, 1)"},
	{"ifnull", "ifnull(x, y) → x, or y if x is NULL", "ifnull(NULL, 1)"},
	{"nullif", "nullif(x, y) → NULL if x = y, else x", "nullif(1, 2)"},
	{"date_part", "date_part('part', t) → BIGINT (year, month, day, hour, …)", "date_part('year', DATE '2024-05-01')"},
	{"datepart", "datepart('part', t) → BIGINT", "datepart('year', DATE '2024-05-01')"},
	{"date_trunc", "date_trunc('part', t) → TIMESTAMP", "date_trunc('month', TIMESTAMP '2024-05-03 10:00:00')"},
	{"datetrunc", "datetrunc('part', t) → TIMESTAMP", "datetrunc('month', TIMESTAMP '2024-05-03 10:00:00')"},
	{"read_parquet", "read_parquet('path or glob') → table", ""},
}

// sqlKeywords are offered for completion, upper case as DuckDB shows them.
var sqlKeywords = []string{
	"SELECT", "FROM", "WHERE", "GROUP BY", "ORDER BY", "HAVING", "LIMIT", "OFFSET",
	"AS", "AND", "OR", "NOT", "IN", "IS", "NULL", "BETWEEN", "LIKE", "DISTINCT",
	"CASE", "WHEN", "THEN", "ELSE", "END", "CAST", "ASC", "DESC", "NULLS FIRST", "NULLS LAST",
	"TRUE", "FALSE", "EXPLAIN", "EXPLAIN ANALYZE", "DESCRIBE", "SHOW TABLES", "SET", "RESET",
	"DATE", "TIMESTAMP", "TIME", "INTERVAL", "BIGINT", "INTEGER", "DOUBLE", "VARCHAR", "BOOLEAN", "DECIMAL",
}
