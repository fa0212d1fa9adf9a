package filter

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// A 2×3 block of one-byte items in 2×2 cells: the full cell (rows "ab",
// "de") comes first, then the short right-hand cell ("c", "f").
func TestCellsByHand(t *testing.T) {
	c := Cells{Block: []int{2, 3}, Cell: []int{2, 2}, Origin: 2}
	block, stream := []byte("abcdef"), []byte("abdecf")
	got := make([]byte, 6)
	if err := CellsGroup(got, block, 1, c); err != nil || string(got) != string(stream) {
		t.Fatalf("group: %q, %v; want %q", got, err, stream)
	}
	if err := CellsUngroup(got, stream, 1, c); err != nil || string(got) != string(block) {
		t.Fatalf("ungroup: %q, %v; want %q", got, err, block)
	}
	// 3-D, 2-byte items: 2×2×3 in 2×2×2 cells.
	c = Cells{Block: []int{2, 2, 3}, Cell: []int{2, 2, 2}, Origin: 2}
	items := "ABCDEFGHIJKL" // row-major: A(0,0,0) B(0,0,1) C(0,0,2) D(0,1,0) …
	var in []byte
	for _, r := range items {
		in = append(in, byte(r), byte(r)+32)
	}
	want := "ABDEGHJKCFIL" // the 2×2×2 cell, then the 2×2×1 remainder
	got = make([]byte, len(in))
	if err := CellsGroup(got, in, 2, c); err != nil {
		t.Fatal(err)
	}
	for i, r := range want {
		if got[2*i] != byte(r) || got[2*i+1] != byte(r)+32 {
			t.Fatalf("3-D group: item %d is %q, want %q", i, got[2*i:2*i+2], string(r))
		}
	}
}

// Ungroup inverts Group for any block shape and cube cells (NDCELL).
func TestCellsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		nd := 1 + rng.IntN(4)
		block, cell := make([]int, nd), make([]int, nd)
		edge := 1 + rng.IntN(5)
		items := 1
		for i := range nd {
			block[i] = 1 + rng.IntN(9)
			cell[i] = edge
			items *= block[i]
		}
		ts := []int{1, 2, 4, 8}[rng.IntN(4)]
		src := make([]byte, items*ts)
		for i := range src {
			src[i] = byte(rng.Uint32())
		}
		c := Cells{Block: block, Cell: cell, Origin: edge}
		mid, back := make([]byte, len(src)), make([]byte, len(src))
		if err := CellsGroup(mid, src, ts, c); err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		if err := CellsUngroup(back, mid, ts, c); err != nil || !bytes.Equal(back, src) {
			t.Fatalf("%v ts %d: round trip differs (%v)", c, ts, err)
		}
	}
}

func TestCellsBadGeometry(t *testing.T) {
	buf := make([]byte, 24)
	for _, c := range []Cells{
		{Block: []int{2, 3}, Cell: []int{2}, Origin: 2},                // dimensions differ
		{Block: []int{4, 3}, Cell: []int{2, 2}, Origin: 2},             // 12 items of 4 bytes ≠ 24
		{Block: []int{2, 0}, Cell: []int{2, 2}, Origin: 2},             // empty dimension
		{Block: []int{2, 3}, Cell: []int{0, 2}, Origin: 2},             // empty cell
		{Block: []int{1 << 40, 1 << 40}, Cell: []int{2, 2}, Origin: 2}, // overflowing size
		{Block: []int{2, 3, 4}, Cell: []int{2, 3, 3}, Origin: 5},       // cells overlap: rows run past the block
	} {
		if err := CellsUngroup(buf, buf, 1, c); err == nil {
			t.Errorf("%v: no error", c)
		}
	}
}

func FuzzCells(f *testing.F) {
	f.Add([]byte{2, 3, 2}, []byte("abdecf"), uint8(1), uint8(2))
	f.Add([]byte{2, 2, 3, 2}, make([]byte, 24), uint8(2), uint8(2))
	f.Fuzz(func(t *testing.T, dims, data []byte, ts, origin uint8) {
		// dims: block dimensions, then the cell edge (allocation is
		// bounded by data: the geometry must match its length).
		if len(dims) < 2 || len(dims) > 9 {
			return
		}
		nd := len(dims) - 1
		block, cell := make([]int, nd), make([]int, nd)
		for i := range nd {
			block[i], cell[i] = int(dims[i]), int(dims[nd])
		}
		dst := make([]byte, len(data))
		c := Cells{Block: block, Cell: cell, Origin: int(origin)}
		if CellsUngroup(dst, data, int(ts), c) == nil && int(origin) == int(dims[nd]) {
			back := make([]byte, len(data))
			if err := CellsGroup(back, dst, int(ts), c); err != nil || !bytes.Equal(back, data) {
				t.Fatalf("%v: group after ungroup differs (%v)", c, err)
			}
		}
	})
}
