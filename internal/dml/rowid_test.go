package dml

import (
	"context"
	"io"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// A sql.RowIDTable scan numbers the rows 0, 1, … across batches, wherever the
// row id column is asked for, alone included.
func TestRowIDScan(t *testing.T) {
	const n = 2500 // three batches of columnar.MaxBatch
	schema := columnar.Schema{{Name: "a", Type: columnar.TInt64}, {Name: "b", Type: columnar.TVarchar}}
	rows := make([][]columnar.Value, n)
	for i := range rows {
		rows[i] = []columnar.Value{columnar.IntValue(columnar.TInt64, int64(10*i)), columnar.StringValue("x")}
	}
	rt := sql.NewRowIDTable(catalog.NewMemTable(schema, rows))
	if got := rt.Schema()[2].Name; got != "rowid" {
		t.Fatalf("row id column named %q, want rowid", got)
	}
	for _, cols := range [][]int{{2}, {0, 2}, {2, 0}, {1, 2, 0}, {0}} {
		rd, err := rt.Scan(context.Background(), index.ScanSpec{Cols: cols, Limit: -1})
		if err != nil {
			t.Fatal(err)
		}
		next := int64(0)
		for {
			b, err := rd.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Cols) != len(cols) {
				t.Fatalf("cols %v: batch has %d columns", cols, len(b.Cols))
			}
			for k := 0; k < b.Live(); k++ {
				r := b.Row(k)
				for j, c := range cols {
					got := b.Cols[j].Value(r)
					switch c {
					case 0:
						if got.I != 10*next {
							t.Fatalf("cols %v row %d: a = %v, want %d", cols, next, got, 10*next)
						}
					case 2:
						if got.I != next {
							t.Fatalf("cols %v row %d: rowid = %v", cols, next, got)
						}
					}
				}
				next++
			}
		}
		rd.Close()
		if next != n {
			t.Errorf("cols %v: %d rows, want %d", cols, next, n)
		}
	}
	// A table with its own rowid column keeps it: the row id is unnamable.
	own := sql.NewRowIDTable(catalog.NewMemTable(columnar.Schema{{Name: "RowID", Type: columnar.TInt64}}, nil))
	if got := own.Schema()[1].Name; got == "rowid" {
		t.Errorf("row id column shadows the table's own RowID")
	}
}
