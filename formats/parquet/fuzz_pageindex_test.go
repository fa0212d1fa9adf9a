package parquet

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"

	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// pageIndexSeeds are small files with a page index and bloom filters: one
// from arrow-go's writer (many pages), one from ours.
func pageIndexSeeds(t testing.TB) [][]byte {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.parquet")
	writeArrow(t, p, piCols(), 0, 600, 250, false,
		parquet.WithPageIndexEnabled(true), parquet.WithDataPageSize(256), parquet.WithBatchSize(16),
		parquet.WithBloomFilterEnabled(true), parquet.WithBloomFilterNDV(256), parquet.WithDictionaryDefault(false))
	q := filepath.Join(dir, "b.parquet")
	writeRoundTrip(t, q, 300, WriterOptions{RowGroupRows: 100})
	var out [][]byte
	for _, path := range []string{p, q} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// scanFiltered scans every column under filters that use the page index,
// bloom filters and late materialization on the table's first columns.
func scanFiltered(tb *Table) error {
	sc := tb.Schema()
	var preds [][]index.Pred
	for c, f := range sc[:min(len(sc), 3)] {
		if f.Type.Phys() == columnar.PhysInt {
			v := columnar.IntValue(f.Type, 300)
			preds = append(preds,
				[]index.Pred{{Col: c, Op: index.Eq, Vals: []columnar.Value{v}}},
				[]index.Pred{{Col: c, Op: index.Between, Vals: []columnar.Value{columnar.IntValue(f.Type, 100), v}}})
		}
		preds = append(preds, []index.Pred{{Col: c, Op: index.IsNull}})
	}
	for _, filter := range preds {
		spec := index.ScanSpec{Cols: allColumns(len(sc)), Filter: filter, Limit: -1, Threads: 2}
		_ = tb.DescribeScan(spec)
		r, err := tb.Scan(context.Background(), spec)
		if err != nil {
			return err
		}
		for {
			b, err := r.Next(context.Background())
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				r.Close()
				return err
			}
			for _, v := range b.Cols {
				for i := 0; i < b.Len; i++ {
					_ = v.Value(i)
				}
			}
		}
		r.Close()
	}
	return nil
}

// FuzzParquetPageIndex damages files that carry a page index and bloom
// filters and scans them with filters: the page index and bloom filters
// are parsed from the damaged bytes (a bad one only costs pruning), and the
// scan must never panic; every error wraps ErrCorrupt and names the file.
func FuzzParquetPageIndex(f *testing.F) {
	for _, s := range pageIndexSeeds(f) {
		f.Add(s)
	}
	for _, b := range corpusBytes(16 << 10) { // bloom filters and page indexes of other writers
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		g.Allow(scanAllowance)
		tb, err := openBytes("fuzz.parquet", data)
		if err != nil {
			checkCorrupt(t, err)
			return
		}
		defer tb.Close()
		if err := scanFiltered(tb); err != nil {
			checkCorrupt(t, err)
		}
	})
}

// TestCorruptPageIndex flips bytes across page-indexed files (data pages,
// bloom filters, column and offset indexes) and scans them with filters.
func TestCorruptPageIndex(t *testing.T) {
	for _, data := range pageIndexSeeds(t) {
		step := max(1, len(data)/100) // ~100 variants per file keeps the test quick
		for off := 4; off < len(data)-8; off += step {
			d := append([]byte(nil), data...)
			d[off] ^= 0xa5
			tb, err := openBytes("fuzz.parquet", d)
			if err != nil {
				checkCorrupt(t, err)
				continue
			}
			if err := scanFiltered(tb); err != nil {
				checkCorrupt(t, err)
			}
			tb.Close()
		}
	}
}
