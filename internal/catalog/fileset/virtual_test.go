package fileset_test

import (
	"context"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/columnar/columnartest"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/internal/catalog/fileset"
	"github.com/b2sql/b2sql/planner"
)

// TestVirtualColumns: the virtual columns asked for come after the
// files' columns, hold each row's file name and index, and are reported
// by Virtual; one whose name a file column has is not added, and
// filename = 'src' (Filename naming another column) takes filename away.
func TestVirtualColumns(t *testing.T) {
	files := []fileset.File{{Path: "p0", Name: "d/x.csv"}, {Path: "p1", Name: "d/y.csv"}}
	tables := map[string]planner.Table{
		"p0":  catalog.NewMemTable(columnar.Schema{{Name: "a", Type: columnar.TInt64}}, [][]columnar.Value{{columnar.IntValue(columnar.TInt64, 1)}}),
		"p1":  catalog.NewMemTable(columnar.Schema{{Name: "a", Type: columnar.TInt64}}, [][]columnar.Value{{columnar.IntValue(columnar.TInt64, 2)}, {columnar.IntValue(columnar.TInt64, 3)}}),
		"own": catalog.NewMemTable(columnar.Schema{{Name: "FileName", Type: columnar.TVarchar}}, [][]columnar.Value{{columnar.StringValue("mine")}}),
	}
	open := func(p string) (planner.Table, error) { return tables[p], nil }
	for _, tc := range []struct {
		name    string
		files   []fileset.File
		opts    fileset.Options
		cols    []string // the schema's names
		virtual []int
		rows    []string
	}{
		{"both", files, fileset.Options{Virtual: []string{"filename", "file_index"}}, []string{"a", "filename", "file_index"}, []int{1, 2},
			[]string{"1|d/x.csv|0", "2|d/y.csv|1", "3|d/y.csv|1"}},
		{"filename = true", files, fileset.Options{Filename: "filename", Virtual: []string{"filename", "file_index"}}, []string{"a", "filename", "file_index"}, []int{2},
			[]string{"1|d/x.csv|0", "2|d/y.csv|1", "3|d/y.csv|1"}},
		{"filename = 'src'", files, fileset.Options{Filename: "src", Virtual: []string{"filename"}}, []string{"a", "src"}, nil,
			[]string{"1|d/x.csv", "2|d/y.csv", "3|d/y.csv"}},
		{"a file column wins", []fileset.File{{Path: "own", Name: "o.csv"}}, fileset.Options{Virtual: []string{"filename", "file_index"}},
			[]string{"FileName", "file_index"}, []int{1}, []string{"mine|0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tbl, err := fileset.Open(tc.files, open, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			var virtual, cols []int
			for i, f := range tbl.Schema() {
				names = append(names, f.Name)
				cols = append(cols, i)
				if tbl.Virtual(i) {
					virtual = append(virtual, i)
				}
			}
			if !slices.Equal(names, tc.cols) || !slices.Equal(virtual, tc.virtual) {
				t.Fatalf("columns %v, virtual %v; want %v, %v", names, virtual, tc.cols, tc.virtual)
			}
			if i := slices.Index(names, "file_index"); i >= 0 && tbl.Schema()[i].Type != columnar.TUint64 {
				t.Errorf("file_index is %v, want UBIGINT", tbl.Schema()[i].Type)
			}
			r, err := tbl.Scan(context.Background(), index.ScanSpec{Cols: cols, Limit: -1, Threads: 1, Ordered: true})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got := columnartest.Lines(columnartest.MustReadAll(t, r)); !slices.Equal(got, tc.rows) {
				t.Errorf("rows %v, want %v", got, tc.rows)
			}
		})
	}
}
