package engine

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// describe runs DESCRIBE table or DESCRIBE query. The columns are those of
// the bound query (DESCRIBE t is SELECT * FROM t); a table's declared
// constraints (NOT NULL, keys) fill null and key, as in DuckDB, where a
// query's columns and a file's are all nullable and keyless.
func (s *Session) describe(d *sql.Describe, args []columnar.Value) (*Result, error) {
	bound, err := s.bind(d.Query, s.cat(), args)
	if err != nil {
		return nil, err
	}
	schema := bound.Root.Schema()
	nullable := make([]bool, len(schema))
	keys := make([]columnar.Value, len(schema))
	for i := range schema {
		nullable[i], keys[i] = true, columnar.NullValue(columnar.TVarchar)
	}
	if d.Table != "" {
		if t, ok := s.cat().Table(d.Table); ok && len(t.Schema()) == len(schema) {
			catalog.Describe(t, nullable, keys)
		}
	}
	vals := make([][]columnar.Value, len(schema))
	for i, c := range schema {
		vals[i] = sql.DescribeRow(bound.Names[i], c.Type, nullable[i], keys[i])
	}
	var cols []Column
	for _, n := range sql.DescribeNames() {
		cols = append(cols, Column{Name: n, Type: columnar.TVarchar})
	}
	return values(cols, vals), nil
}
