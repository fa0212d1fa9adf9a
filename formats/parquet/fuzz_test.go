package parquet

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/index"

	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// seedFiles returns small valid files: arrow-go's writer with every type
// (dictionary and plain) and our own writer.
func seedFiles(t testing.TB) [][]byte {
	dir := t.TempDir()
	var out [][]byte
	add := func(path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	p := filepath.Join(dir, "a.parquet")
	writeArrow(t, p, allCols(), 0, 40, 16, true)
	add(p)
	p = filepath.Join(dir, "b.parquet")
	writeArrow(t, p, allCols()[:4], 0, 30, 30, false)
	add(p)
	p = filepath.Join(dir, "c.parquet")
	writeRoundTrip(t, p, 50, WriterOptions{RowGroupRows: 20})
	add(p)
	return out
}

// scanEverything reads all columns of t, returning the first error.
func scanEverything(t *Table, threads int) error {
	r, err := t.Scan(context.Background(), index.ScanSpec{Cols: allColumns(len(t.Schema())), Limit: 100_000, Threads: threads})
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		b, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, v := range b.Cols {
			for i := 0; i < b.Len; i++ {
				_ = v.Value(i) // touch every value: aliasing bugs show here
			}
		}
	}
}

// FuzzParquetFooter opens arbitrary bytes as a Parquet file and scans it:
// it must never panic, and every error must wrap ErrCorrupt (or
// ErrUnsupported for well-formed files using features we lack).
func FuzzParquetFooter(f *testing.F) {
	for _, s := range seedFiles(f) {
		f.Add(s)
	}
	f.Add([]byte("PAR1PAR1"))
	f.Add([]byte("PAR1\x00\x00\x00\x00PAR1"))
	for _, b := range corpusBytes(64 << 10) {
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
		_ = tb.DescribeScan(index.ScanSpec{Limit: -1})
		for c := range tb.Schema() {
			tb.ColumnStats(c)
		}
		if err := scanEverything(tb, 1); err != nil {
			checkCorrupt(t, err)
		}
	})
}

// corpusBytes returns the files of the corpus (files/ and bad/) of at most
// limit bytes, as fuzz seeds; none when the corpus is absent.
func corpusBytes(limit int64) [][]byte {
	dir := findCorpus()
	if dir == "" {
		return nil
	}
	var out [][]byte
	for _, sub := range []string{"files", "bad"} {
		paths, _ := filepath.Glob(filepath.Join(dir, sub, "*.parquet"))
		for _, p := range paths {
			if st, err := os.Stat(p); err == nil && st.Size() <= limit {
				if b, err := os.ReadFile(p); err == nil {
					out = append(out, b)
				}
			}
		}
	}
	return out
}

// FuzzFooterThrift checks footers (thrift.go, footer.go) on arbitrary
// bytes: no panic, allocation bounded by the input, and a footer it
// accepts and re-encodes (unknown logical types left out) is accepted
// again unchanged, with the same warnings.
func FuzzFooterThrift(f *testing.F) {
	for _, b := range corpusBytes(64 << 10) {
		if len(b) >= 12 {
			n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
			if n <= len(b)-12 {
				f.Add(b[len(b)-8-n : len(b)-8])
			}
		}
	}
	f.Add([]byte{0x15, 0x00, 0x19, 0x1c, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzguard.Start(t, len(data)) // the CPU bound; the allocation bound is tighter here
		defer g.Done()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out, warn, err := checkFooter(data)
		runtime.ReadMemStats(&after)
		// A schema element can be one byte (an empty struct) and is a
		// 40-byte schemaElem in memory: allocation is linear in the
		// footer, at most about 40 times it plus the copy and the names.
		if a := after.TotalAlloc - before.TotalAlloc; a > uint64(48*len(data)+64<<10) {
			t.Fatalf("allocated %d bytes for a %d-byte footer", a, len(data))
		}
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error does not wrap ErrCorrupt: %v", err)
			}
			return
		}
		if len(out) > len(data) {
			t.Fatalf("re-encoded footer grew from %d to %d bytes", len(data), len(out))
		}
		out2, warn2, err := checkFooter(out)
		if err != nil || !bytes.Equal(out2, out) || len(warn2) != 0 {
			t.Fatalf("re-encoded footer checks differently: %v (%d warnings, then %d)", err, len(warn), len(warn2))
		}
		_, _ = newFileMetaData(out)
	})
}

// scanAllowance is what opening and scanning a small file may cost beyond
// the per-byte budget: arrow-go's read buffers and one batch per column,
// sized by the reader's defaults, not by the input.
const scanAllowance = 16 << 20

func checkCorrupt(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
		t.Fatalf("error does not wrap ErrCorrupt: %v", err)
	}
	if !strings.Contains(err.Error(), "fuzz.parquet") {
		t.Fatalf("error does not name the file: %v", err)
	}
}

// TestCorrupt truncates and damages valid files: every failure is an
// ErrCorrupt error naming the file, never a panic.
func TestCorrupt(t *testing.T) {
	for k, data := range seedFiles(t) {
		// Truncations break the footer.
		for _, n := range []int{0, 3, 8, 12, len(data) / 2, len(data) - 9, len(data) - 1} {
			_, err := openBytes("fuzz.parquet", data[:n])
			if err == nil {
				t.Fatalf("file %d truncated to %d bytes opened", k, n)
			}
			checkCorrupt(t, err)
		}
		// Byte flips anywhere; each must give a clean result or a clean error.
		step := max(1, len(data)/250) // ~250 variants per file keeps the test quick
		for off := 4; off < len(data)-8; off += step {
			d := append([]byte(nil), data...)
			d[off] ^= 0x5a
			tb, err := openBytes("fuzz.parquet", d)
			if err != nil {
				checkCorrupt(t, err)
				continue
			}
			if err := scanEverything(tb, 1+off%3); err != nil {
				checkCorrupt(t, err)
				if !strings.Contains(err.Error(), "row group") {
					t.Errorf("scan error does not say where: %v", err)
				}
			}
			tb.Close()
		}
	}
	// A real file on disk: the path is in the error.
	path := filepath.Join(t.TempDir(), "broken.parquet")
	data := seedFiles(t)[0]
	if err := os.WriteFile(path, data[:len(data)-20], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open(truncated) = %v", err)
	}
}
