package b2

import (
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
		// c-blosc2's b2nd plugins regroup cells of the block's N-D shape,
		// which only the array's metalayer knows, not the chunk.
		return unsupportedf("filter %d (%s, a b2nd plugin filter)", f, strings.ToUpper(filterName(f)))
	default:
		return unsupportedf("filter %d", f)
	}
	return nil
}
