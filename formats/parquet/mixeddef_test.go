package parquet

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestRequiredAndOptional: a column OPTIONAL in one file of a glob and
// REQUIRED in the next is read with each file's own definition levels,
// whichever decoder reads it (dictionary, PLAIN, DELTA; with and without a
// filter).
func TestRequiredAndOptional(t *testing.T) {
	const n = 300
	v := func(i int) int64 { return int64(i%50) * 3 }
	col := func(nullable bool) []tcol {
		return []tcol{
			{name: "id", typ: arrow.PrimitiveTypes.Int64, want: columnar.TInt64,
				app: func(b array.Builder, i int) { b.(*array.Int64Builder).Append(int64(i)) }},
			{name: "v", typ: arrow.PrimitiveTypes.Int64, nullable: nullable, want: columnar.TInt64,
				app: func(b array.Builder, i int) { b.(*array.Int64Builder).Append(v(i)) }},
		}
	}
	for _, enc := range []struct {
		name  string
		props []parquet.WriterProperty
	}{
		{"dict", nil},
		{"plain", []parquet.WriterProperty{parquet.WithDictionaryDefault(false)}},
		{"delta", deltaProps("v")},
	} {
		t.Run(enc.name, func(t *testing.T) {
			dir := t.TempDir()
			// a_opt.parquet sorts first: the table's column is OPTIONAL.
			writeArrow(t, filepath.Join(dir, "a_opt.parquet"), col(true), 0, n, 100, false, enc.props...)
			writeArrow(t, filepath.Join(dir, "b_req.parquet"), col(false), n, n, 100, false, enc.props...)
			tb, err := Open(filepath.Join(dir, "*.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			want := func(i int) columnar.Value {
				if i < n && isNull(i) {
					return columnar.NullValue(columnar.TInt64)
				}
				return columnar.IntValue(columnar.TInt64, v(i))
			}
			gt := columnar.IntValue(columnar.TInt64, 100)
			for _, filtered := range []bool{false, true} {
				spec := index.ScanSpec{Cols: []int{0, 1}, Limit: -1, Threads: 1}
				if filtered {
					spec.Filter = []index.Pred{{Col: 1, Op: index.Gt, Vals: []columnar.Value{gt}}}
				}
				rows := readAll(t, tb, spec)
				k := 0
				for i := range 2 * n {
					w := want(i)
					if filtered && (w.Null || w.I <= 100) {
						continue
					}
					if k >= len(rows) {
						t.Fatalf("filtered=%v: %d rows, want more", filtered, len(rows))
					}
					if got := rows[k]; got[0].I != int64(i) || !sameValue(got[1], w) {
						t.Fatalf("filtered=%v: row %d = %v, want id %d v %v", filtered, k, got, i, w)
					}
					k++
				}
				if k != len(rows) {
					t.Fatalf("filtered=%v: %d rows, want %d", filtered, len(rows), k)
				}
			}
		})
	}
}
