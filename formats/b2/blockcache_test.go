package b2

import (
	"encoding/binary"
	"path/filepath"
	"testing"
)

// TestBlockCacheBatches reads two arrays in turn, in batches that end
// inside blocks (as a scan of two columns does), with one Decoder, and
// checks every item against the formula that wrote it: partial blocks
// served from the cache must be the right block of the right frame,
// including under DELTA, whose blocks decode against block 0.
func TestBlockCacheBatches(t *testing.T) {
	dir := t.TempDir()
	const n = 50000
	write := func(name string, filters [6]uint8, item func(i int) uint64) *Array {
		return writeU8Array(t, filepath.Join(dir, name), n, filters, item)
	}
	fa := func(i int) uint64 { return uint64(i) * 2654435761 % 1000003 }
	fb := func(i int) uint64 { return uint64(i/7) + 1<<40 }
	a := write("a.b2nd", [6]uint8{5: FilterShuffle}, fa)
	b := write("b.b2nd", [6]uint8{4: FilterDelta, 5: FilterShuffle}, fb)
	for _, batch := range []int{1, 7, 1000, 2999, 3001, 8192} {
		d := NewDecoder()
		buf := make([]byte, 8*batch)
		for lo := 0; lo < n; lo += batch {
			m := min(batch, n-lo)
			for _, c := range []struct {
				a *Array
				f func(int) uint64
			}{{a, fa}, {b, fb}} {
				if err := c.a.ReadItems1D(d, buf[:8*m], int64(lo), m); err != nil {
					t.Fatal(err)
				}
				for i := 0; i < m; i++ {
					if got, want := binary.LittleEndian.Uint64(buf[8*i:]), c.f(lo+i); got != want {
						t.Fatalf("batch %d, %s item %d: %d, want %d", batch, c.a.Frame.name, lo+i, got, want)
					}
				}
			}
		}
		if batch%3000 != 0 && len(d.cache.slots) == 0 {
			t.Fatalf("batch %d: no partial block was kept", batch)
		}
		d.Release()
	}
}

// writeU8Array writes n uint64 items item(i) as a 1-D array (chunks of
// 16384 items, blocks of 3000, zstd with filters) and opens it.
func writeU8Array(t *testing.T, path string, n int, filters [6]uint8, item func(i int) uint64) *Array {
	t.Helper()
	cp := CParams{Codec: Zstd, CLevel: 1, Filters: filters}
	w, err := CreateArray1D(path, "<u8", &ArrayOptions{ChunkShape: []int{16384}, BlockShape: []int{3000}, CParams: &cp})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint64(buf[8*i:], item(i))
	}
	if err := w.Append(buf); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := OpenArray(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}
