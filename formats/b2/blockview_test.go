package b2

import (
	"encoding/binary"
	"path/filepath"
	"testing"
)

// TestViewItems1D reads two arrays in turn as views, in batches that end
// inside blocks and cross blocks and chunks, and checks every item against
// the formula that wrote it. A view is given exactly when the items lie in
// one block (blocks of 3000 items, chunks of 16384, so each chunk ends in a
// short block), and both arrays' views of a batch stay valid together.
func TestViewItems1D(t *testing.T) {
	dir := t.TempDir()
	const n = 50000
	write := func(name string, filters [6]uint8, item func(i int) uint64) *Array {
		return writeU8Array(t, filepath.Join(dir, name), n, filters, item)
	}
	fa := func(i int) uint64 { return uint64(i) * 2654435761 % 1000003 }
	fb := func(i int) uint64 { return uint64(i/7) + 1<<40 }
	a := write("a.b2nd", [6]uint8{5: FilterShuffle}, fa)
	b := write("b.b2nd", [6]uint8{4: FilterDelta, 5: FilterShuffle}, fb)
	inOneBlock := func(lo, m int) bool {
		c, first, last := lo/16384, lo%16384, lo%16384+m-1
		return (lo+m-1)/16384 == c && first/3000 == last/3000
	}
	check := func(batch, lo, m int, view []byte, f func(int) uint64, name string) {
		t.Helper()
		if len(view) != 8*m {
			t.Fatalf("batch %d, %s items [%d, %d): view of %d bytes", batch, name, lo, lo+m, len(view))
		}
		for i := 0; i < m; i++ {
			if got, want := binary.LittleEndian.Uint64(view[8*i:]), f(lo+i); got != want {
				t.Fatalf("batch %d, %s item %d: %d, want %d", batch, name, lo+i, got, want)
			}
		}
	}
	for _, batch := range []int{1, 7, 1000, 2999, 3000, 3001, 8192} {
		d := NewDecoder()
		buf := make([]byte, 8*batch)
		views := 0
		for lo := 0; lo < n; lo += batch {
			m := min(batch, n-lo)
			var got [2][]byte
			for k, c := range []struct {
				a *Array
				f func(int) uint64
			}{{a, fa}, {b, fb}} {
				view, ok, err := c.a.ViewItems1D(d, int64(lo), m)
				if err != nil {
					t.Fatal(err)
				}
				if ok != inOneBlock(lo, m) {
					t.Fatalf("batch %d, items [%d, %d): view %v", batch, lo, lo+m, ok)
				}
				if !ok {
					view = buf[:8*m]
					if err := c.a.ReadItems1D(d, view, int64(lo), m); err != nil {
						t.Fatal(err)
					}
					view = append([]byte(nil), view...)
				} else {
					views++
				}
				got[k] = view
				check(batch, lo, m, view, c.f, c.a.Frame.name)
			}
			// a's view survives the decoding of b's block.
			check(batch, lo, m, got[0], fa, "a.b2nd (again)")
		}
		if views == 0 && batch <= 3000 {
			t.Fatalf("batch %d: no view", batch)
		}
		d.Release()
	}
}
