package parquet

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// roundTripSchema has one column per writable SQL type.
var roundTripSchema = columnar.Schema{
	{Name: "id", Type: columnar.TInt64},
	{Name: "b", Type: columnar.TBool, Nullable: true},
	{Name: "i8", Type: columnar.TInt8},
	{Name: "i16", Type: columnar.TInt16, Nullable: true},
	{Name: "i32", Type: columnar.TInt32},
	{Name: "u8", Type: columnar.TUint8},
	{Name: "u16", Type: columnar.TUint16},
	{Name: "u32", Type: columnar.TUint32, Nullable: true},
	{Name: "u64", Type: columnar.TUint64},
	{Name: "f32", Type: columnar.TFloat32},
	{Name: "f64", Type: columnar.TFloat64, Nullable: true},
	{Name: "dec5", Type: columnar.DecimalType(5, 2)},
	{Name: "dec18", Type: columnar.DecimalType(18, 4), Nullable: true},
	{Name: "s", Type: columnar.TVarchar, Nullable: true},
	{Name: "blob", Type: columnar.TBlob},
	{Name: "d", Type: columnar.TDate},
	{Name: "ts", Type: columnar.TTimestamp, Nullable: true},
	{Name: "iv", Type: columnar.TInterval},
	{Name: "c", Type: columnar.TVarchar}, // written from Const vectors
}

// rtValue is the value of column c at row i, by formula.
func rtValue(c, i int) columnar.Value {
	f := roundTripSchema[c]
	if f.Nullable && isNull(i) {
		return columnar.NullValue(f.Type)
	}
	t := f.Type
	switch f.Name {
	case "id":
		return columnar.IntValue(t, int64(i))
	case "b":
		return columnar.BoolValue(i%2 == 0)
	case "i8":
		return columnar.IntValue(t, int64(int8(i)))
	case "i16":
		return columnar.IntValue(t, int64(int16(i*31)))
	case "i32":
		return columnar.IntValue(t, int64(int32(i*99991)))
	case "u8":
		return columnar.IntValue(t, int64(uint8(i)))
	case "u16":
		return columnar.IntValue(t, int64(uint16(i*7)))
	case "u32":
		return columnar.IntValue(t, int64(math.MaxUint32-uint32(i)))
	case "u64":
		return columnar.UintValue(math.MaxUint64 - uint64(i))
	case "f32":
		return columnar.FloatValue(t, float64(float32(i)/8))
	case "f64":
		return columnar.FloatValue(t, math.Sqrt(float64(i)))
	case "dec5":
		return columnar.IntValue(t, int64(i%99999))
	case "dec18":
		return columnar.IntValue(t, int64(i)*1_000_000_007-5e17)
	case "s":
		return columnar.StringValue(fmt.Sprintf("s%03d-%s", i%500, string(bytes.Repeat([]byte("x"), i%13))))
	case "blob":
		return columnar.Value{Type: t, S: string([]byte{0, byte(i), 0xff})}
	case "d":
		return columnar.IntValue(t, int64(i-365))
	case "ts":
		return columnar.IntValue(t, 1_704_067_200_000_000+int64(i)*1_000_003)
	case "iv":
		return columnar.IntValue(t, int64(i)*columnar.MicrosPerDay)
	case "c":
		return columnar.StringValue("const")
	}
	panic(f.Name)
}

// writeRoundTrip writes n rows in batches of varying size, every other
// batch through a selection vector that hides garbage rows.
func writeRoundTrip(t testing.TB, path string, n int, opts WriterOptions) {
	t.Helper()
	w, err := NewWriter(path, roundTripSchema, opts)
	if err != nil {
		t.Fatal(err)
	}
	types := make([]columnar.Type, len(roundTripSchema))
	for i, f := range roundTripSchema {
		types[i] = f.Type
	}
	sizes := []int{1, 2, 7, 1024, 333}
	for i, k := 0, 0; i < n; k++ {
		m := min(sizes[k%len(sizes)], n-i)
		withSel := k%2 == 1
		phys := m
		if withSel {
			phys = 2 * m // live rows at even positions, garbage at odd ones
		}
		b := columnar.NewBatch(types, phys)
		b.Len = phys
		for c := range types {
			if roundTripSchema[c].Name == "c" {
				b.Cols[c] = columnar.ConstVector(rtValue(c, 0))
				continue
			}
			for r := 0; r < phys; r++ {
				row := i + r
				if withSel {
					row = i + r/2
					if r%2 == 1 {
						row = 1<<20 + r // garbage
					}
				}
				b.Cols[c].SetValue(r, phys, rtValue(c, row))
			}
		}
		if withSel {
			for r := 0; r < phys; r += 2 {
				b.Sel = append(b.Sel, r)
			}
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		i += m
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestWriterRoundTrip(t *testing.T) {
	const n = 5000
	for _, opts := range []WriterOptions{{}, {RowGroupRows: 1000, Codec: Zstd}, {RowGroupRows: 777, NoDictionary: true, Codec: Uncompressed}} {
		t.Run(fmt.Sprintf("%+v", opts), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rt.parquet")
			writeRoundTrip(t, path, n, opts)
			tb, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			wantRG := 1
			if opts.RowGroupRows > 0 {
				wantRG = int((n + opts.RowGroupRows - 1) / opts.RowGroupRows)
			}
			if tb.RowCount() != n || tb.RowGroups() != wantRG {
				t.Fatalf("rows %d row groups %d, want %d and %d", tb.RowCount(), tb.RowGroups(), n, wantRG)
			}
			sc := tb.Schema()
			for i, f := range roundTripSchema {
				want := f
				if f.Type.ID == columnar.Interval {
					want.Type = columnar.TInt64 // plain INT64 microseconds
				}
				if sc[i] != want {
					t.Errorf("column %d: got %+v, want %+v", i, sc[i], want)
				}
			}
			rows := readAll(t, tb, index.ScanSpec{Cols: allColumns(len(sc)), Limit: -1, Threads: 1})
			if len(rows) != n {
				t.Fatalf("read %d rows", len(rows))
			}
			for i, row := range rows {
				for c := range row {
					want := rtValue(c, i)
					want.Type = sc[c].Type
					if !sameValue(row[c], want) {
						t.Fatalf("row %d column %q: got %v, want %v", i, sc[c].Name, row[c], want)
					}
				}
			}
			// Statistics are written: ids are sorted, so a range reads one row group.
			if opts.RowGroupRows == 1000 {
				var st index.ScanStats
				readAll(t, tb, index.ScanSpec{Cols: []int{0}, Limit: -1, Stats: &st, Filter: []index.Pred{
					{Col: 0, Op: index.Between, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 2100), columnar.IntValue(columnar.TInt64, 2200)}}}})
				if st.UnitsSkipped != 4 {
					t.Errorf("pruning on written statistics: %+v", st)
				}
			}
		})
	}
}

// TestWriterInterop reads a written file back with arrow-go's own reader,
// so that the logical types are checked by an independent implementation.
func TestWriterInterop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rt.parquet")
	writeRoundTrip(t, path, 100, WriterOptions{})
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if !pf.MetaData().RowGroups[0].Columns[0].MetaData.IsSetStatistics() {
		t.Error("no statistics written")
	}
	if pf.GetPageIndexReader() == nil {
		t.Error("no page index")
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"id": "int64", "b": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "u8": "uint8",
		"u16": "uint16", "u32": "uint32", "u64": "uint64", "f32": "float32", "f64": "float64",
		"dec5": "decimal(5, 2)", "dec18": "decimal(18, 4)", "s": "utf8", "blob": "binary",
		"d": "date32", "ts": "timestamp[us]", "iv": "int64", "c": "utf8",
	}
	for _, f := range sc.Fields() {
		if got := f.Type.String(); got != want[f.Name] {
			t.Errorf("arrow type of %q = %s, want %s", f.Name, got, want[f.Name])
		}
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if tbl.NumRows() != 100 {
		t.Fatalf("arrow read %d rows", tbl.NumRows())
	}
	col := tbl.Column(sc.FieldIndices("s")[0]).Data().Chunk(0)
	for i := 0; i < 100; i++ {
		wantV := rtValue(13, i)
		if col.IsNull(i) != wantV.Null || (!wantV.Null && col.ValueStr(i) != wantV.S) {
			t.Fatalf("arrow row %d of s = %q, want %v", i, col.ValueStr(i), wantV)
		}
	}
	_ = arrow.PrimitiveTypes.Int64
}

func TestWriterFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keep.parquet")
	if err := os.WriteFile(path, []byte("old contents"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc := columnar.Schema{{Name: "x", Type: columnar.TInt64}}
	w, err := NewWriter(path, sc, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64}, 3)
	b.Len = 3
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	b.Cols[0].SetNull(1, 3) // NULL in a NOT NULL column
	if err := w.Write(b); err == nil {
		t.Fatal("NULL in NOT NULL column accepted")
	}
	if err := w.Close(); err == nil {
		t.Fatal("Close after a failed Write succeeded")
	}
	// An abandoned write leaves no trace either.
	w, err = NewWriter(path, sc, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Abort()
	got, _ := os.ReadFile(path)
	if string(got) != "old contents" {
		t.Fatalf("old file changed: %q", got)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("temporary files left behind: %v", ents)
	}
	if _, err := NewWriter(path, columnar.Schema{{Name: "a", Type: columnar.TInt8}, {Name: "A", Type: columnar.TInt8}}, WriterOptions{}); err == nil {
		t.Fatal("duplicate column names accepted")
	}
}

func TestWriterEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.parquet")
	w, err := NewWriter(path, roundTripSchema, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if tb.RowCount() != 0 || tb.RowGroups() != 0 || len(tb.Schema()) != len(roundTripSchema) {
		t.Fatalf("rows %d row groups %d columns %d", tb.RowCount(), tb.RowGroups(), len(tb.Schema()))
	}
	if rows := readAll(t, tb, index.ScanSpec{Cols: []int{0, 13}, Limit: -1}); len(rows) != 0 {
		t.Fatalf("read %d rows", len(rows))
	}
}
