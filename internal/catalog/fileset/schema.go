package fileset

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql"
)

// unionSchema is union_by_name's schema: every column in order of first
// appearance (names compared case-insensitively, as DuckDB), its type the
// common type of the files', VARCHAR when they have none.
func unionSchema(schemas []columnar.Schema) columnar.Schema {
	var out columnar.Schema
	for _, s := range schemas {
		for _, f := range s {
			i := slices.IndexFunc(out, func(g columnar.Field) bool { return strings.EqualFold(g.Name, f.Name) })
			if i < 0 {
				out = append(out, columnar.Field{Name: f.Name, Type: f.Type, Nullable: true})
				continue
			}
			t, ok := sql.SuperType(out[i].Type, f.Type)
			if !ok {
				t = columnar.TVarchar
			}
			out[i].Type = t
		}
	}
	return out
}

// binding maps the table's data columns onto one file's: col[j] is the
// file's column for data column j, -1 when the file lacks it (NULL).
type binding struct {
	col []int
}

// bind matches the data columns by name in file name's schema fs. Without
// union, a missing column is an error naming both files, as in DuckDB.
func bind(data columnar.Schema, fs columnar.Schema, name, first string, union bool) (binding, error) {
	b := binding{col: make([]int, len(data))}
	for j, f := range data {
		i := slices.IndexFunc(fs, func(g columnar.Field) bool { return g.Name == f.Name })
		if i < 0 {
			i = slices.IndexFunc(fs, func(g columnar.Field) bool { return strings.EqualFold(g.Name, f.Name) })
		}
		if i < 0 && !union {
			names := make([]string, len(fs))
			for k, g := range fs {
				names[k] = g.Name
			}
			return b, fmt.Errorf("%s: schema mismatch: column %q was read from the first file %q but is not in this one (it has %s; union_by_name = true reads files with different columns)",
				name, f.Name, first, strings.Join(names, ", "))
		}
		b.col[j] = i
	}
	return b, nil
}
