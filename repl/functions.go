package repl

import "github.com/b2sql/b2sql/function"

// sqlFunction is a function the binder knows, for completion: its name,
// a one-line signature, and a call the test suite runs so this list
// cannot drift from the engine.
type sqlFunction struct {
	name, sig, example string
}

// functions returns the completion list: every function of the registry
// (package function) under each of its names, with its signature and an
// example the test suite runs.
func functions() []sqlFunction {
	var out []sqlFunction
	for _, s := range function.All() {
		if s.Internal || len(s.Overloads) == 0 {
			continue
		}
		ex := ""
		if len(s.Examples) > 0 && s.Kind != function.Table {
			ex = s.Examples[0]
		}
		sig := s.Signature()
		for _, n := range append([]string{s.Name}, s.Aliases...) {
			out = append(out, sqlFunction{n, sig, ex})
		}
	}
	return out
}

// sqlKeywords are offered for completion, upper case as DuckDB shows them.
var sqlKeywords = []string{
	"SELECT", "FROM", "WHERE", "GROUP BY", "ORDER BY", "HAVING", "LIMIT", "OFFSET",
	"AS", "AND", "OR", "NOT", "IN", "IS", "NULL", "BETWEEN", "LIKE", "DISTINCT",
	"CASE", "WHEN", "THEN", "ELSE", "END", "CAST", "ASC", "DESC", "NULLS FIRST", "NULLS LAST",
	"TRUE", "FALSE", "EXPLAIN", "EXPLAIN ANALYZE", "DESCRIBE", "SHOW TABLES", "SET", "RESET",
	"DATE", "TIMESTAMP", "TIME", "INTERVAL", "BIGINT", "INTEGER", "DOUBLE", "VARCHAR", "BOOLEAN", "DECIMAL",
}
