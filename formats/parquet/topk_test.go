package parquet

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// topkCols: id = i (sorted, clustered) and x = i * 0.5 (a float: its
// statistics leave NaN out, so a DESC top-k may never skip on it).
func topkCols() []tcol {
	return []tcol{
		{name: "id", typ: arrow.PrimitiveTypes.Int64, want: columnar.TInt64,
			app: func(b array.Builder, i int) { b.(*array.Int64Builder).Append(int64(i)) },
			val: func(i int) columnar.Value { return columnar.IntValue(columnar.TInt64, int64(i)) }},
		{name: "x", typ: arrow.PrimitiveTypes.Float64, want: columnar.TFloat64,
			app: func(b array.Builder, i int) { b.(*array.Float64Builder).Append(float64(i) * 0.5) },
			val: func(i int) columnar.Value { return columnar.FloatValue(columnar.TFloat64, float64(i)*0.5) }},
	}
}

func TestTopKPruningRowGroups(t *testing.T) {
	path := filepath.Join(t.TempDir(), "topk.parquet")
	writeArrow(t, path, topkCols(), 0, 10000, 1000, false) // 10 row groups
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	cases := []struct {
		name      string
		bound     *index.TopKBound
		key       columnar.Value
		rows      int   // rows read
		first     int64 // id of the first row produced (threads=1)
		skipped   int64
		ruleOff   bool
		published bool
	}{
		// As if ORDER BY id DESC LIMIT 10 held 9990..9999: only the last
		// row group (9000..9999) can beat 9990; it is read first.
		{"id desc", &index.TopKBound{Col: 0, Desc: true}, columnar.IntValue(columnar.TInt64, 9990), 1000, 9000, 9, false, true},
		{"id asc", &index.TopKBound{Col: 0}, columnar.IntValue(columnar.TInt64, 9), 1000, 0, 9, false, true},
		// No bound yet: every row group, best first.
		{"id desc unpublished", &index.TopKBound{Col: 0, Desc: true}, columnar.Value{}, 10000, 9000, 0, false, false},
		{"switched off", &index.TopKBound{Col: 0, Desc: true}, columnar.IntValue(columnar.TInt64, 9990), 10000, 0, 0, true, true},
		// Floats: DESC never skips (a NaN may hide from the statistics);
		// ASC does (NaN sorts last).
		{"x desc", &index.TopKBound{Col: 1, Desc: true}, columnar.FloatValue(columnar.TFloat64, 4995), 10000, 0, 0, false, true},
		{"x asc", &index.TopKBound{Col: 1}, columnar.FloatValue(columnar.TFloat64, 4), 1000, 0, 9, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.published {
				tc.bound.Publish(tc.key)
			}
			var st index.ScanStats
			spec := index.ScanSpec{Cols: []int{0, 1}, Limit: -1, Threads: 1, Stats: &st, TopK: tc.bound}
			if tc.ruleOff {
				spec.Off = spec.Off.With(index.TopKPruning)
			}
			rows := readAll(t, tb, spec)
			if len(rows) != tc.rows || rows[0][0].I != tc.first {
				t.Fatalf("%d rows, first id %v; want %d from %d", len(rows), rows[0][0], tc.rows, tc.first)
			}
			if st.SkippedBy[index.TopKPruning] != tc.skipped || st.UnitsSkipped != tc.skipped {
				t.Fatalf("stats %+v, want %d skipped by top-k pruning", st, tc.skipped)
			}
			// The parallel path (ScanUnits) skips the same units.
			var ust index.ScanStats
			uspec := spec
			uspec.Stats = &ust
			units, err := tb.ScanUnits(t.Context(), uspec)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, open := range units {
				r, err := open(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				for {
					b, err := r.Next(t.Context())
					if err != nil {
						break
					}
					n += b.Live()
				}
				r.Close()
			}
			if n != tc.rows || ust.SkippedBy[index.TopKPruning] != tc.skipped {
				t.Fatalf("units: %d rows, stats %+v", n, ust)
			}
		})
	}
}
