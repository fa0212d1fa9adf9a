package parquet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// dictCols are string columns arrow-go writes with dictionary pages: s has
// 37 values (NULL where isNull), r is REQUIRED with 5 values, and long has
// a distinct 60-byte value per row, so that with a small dictionary page
// limit its chunks fall back to PLAIN pages partway through.
func dictCols() []tcol {
	str := func(f func(i int) string) (func(array.Builder, int), func(int) columnar.Value) {
		return func(b array.Builder, i int) { b.(*array.StringBuilder).Append(f(i)) },
			func(i int) columnar.Value { return columnar.StringValue(f(i)) }
	}
	sApp, sVal := str(func(i int) string { return fmt.Sprintf("s%02d", i%37) })
	rApp, rVal := str(func(i int) string { return fmt.Sprintf("r%d", (i/100)%5) })
	lApp, lVal := str(func(i int) string { return fmt.Sprintf("%s%06d", strings.Repeat("L", 54), i) })
	return []tcol{
		{name: "id", typ: arrow.PrimitiveTypes.Int64, want: columnar.TInt64,
			app: func(b array.Builder, i int) { b.(*array.Int64Builder).Append(int64(i)) },
			val: func(i int) columnar.Value { return columnar.IntValue(columnar.TInt64, int64(i)) }},
		{name: "s", typ: arrow.BinaryTypes.String, nullable: true, want: columnar.TVarchar, app: sApp, val: sVal},
		{name: "r", typ: arrow.BinaryTypes.String, want: columnar.TVarchar, app: rApp, val: rVal},
		{name: "long", typ: arrow.BinaryTypes.String, nullable: true, want: columnar.TVarchar, app: lApp, val: lVal},
		// Numeric dictionary chunks, gathered by codeReader: num has a
		// distinct value per row (PLAIN fallback past 512 values), small
		// ten values, ts milliseconds converted to microseconds.
		{name: "num", typ: arrow.PrimitiveTypes.Float64, nullable: true, want: columnar.TFloat64,
			app: func(b array.Builder, i int) { b.(*array.Float64Builder).Append(float64(i) / 4) },
			val: func(i int) columnar.Value { return columnar.FloatValue(columnar.TFloat64, float64(i)/4) }},
		{name: "small", typ: arrow.PrimitiveTypes.Int32, want: columnar.TInt32,
			app: func(b array.Builder, i int) { b.(*array.Int32Builder).Append(int32(i%10 - 5)) },
			val: func(i int) columnar.Value { return columnar.IntValue(columnar.TInt32, int64(i%10-5)) }},
		{name: "ts", typ: &arrow.TimestampType{Unit: arrow.Millisecond}, nullable: true, want: columnar.TTimestamp,
			app: func(b array.Builder, i int) { b.(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i%50) * 1001)) },
			val: func(i int) columnar.Value { return columnar.IntValue(columnar.TTimestamp, int64(i%50)*1001*1000) }},
	}
}

// scanCodes reads every row of spec and reports how many batches of each
// column came coded.
func scanCodes(t *testing.T, tb *Table, spec index.ScanSpec) (rows [][]columnar.Value, coded []int) {
	t.Helper()
	r, err := tb.Scan(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	coded = make([]int, len(spec.Cols))
	for {
		b, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for c, v := range b.Cols {
			if v.Dict != nil {
				coded[c]++
				if len(v.Codes) < b.Len {
					t.Fatalf("column %d: %d codes for %d rows", c, len(v.Codes), b.Len)
				}
			}
		}
		for i := 0; i < b.Live(); i++ {
			row := make([]columnar.Value, len(b.Cols))
			for c, v := range b.Cols {
				row[c] = v.Value(b.Row(i))
			}
			rows = append(rows, row)
		}
	}
	return rows, coded
}

func TestDictCodesScan(t *testing.T) {
	const n, rg = 5000, 1000
	for _, pv := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
		t.Run(fmt.Sprintf("pagev%d", pv+1), func(t *testing.T) {
			cols := dictCols()
			path := filepath.Join(t.TempDir(), "d.parquet")
			writeArrow(t, path, cols, 0, n, rg, false,
				parquet.WithDataPageVersion(pv),
				parquet.WithBatchSize(100),                 // the writer checks the dictionary size per batch
				parquet.WithDictionaryPageSizeLimit(4<<10)) // long: ~70 values, num 512, then PLAIN
			tb, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			check := func(rows [][]columnar.Value) {
				t.Helper()
				if len(rows) != n {
					t.Fatalf("%d rows, want %d", len(rows), n)
				}
				for i, row := range rows {
					id := int(row[0].I)
					for c, col := range cols {
						want := col.val(id)
						if col.nullable && isNull(id) {
							want = columnar.NullValue(col.want)
						}
						if !sameValue(row[c], want) {
							t.Fatalf("row %d (id %d) column %s: got %v, want %v", i, id, col.name, row[c], want)
						}
					}
				}
			}

			stats := &index.ScanStats{}
			spec := index.ScanSpec{Cols: []int{0, 1, 2, 3, 4, 5, 6}, Limit: -1, Threads: 2, DictCols: []int{1, 2, 3}, Stats: stats}
			rows, coded := scanCodes(t, tb, spec)
			check(rows)
			// Every chunk of s, r and long starts with a dictionary page
			// (DictUnits counts string chunks handed over as codes).
			if stats.DictUnits != 3*n/rg {
				t.Errorf("DictUnits = %d, want %d", stats.DictUnits, 3*n/rg)
			}
			if coded[0] != 0 || coded[1] == 0 || coded[2] == 0 || coded[4]+coded[5]+coded[6] != 0 {
				t.Errorf("coded batches per column = %v: want some for s and r only", coded)
			}
			// long falls back to PLAIN within each chunk, and each chunk is
			// one batch here: no batch of it may come coded.
			if coded[3] != 0 {
				t.Errorf("long: %d coded batches despite PLAIN fallback", coded[3])
			}

			// Rule off, or not asked: plain strings only, same rows.
			for name, off := range map[string]index.ScanSpec{
				"dict_codes off": {Cols: spec.Cols, Limit: -1, DictCols: spec.DictCols, Off: index.RuleSet(0).With(index.DictCodes), Stats: &index.ScanStats{}},
				"not asked":      {Cols: spec.Cols, Limit: -1, Stats: &index.ScanStats{}},
			} {
				rows, coded := scanCodes(t, tb, off)
				check(rows)
				if off.Stats.DictUnits != 0 || coded[1]+coded[2]+coded[3] != 0 {
					t.Errorf("%s: DictUnits %d, coded batches %v", name, off.Stats.DictUnits, coded)
				}
			}
		})
	}
}

// TestDictCodesPerChunk: codes of one chunk index that chunk's dictionary;
// row groups with different value sets have different dictionaries.
func TestDictCodesPerChunk(t *testing.T) {
	cols := dictCols()[:2]
	path := filepath.Join(t.TempDir(), "d.parquet")
	// Rows 0..36 in the first row group hold every s value; rows 37..40
	// only s00..s03, minus isNull rows.
	writeArrow(t, path, cols, 0, 41, 37, false)
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	r, err := tb.Scan(context.Background(), index.ScanSpec{Cols: []int{1}, Limit: -1, Threads: 1, DictCols: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var lens []int
	for {
		b, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		d, ok := b.Cols[0].Dict.(interface{ Len() int })
		if !ok {
			t.Fatalf("batch not coded")
		}
		lens = append(lens, d.Len())
	}
	// isNull(i) = i%7 == 3: row 3, 10, 17, 24, 31 and 38 are NULL, so the
	// first dictionary has 37-5 = 32 values, the second s37%37.. = s00..s03
	// minus row 38 (s01): 3 values.
	if fmt.Sprint(lens) != "[32 3]" {
		t.Fatalf("dictionary sizes %v, want [32 3]", lens)
	}
}
