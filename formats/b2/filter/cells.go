package filter

import "fmt"

// Cells describes how c-blosc2's b2nd plugin filters NDCELL (32) and NDMEAN
// (33) regroup a block: the block, an N-D box of Block items in row-major
// order, is cut into cells of Cell items per dimension (the cells on the
// far edge of a dimension that Cell does not divide are shorter), and the
// filtered block stores the cells one after the other, in row-major order
// of the cell grid, each cell's items in row-major order.
//
// Origin is the per-dimension step between cell corners used to place a
// cell: Cell[0] for both plugins. NDCELL's cells are cubes, so that is
// exact; NDMEAN clamps each dimension's cell to the block, and c-blosc2
// 3.3.2 still steps by the first dimension's cell, so a reader that wants
// c-blosc2's bytes must too.
type Cells struct {
	Block  []int // items per dimension of the block
	Cell   []int // items per dimension of a whole cell
	Origin int
}

// CellsUngroup undoes the regrouping: src holds the cells in storage order,
// dst (the same size) receives the block in row-major order. ts is the item
// size in bytes. Geometry that does not tile src exactly is an error.
func CellsUngroup(dst, src []byte, ts int, c Cells) error {
	return c.walk(len(src), ts, func(blockAt, cellAt, n int) {
		copy(dst[blockAt:blockAt+n], src[cellAt:cellAt+n])
	})
}

// CellsGroup is the forward regrouping (the plugins' encode side), the
// inverse of CellsUngroup when the cells do not overlap.
func CellsGroup(dst, src []byte, ts int, c Cells) error {
	return c.walk(len(src), ts, func(blockAt, cellAt, n int) {
		copy(dst[cellAt:cellAt+n], src[blockAt:blockAt+n])
	})
}

// walk validates the geometry against a block of size bytes and calls run
// once per row of each cell: the row's byte offset in the row-major block,
// its offset in the cell-ordered stream, and its length in bytes.
func (c Cells) walk(size, ts int, run func(blockAt, cellAt, n int)) error {
	nd := len(c.Block)
	if nd == 0 || nd != len(c.Cell) || nd > 8 {
		return fmt.Errorf("%d block dimensions and %d cell dimensions", nd, len(c.Cell))
	}
	if ts <= 0 {
		return fmt.Errorf("item size %d", ts)
	}
	items := 1
	for i, b := range c.Block {
		if b <= 0 || c.Cell[i] <= 0 {
			return fmt.Errorf("block dimension %d is %d with cells of %d", i, b, c.Cell[i])
		}
		items *= b
		if items*ts > size {
			return fmt.Errorf("block shape %v of %d-byte items does not fit a block of %d bytes", c.Block, ts, size)
		}
	}
	if items*ts != size {
		return fmt.Errorf("block shape %v of %d-byte items is %d bytes, the block %d", c.Block, ts, items*ts, size)
	}
	var grid, stride, pad, ii, kk [8]int
	ncells := 1
	s := 1
	for i := nd - 1; i >= 0; i-- {
		grid[i] = (c.Block[i] + c.Cell[i] - 1) / c.Cell[i]
		ncells *= grid[i]
		stride[i] = s
		s *= c.Block[i]
	}
	at, last := 0, 0 // cell-stream cursor; end of the last row placed
	for range ncells {
		origin := 0
		for i := range nd {
			origin += ii[i] * c.Origin * stride[i]
			pad[i] = c.Cell[i]
			if r := c.Block[i] % c.Cell[i]; r != 0 && ii[i] == grid[i]-1 {
				pad[i] = r
			}
		}
		rows := 1
		for i := range nd - 1 {
			rows *= pad[i]
			kk[i] = 0
		}
		n := pad[nd-1] * ts
		for range rows {
			ind := origin
			for i := range nd - 1 {
				ind += kk[i] * stride[i]
			}
			if ind+pad[nd-1] > items || at+n > size {
				return fmt.Errorf("cell rows run past the block (cell origin %d, cell %v, block %v)", origin, c.Cell, c.Block)
			}
			run(ind*ts, at, n)
			at += n
			last = ind + pad[nd-1]
			for i := nd - 2; i >= 0; i-- { // next row of the cell
				if kk[i]++; kk[i] < pad[i] {
					break
				}
				kk[i] = 0
			}
		}
		for i := nd - 1; i >= 0; i-- { // next cell of the grid
			if ii[i]++; ii[i] < grid[i] {
				break
			}
			ii[i] = 0
		}
	}
	if last != items || at != size {
		// c-blosc2 checks the end of the last row against the block.
		return fmt.Errorf("cells of %v do not tile block %v", c.Cell, c.Block)
	}
	return nil
}
