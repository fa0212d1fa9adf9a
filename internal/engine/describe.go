package engine

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// describeColumns are DESCRIBE's columns, DuckDB's: the name and type of
// each column, whether it may hold NULL ("YES" or "NO"), its key ("PRI"
// for a PRIMARY KEY column, "UNI" for one in a UNIQUE key, else NULL),
// its default (b2sql columns have none: NULL) and extra (NULL).
var describeColumns = []Column{
	{Name: "column_name", Type: columnar.TVarchar}, {Name: "column_type", Type: columnar.TVarchar},
	{Name: "null", Type: columnar.TVarchar}, {Name: "key", Type: columnar.TVarchar},
	{Name: "default", Type: columnar.TVarchar}, {Name: "extra", Type: columnar.TVarchar},
}

// describe runs DESCRIBE table or DESCRIBE query. The columns are those of
// the bound query (DESCRIBE t is SELECT * FROM t); a table's declared
// constraints (NOT NULL, keys) fill null and key, as in DuckDB, where a
// query's columns and a file's are all nullable and keyless.
func (s *Session) describe(d *sql.Describe, args []columnar.Value) (*Result, error) {
	bound, err := s.bind(d.Query, s.e.Cat, args)
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
		if t, ok := s.e.Cat.Table(d.Table); ok && len(t.Schema()) == len(schema) {
			catalog.Describe(t, nullable, keys)
		}
	}
	vals := make([][]columnar.Value, len(schema))
	for i, c := range schema {
		null := "YES"
		if !nullable[i] {
			null = "NO"
		}
		none := columnar.NullValue(columnar.TVarchar)
		vals[i] = []columnar.Value{columnar.StringValue(bound.Names[i]), columnar.StringValue(c.Type.String()),
			columnar.StringValue(null), keys[i], none, none}
	}
	return values(describeColumns, vals), nil
}
