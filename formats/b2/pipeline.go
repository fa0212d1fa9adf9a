package b2

import (
	"math"
	"strings"

	"github.com/b2sql/b2sql/formats/b2/filter"
)

// undoFilter reverses filter f (slot meta m) for block b: src → dst, both
// the block's size. ref is the decoded block 0 for DELTA on blocks > 0.
func undoFilter(c *chunk, f, m uint8, dst, src, ref []byte, b int) error {
	ts := c.Typesize
	switch f {
	case FilterShuffle:
		w := ts
		if m != 0 {
			// python-blosc2 groups e.g. 4-byte UCS-4 code units of wide
			// strings whatever the itemsize (meta byte = unit width).
			w = int(m)
		}
		filter.Unshuffle(dst, src, w)
	case FilterBitShuffle:
		if c.Version == 2 && (len(src)/ts)%8 != 0 {
			// Blosc1 skipped bitshuffle for blocks whose item count is
			// not a multiple of 8 (no leftover handling).
			copy(dst, src)
			return nil
		}
		if err := filter.BitUnshuffle(dst, src, ts); err != nil {
			return corruptf("bitshuffle: %v", err)
		}
	case FilterDelta:
		if b > 0 && ref == nil {
			return corruptf("delta block %d without its reference block", b)
		}
		filter.DeltaDecode(dst, src, ref, ts, b == 0)
	case FilterByteDelta:
		w := int(m)
		if w == 0 {
			w = ts
		}
		filter.ByteDeltaDecode(dst, src, w)
	case FilterByteDeltaBuggy:
		// c-blosc2 2.8–2.9's first BYTEDELTA restarted each byte plane's
		// running sum after its SIMD part, so what it wrote depends on the
		// writer's build: no portable inverse to apply.
		return unsupportedf("filter 34 (BYTEDELTA_BUGGY, written by c-blosc2 2.8–2.9; its output depends on the writer's SIMD build)")
	case FilterNDCell, FilterNDMean:
		return undoCells(c, f, m, dst, src)
	default:
		return unsupportedf("filter %d", f)
	}
	return nil
}

// undoCells undoes c-blosc2's b2nd plugin filters NDCELL and NDMEAN, which
// store a block cell by cell (filter.Cells). Both decode by moving the
// cells back: NDCELL is lossless, NDMEAN's lossy step (each cell replaced
// by its mean) happened when writing. The cell edge is the slot's meta
// byte; the block shape comes from the array's b2nd metalayer, which a bare
// chunk does not have.
func undoCells(c *chunk, f, m uint8, dst, src []byte) error {
	name := strings.ToUpper(filterName(f))
	if c.ndBlock == nil {
		return unsupportedf("filter %d (%s) outside a b2nd array: the block shape is in the array's metalayer", f, name)
	}
	edge := int(m)
	if f == FilterNDMean {
		edge = int(int8(m)) // c-blosc2 reads NDMEAN's meta as signed
	}
	if edge <= 0 {
		return corruptf("%s cell edge %d", name, edge)
	}
	if len(c.ndBlock) > 8 {
		return corruptf("%s over %d dimensions (at most 8)", name, len(c.ndBlock))
	}
	var cells [8]int // no allocation per block
	cell := cells[:len(c.ndBlock)]
	cellItems, blockItems := 1, 1
	for i, b := range c.ndBlock {
		cell[i] = edge
		if f == FilterNDMean && edge > b {
			cell[i] = b // NDMEAN clamps its cells to the block
		}
		cellItems = min(cellItems*cell[i], math.MaxInt32)
		blockItems = min(blockItems*b, math.MaxInt32)
	}
	if cellItems > blockItems {
		// c-blosc2 refuses a cell larger than the block.
		return corruptf("%s cell of %d items is larger than the block (%v)", name, cellItems, c.ndBlock)
	}
	err := filter.CellsUngroup(dst, src, c.Typesize, filter.Cells{Block: c.ndBlock, Cell: cell, Origin: cell[0]})
	if err != nil {
		return corruptf("%s: %v", name, err)
	}
	return nil
}

// planesApart reports whether block b of c (bsize bytes) unshuffles
// straight from its planes where they lie (filter.UnshufflePlanes): SHUFFLE
// is its only filter, over whole items, each byte plane is a stream of its
// own, and a vector kernel takes that many planes.
func (c *chunk) planesApart(b, bsize int) bool {
	ts := c.Typesize
	if !c.Split() || c.VLBlocks() || (b == c.nblocks-1 && c.leftover != 0) || bsize%ts != 0 {
		return false
	}
	shuffle := false
	for i, f := range c.Filters {
		switch {
		case f == FilterNone || lossyOnly(f):
		case f == FilterShuffle && (c.FiltersMeta[i] == 0 || int(c.FiltersMeta[i]) == ts):
			shuffle = true
		default:
			return false
		}
	}
	return shuffle && filter.PlanesKernel(ts, bsize/ts)
}
