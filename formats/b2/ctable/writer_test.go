package ctable

import (
	"archive/zip"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

var writeSchema = columnar.Schema{
	{Name: "id", Type: columnar.TInt64},
	{Name: "i8", Type: columnar.TInt8},
	{Name: "u32", Type: columnar.TUint32},
	{Name: "u64", Type: columnar.TUint64},
	{Name: "f32", Type: columnar.TFloat32},
	{Name: "f64", Type: columnar.TFloat64, Nullable: true},
	{Name: "ok", Type: columnar.TBool, Nullable: true},
	{Name: "ts", Type: columnar.TTimestamp},
	{Name: "day", Type: columnar.TDate},
	{Name: "price", Type: columnar.DecimalType(10, 2)},
	{Name: "city", Type: columnar.TVarchar, Nullable: true},   // few values → dictionary
	{Name: "code", Type: columnar.TVarchar},                   // short ids → string(max_length)
	{Name: "text", Type: columnar.TVarchar, Nullable: true},   // free text → utf8
	{Name: "blob", Type: columnar.TBlob, Nullable: true},      // vlbytes
	{Name: "grow", Type: columnar.TVarchar},                   // dictionary at first, then utf8
	{Name: "longer", Type: columnar.TVarchar, Nullable: true}, // short ids at first, then utf8
}

// writeRow is the value of row i of every writeSchema column (nil = NULL).
func writeRow(i int) []any {
	var f64, ok, city, text, blob, longer any
	if i%7 != 0 {
		f64 = float64(i) * 0.5
	}
	if i%5 != 0 {
		ok = i%2 == 0
	}
	if i%11 != 0 {
		city = []string{"Lyon", "Paris", "Nice"}[i%3]
	}
	if i%13 != 0 {
		text = fmt.Sprintf("row %d says héllo %s", i, strings.Repeat("x", i%40))
	}
	if i%17 != 0 {
		b := make([]byte, i%5)
		for k := range b {
			b[k] = byte(i + k)
		}
		blob = b
	}
	grow := "g" + fmt.Sprint(i%3)
	if i >= 3000 {
		grow = fmt.Sprint("distinct-", i)
	}
	if i%19 != 0 {
		longer = fmt.Sprintf("L%d", i)
		if i == 4321 {
			longer = "a much longer value than any identifier before"
		}
	}
	return []any{int64(i), int64(i%256 - 128), int64(uint32(i) * 1000003), uint64(i) * 3_000_000_000_000_000_000,
		float64(float32(i) * 0.25), f64, ok, int64(i) * 1_000_000_123, int64(i - 2000), int64(i*101 - 50000),
		city, fmt.Sprintf("c%05d", i), text, blob, grow, longer}
}

// readBack is writeRow as the table reads it (types the writer maps).
func readBack(i int) []any {
	r := writeRow(i)
	r[8] = r[8].(int64) * columnar.MicrosPerDay // DATE → timestamp
	r[9] = float64(r[9].(int64)) / 100          // DECIMAL(10,2) → float64
	return r
}

// batchOf builds rows [lo, hi) as a batch, with a selection that keeps
// every row, plus one garbage row that the selection skips.
func batchOf(lo, hi int) *columnar.Batch {
	n := hi - lo + 1
	types := make([]columnar.Type, len(writeSchema))
	for i, f := range writeSchema {
		types[i] = f.Type
	}
	b := columnar.NewBatch(types, n)
	b.Len = n
	for k := 0; k < n; k++ {
		i := lo + k - 1 // row 0 of the batch is garbage
		if k == 0 {
			i = 999999
		} else {
			b.Sel = append(b.Sel, k)
		}
		for c, v := range writeRow(i) {
			col := b.Cols[c]
			switch x := v.(type) {
			case nil:
				col.SetNull(k, n)
			case int64:
				col.SetValue(k, n, columnar.IntValue(col.Type, x))
			case uint64:
				col.SetValue(k, n, columnar.UintValue(x))
			case float64:
				col.SetValue(k, n, columnar.FloatValue(col.Type, x))
			case bool:
				col.SetValue(k, n, columnar.BoolValue(x))
			case string:
				col.SetValue(k, n, columnar.StringValue(x))
			case []byte:
				col.Bytes[k] = x
			}
		}
	}
	return b
}

func writeTable(t *testing.T, path string, rows int, opts CreateOptions) {
	t.Helper()
	w, err := Create(path, writeSchema, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Batch sizes 1, 3, 7, … 700: boundaries fall everywhere.
	for lo, step := 0, 1; lo < rows; lo, step = lo+step, min(step*2+1, 700) {
		if err := w.Write(batchOf(lo, min(lo+step, rows))); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestWriteRoundTrip(t *testing.T) {
	const rows = 5000
	for _, ext := range []string{".b2d", ".b2z"} {
		t.Run(ext, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t"+ext)
			writeTable(t, path, rows, CreateOptions{ChunkRows: 1000, BlockRows: 250, SampleRows: 2000, DictMaxValues: 16,
				Metadata: map[string]string{"owner": "test"}})
			tb, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			want := "id BIGINT, i8 TINYINT, u32 UINTEGER, u64 UBIGINT, f32 FLOAT, f64 DOUBLE, ok BOOLEAN, ts TIMESTAMP, " +
				"day TIMESTAMP, price DOUBLE, city VARCHAR, code VARCHAR, text VARCHAR, blob BLOB, grow VARCHAR, longer VARCHAR"
			if got := schemaString(tb.Schema()); got != want {
				t.Fatalf("schema %s", got)
			}
			kinds := map[string]string{}
			for _, s := range tb.srcs {
				kinds[s.spec.Name] = s.spec.Kind
			}
			for col, k := range map[string]string{"city": "dictionary", "code": "string", "text": "utf8", "blob": "vlbytes", "grow": "utf8", "longer": "utf8"} {
				if kinds[col] != k {
					t.Errorf("column %s stored as %s, want %s", col, kinds[col], k)
				}
			}
			if tb.RowCount() != rows {
				t.Fatalf("RowCount %d", tb.RowCount())
			}
			got := scanAll(t, tb, index.ScanSpec{Threads: 1})
			if len(got) != rows {
				t.Fatalf("%d rows", len(got))
			}
			for i, r := range got {
				checkRow(t, fmt.Sprint("row ", i), r, readBack(i))
			}
			meta := map[string]string{}
			for _, e := range tb.Metadata() {
				meta[e.Scope+"/"+e.Key] = e.Value
			}
			if meta["table/owner"] != `"test"` {
				t.Errorf("metadata %v", meta)
			}
			// SUMMARY indexes were built: id BETWEEN reads one block of 250.
			p := index.Pred{Col: 0, Op: index.Between, Vals: []columnar.Value{i64(260), i64(270)}}
			if s := tb.SupportsFilter(p); s != index.Inexact {
				t.Fatalf("SupportsFilter %v", s)
			}
			var st index.ScanStats
			if r := scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Stats: &st, Off: noLate}, "id"); len(r) != 250 || st.UnitsSkipped != 19 {
				t.Fatalf("%d rows, %+v", len(r), st)
			}
			if d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}}); d != "blocks=1/20 (summary index on id)" {
				t.Fatalf("DescribeScan %q", d)
			}
			// Nullable float: pruning must keep the blocks with matching rows.
			pf := index.Pred{Col: 5, Op: index.Gt, Vals: []columnar.Value{columnar.FloatValue(columnar.TFloat64, 2400)}}
			n := 0
			for _, r := range scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{pf}}, "f64") {
				if !r[0].Null && r[0].F > 2400 {
					n++
				}
			}
			wantN := 0
			for i := 0; i < rows; i++ {
				if i%7 != 0 && float64(i)*0.5 > 2400 {
					wantN++
				}
			}
			if n != wantN {
				t.Fatalf("f64 > 2400: %d rows, want %d", n, wantN)
			}
		})
	}
}

func TestWriteEmptyAndErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.b2d")
	w, err := Create(path, writeSchema, CreateOptions{})
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
	if tb.RowCount() != 0 || len(scanAll(t, tb, index.ScanSpec{})) != 0 {
		t.Fatal("rows in an empty table")
	}
	// A batch of the wrong shape is refused and nothing is left behind.
	dir := t.TempDir()
	w, err = Create(filepath.Join(dir, "bad.b2z"), writeSchema, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(columnar.NewBatch([]columnar.Type{columnar.TInt64}, 1)); err == nil {
		t.Fatal("no error for a one-column batch")
	}
	w.Abort()
	if m, _ := filepath.Glob(filepath.Join(dir, "*")); len(m) != 0 {
		t.Fatalf("left behind: %v", m)
	}
	_ = math.NaN
}

// TestWriteLayout checks what python-blosc2 relies on: only leaves of the
// table in the tree (no staging files), and for .b2z STORED members with
// complete local headers (no data descriptor), largest first, embed.b2e last.
func TestWriteLayout(t *testing.T) {
	dir := t.TempDir()
	d := filepath.Join(dir, "t.b2d")
	writeTable(t, d, 5000, CreateOptions{ChunkRows: 1000, BlockRows: 250, SampleRows: 2000, DictMaxValues: 16})
	var names []string
	filepath.Walk(d, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(d, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return err
	})
	for _, n := range names {
		if !strings.HasSuffix(n, ".b2nd") && !strings.HasSuffix(n, ".b2b") && !strings.HasSuffix(n, ".b2f") && n != "embed.b2e" {
			t.Errorf("stray file %s", n)
		}
		if strings.Contains(n, "staging") {
			t.Errorf("staging file left: %s", n)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
	z := filepath.Join(dir, "t.b2z")
	writeTable(t, z, 5000, CreateOptions{ChunkRows: 1000, BlockRows: 250, SampleRows: 2000, DictMaxValues: 16})
	zr, err := zip.OpenReader(z)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if len(zr.File) != len(names) {
		t.Errorf("%d members, the directory has %d files", len(zr.File), len(names))
	}
	for i, f := range zr.File {
		if f.Method != zip.Store || f.Flags&0x8 != 0 {
			t.Errorf("member %s: method %d flags %#x", f.Name, f.Method, f.Flags)
		}
		if i > 0 && f.Name != "embed.b2e" && f.UncompressedSize64 > zr.File[i-1].UncompressedSize64 {
			t.Errorf("member %s is larger than the one before", f.Name)
		}
	}
	if last := zr.File[len(zr.File)-1].Name; last != "embed.b2e" {
		t.Errorf("last member %s", last)
	}
}

// TestWriteConst writes constant vectors (one value or NULL for every row).
func TestWriteConst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.b2d")
	schema := columnar.Schema{{Name: "k", Type: columnar.TInt32, Nullable: true}, {Name: "s", Type: columnar.TVarchar, Nullable: true}}
	w, err := Create(path, schema, CreateOptions{SampleRows: 10})
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 3; round++ {
		b := columnar.NewBatch([]columnar.Type{columnar.TInt32, columnar.TVarchar}, 1)
		b.Len = 5
		for _, v := range b.Cols {
			v.Const = true
		}
		b.Cols[0].Ints[0] = int64(round)
		b.Cols[1].Bytes[0] = []byte("x")
		if round == 1 {
			b.Cols[0].SetNull(0, 1)
			b.Cols[1].SetNull(0, 1)
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	rows := scanAll(t, tb, index.ScanSpec{Threads: 1})
	if len(rows) != 15 {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		want := []any{int64(i / 5), "x"}
		if i/5 == 1 {
			want = []any{nil, nil}
		}
		checkRow(t, fmt.Sprint(i), r, want)
	}
}

// TestWriteNullInNotNullColumn keeps a NULL that arrives in a column
// declared NOT NULL (the mask is written and the schema says nullable).
func TestWriteNullInNotNullColumn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n.b2z")
	schema := columnar.Schema{{Name: "k", Type: columnar.TInt64}, {Name: "s", Type: columnar.TVarchar}}
	w, err := Create(path, schema, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TVarchar}, 3)
	b.Len = 3
	for i := 0; i < 3; i++ {
		b.Cols[0].Ints[i] = int64(i)
		b.Cols[1].Bytes[i] = fmt.Appendf(nil, "free text number %d", i)
	}
	b.Cols[0].SetNull(1, 3)
	b.Cols[1].SetNull(2, 3)
	if err := w.Write(b); err != nil {
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
	rows := scanAll(t, tb, index.ScanSpec{Threads: 1})
	checkRow(t, "0", rows[0], []any{int64(0), "free text number 0"})
	checkRow(t, "1", rows[1], []any{nil, "free text number 1"})
	checkRow(t, "2", rows[2], []any{int64(2), nil})
}

// TestCreateZipByOption: CreateOptions.Zip writes one .b2z zip at a path
// without the suffix (COPY … (FORMAT b2z)), which opens as a table.
func TestCreateZipByOption(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	schema := columnar.Schema{{Name: "k", Type: columnar.TInt64}}
	w, err := Create(path, schema, CreateOptions{Zip: true})
	if err != nil {
		t.Fatal(err)
	}
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64}, 2)
	b.Len = 2
	b.Cols[0].Ints[0], b.Cols[0].Ints[1] = 7, 9
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 4)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.ReadFull(f, head); err != nil || string(head) != "PK\x03\x04" {
		t.Fatalf("%s starts %q (%v), want a zip", path, head, err)
	}
}
