package parquet

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestWriterFooter reads back the footer of a file the Writer wrote and
// checks what readers rely on: statistics, the page index (ColumnIndex and
// OffsetIndex) of every column chunk, dictionary encoding for repetitive
// columns, several pages per chunk of plain numbers, and bloom filters
// exactly on the integer and string columns not written DELTA.
func TestWriterFooter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rt.parquet")
	const n, rg = 50_000, 25_000
	writeRoundTrip(t, path, n, WriterOptions{RowGroupRows: rg})
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	meta := r.MetaData()
	if meta.NumRowGroups() != n/rg {
		t.Fatalf("%d row groups", meta.NumRowGroups())
	}
	blooms := map[string]bool{}
	for g := range meta.NumRowGroups() {
		rgm := meta.RowGroup(g)
		for c := range rgm.NumColumns() {
			cc, err := rgm.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			name := roundTripSchema[c].Name
			st, err := cc.Statistics()
			if err != nil || st == nil || !st.HasNullCount() {
				t.Errorf("rg %d %s: no statistics (%v)", g, name, err)
			} else if !st.HasMinMax() {
				t.Errorf("rg %d %s: no min/max", g, name)
			}
			if cc.GetColumnIndexLocation() == nil || cc.GetOffsetIndexLocation() == nil {
				t.Errorf("rg %d %s: no page index", g, name)
			}
			encs := cc.Encodings()
			delta := slices.Contains(encs, parquet.Encodings.DeltaBinaryPacked)
			dict := slices.Contains(encs, parquet.Encodings.RLEDict) || slices.Contains(encs, parquet.Encodings.PlainDict)
			if (name == "c" || name == "u8") && !dict {
				t.Errorf("rg %d %s: encodings %v, want a dictionary", g, name, encs)
			}
			phys := physOf(roundTripSchema[c].Type)
			wantBloom := !delta && (phys == parquet.Types.Int32 || phys == parquet.Types.Int64 || phys == parquet.Types.ByteArray)
			if got := cc.BloomFilterOffset() > 0; got != wantBloom {
				t.Errorf("rg %d %s (encodings %v): bloom filter %v, want %v", g, name, encs, got, wantBloom)
			}
			blooms[name] = wantBloom
		}
		pir, err := r.GetPageIndexReader().RowGroup(g)
		if err != nil || pir == nil {
			t.Fatalf("rg %d: page index reader: %v", g, err)
		}
		oi, err := pir.GetOffsetIndex(0)
		if err != nil || oi == nil {
			t.Fatalf("rg %d: offset index of id: %v", g, err)
		}
		// 25,000 ids DELTA-packed fit one 64 KiB page; the 8-byte plain
		// f64 column needs two.
		oi, err = pir.GetOffsetIndex(roundTripSchema.Index("f64"))
		if err != nil || oi == nil || len(oi.GetPageLocations()) < 2 {
			t.Errorf("rg %d: f64 offset index %v (%v), want several pages", g, oi, err)
		}
	}
	for _, name := range []string{"s", "blob", "u8", "c"} {
		if !blooms[name] {
			t.Errorf("%s: no bloom filter", name)
		}
	}

	// The bloom filters answer: a string inside every row group's min/max
	// but absent skips (nearly) every row group.
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	s := roundTripSchema.Index("s")
	for _, tc := range []struct {
		val  string
		want int
	}{
		{"s250-zzz", 0},
		{"s250-" + "xxxxxxxxxx", 0}, // present: i%500 == 250 and i%13 == 10 (want counted below)
	} {
		want := 0
		for i := range n {
			if v := rtValue(s, i); !v.Null && v.S == tc.val {
				want++
			}
		}
		var st index.ScanStats
		pred := index.Pred{Col: s, Op: index.Eq, Vals: []columnar.Value{columnar.StringValue(tc.val)}}
		rows := readAll(t, tb, index.ScanSpec{Cols: []int{s}, Filter: []index.Pred{pred}, Limit: -1, Stats: &st})
		if len(rows) != want {
			t.Errorf("s = %q: %d rows, want %d", tc.val, len(rows), want)
		}
		if want == 0 && st.SkippedBy[index.BloomFilter] < int64(n/rg-1) {
			t.Errorf("s = %q: bloom filters skipped %d of %d row groups: %+v", tc.val, st.SkippedBy[index.BloomFilter], n/rg, st)
		}
		if want > 0 && st.UnitsSkipped == int64(n/rg) {
			t.Errorf("s = %q: every row group skipped", tc.val)
		}
	}
}
