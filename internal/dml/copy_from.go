package dml

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// copyFromTypes gives COPY t FROM 'x.csv' the table's column types, as
// DuckDB does: the CSV's fields are read as those types (a VARCHAR
// column keeps '007'), not sniffed and then cast. Options that say the
// types themselves win.
func copyFromTypes(q *sql.Query, schema columnar.Schema) {
	call := sql.CopySource(q)
	if call == nil || len(call.Paths) != 1 {
		return
	}
	format := catalog.Kind(call.Paths[0])
	for _, a := range call.Args {
		switch a.Name {
		case "format":
			format = a.Value.Text
		case "types", "dtypes", "column_types", "columns", "all_varchar":
			return
		}
	}
	if format != "csv" && format != "" && format != "CSV" {
		return
	}
	list := sql.ArgValue{Kind: sql.ArgList}
	for _, f := range schema {
		list.Elems = append(list.Elems, sql.ArgValue{Kind: sql.ArgString, Text: f.Type.String()})
	}
	call.Args = append(call.Args, sql.FileArg{Name: "types", Value: list, NamePos: call.PathPos})
}
