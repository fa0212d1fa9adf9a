package parquet

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// DELTA_BINARY_PACKED integer pages (ids, keys, prices written sorted or
// smooth) are decoded by codeReader too, a page at a time, instead of
// through arrow-go's typed reader: its decoder unpacks each miniblock into
// scratch and then adds the deltas in a second pass, per ReadBatch call,
// which at scan speed cost more than the rest of a plain scan of the
// column. Here each delta is extracted straight from the packed bytes and
// accumulated in one pass: 32 at a time by a function generated for the
// miniblock's bit width (deltaunpack_gen.go, written by internal/deltagen:
// constant shifts and masks, each 8-byte word loaded once, ~6 instructions
// a delta), and a short last miniblock by a loop over the width.
//
// Layout (parquet-format Encodings.md):
//
//	header:  <block size> <miniblocks per block> <value count> <first value>
//	         (ULEB128 ×3, then zigzag ULEB128)
//	block:   <min delta (zigzag ULEB128)> <one bit width byte per miniblock>
//	         <miniblocks: (block size / miniblocks) deltas each, minus min
//	         delta, bit-packed little-endian at the miniblock's width>
//
// The last block may hold fewer values: its unused miniblocks have a width
// byte but no bytes, and the last used miniblock may be padded. Values of
// an INT32 column wrap in 32 bits, of an INT64 column in 64.

//go:generate go run ./internal/bitgen

// hasDeltaPages reports whether a column chunk's metadata lists
// DELTA_BINARY_PACKED among its encodings.
func hasDeltaPages(cc *metadata.ColumnChunkMetaData) bool {
	for _, e := range cc.Encodings() {
		if e == parquet.Encodings.DeltaBinaryPacked {
			return true
		}
	}
	return false
}

// deltaInts reports whether column c may hold DELTA_BINARY_PACKED pages
// that codeReader decodes: an integer kind read from its own physical type.
func deltaInts(c *column) bool {
	return fixedWidth(c) > 0 && !floatKind(c.kind)
}

// decodeDelta decodes the first n values of a DELTA_BINARY_PACKED page body
// into out (grown and returned), as int64; width32 means an INT32 column
// (32-bit wrapping, sign-extended). Errors wrap ErrCorrupt.
func decodeDelta(src []byte, n int, width32 bool, out []int64) ([]int64, error) {
	out = grow(out, n)[:0]
	blockSize, k := binary.Uvarint(src)
	if k <= 0 {
		return out, corruptf("delta header truncated")
	}
	src = src[k:]
	minis, k := binary.Uvarint(src)
	if k <= 0 {
		return out, corruptf("delta header truncated")
	}
	src = src[k:]
	total, k := binary.Uvarint(src)
	if k <= 0 {
		return out, corruptf("delta header truncated")
	}
	src = src[k:]
	first, k := binary.Varint(src) // Go's Varint is zigzag, as the format's
	if k <= 0 {
		return out, corruptf("delta header truncated")
	}
	src = src[k:]
	if blockSize == 0 || blockSize%128 != 0 || blockSize > 1<<24 || minis == 0 || blockSize%minis != 0 || (blockSize/minis)%32 != 0 {
		return out, corruptf("delta block of %d values in %d miniblocks", blockSize, minis)
	}
	if total < uint64(n) {
		return out, corruptf("delta page of %d values, %d expected", total, n)
	}
	if n == 0 {
		return out, nil
	}
	maxWidth := 64
	if width32 {
		maxWidth = 32
		first = int64(int32(first))
	}
	perMini := int(blockSize / minis)
	out = append(out, first)
	cur := first
	for len(out) < n {
		minDelta, k := binary.Varint(src)
		if k <= 0 {
			return out, corruptf("delta block header truncated after %d of %d values", len(out), n)
		}
		src = src[k:]
		if uint64(len(src)) < minis {
			return out, corruptf("delta miniblock widths truncated")
		}
		widths := src[:minis]
		src = src[minis:]
		if end := len(out) + int(blockSize); end <= n {
			// A whole block: its miniblocks straight through the
			// generated group decoders, when all its bytes are there.
			var ok bool
			var rest []byte
			if width32 {
				var c32 int32
				c32, rest, ok = deltaBlock(src, widths, perMini, delta32Group[:], int32(cur), int32(minDelta), out[len(out):end])
				cur = int64(c32)
			} else {
				cur, rest, ok = deltaBlock(src, widths, perMini, delta64Group[:], cur, minDelta, out[len(out):end])
			}
			if ok {
				out, src = out[:end], rest
				continue
			}
		}
		for _, w := range widths {
			if len(out) == n {
				break
			}
			bw := int(w)
			if bw > maxWidth {
				return out, corruptf("delta miniblock of width %d", bw)
			}
			cnt := min(perMini, n-len(out))
			// A full miniblock is perMini×bw bits; the last one used may be
			// cut after its values by a writer that does not pad.
			size := perMini * bw / 8
			if len(src) < size {
				size = (cnt*bw + 7) / 8
				if len(src) < size {
					return out, corruptf("delta miniblock truncated after %d of %d values", len(out), n)
				}
			}
			base := len(out)
			out = out[:base+cnt]
			// The miniblock's bytes and whatever follows: the loads of its
			// last deltas may read past it (masked), not past the page.
			if width32 {
				cur = int64(deltaMini32(src, bw, int32(cur), int32(minDelta), out[base:]))
			} else {
				cur = deltaMini64(src, bw, cur, minDelta, out[base:])
			}
			src = src[size:]
		}
	}
	return out, nil
}

// deltaBlock decodes the miniblocks of one whole block (widths, perMini
// deltas each, packed in src) into out through the group decoders of the
// column's width (groups, indexed by width); it returns the last sum and
// the bytes after the block, or ok false, having written nothing, when a
// width is too large or src is short (the caller's per-miniblock path
// then reports it or decodes a cut last miniblock).
func deltaBlock[T int32 | int64](src, widths []byte, perMini int, groups []func([]byte, *[32]int64, T, T) T, cur, md T, out []int64) (T, []byte, bool) {
	size := 0
	for _, w := range widths {
		if int(w) >= len(groups) {
			return cur, src, false
		}
		size += perMini / 8 * int(w)
	}
	if len(src) < size {
		return cur, src, false
	}
	o := 0
	for _, w := range widths {
		group, step := groups[w], 4*int(w)
		for g := 0; g < perMini; g += 32 {
			cur = group(src, (*[32]int64)(out[o:o+32]), cur, md)
			src, o = src[step:], o+32
		}
	}
	return cur, src, true
}

// deltaMini64 fills out with running sums of cur + minDelta + delta for the
// deltas packed in src at width bw (64-bit wrapping); it returns the last.
func deltaMini64(src []byte, bw int, cur, minDelta int64, out []int64) int64 {
	if bw == 0 {
		for i := range out {
			cur += minDelta
			out[i] = cur
		}
		return cur
	}
	// Whole groups of 32 through the width's generated decoder
	// (deltaunpack_gen.go), the rest (a short last miniblock) below.
	i := 0
	for group := delta64Group[bw]; i+32 <= len(out) && (i+32)*bw <= 8*len(src); i += 32 {
		cur = group(src[i*bw/8:], (*[32]int64)(out[i:i+32]), cur, minDelta)
	}
	mask := ^uint64(0) >> (64 - uint(bw))
	pos := i * bw
	if bw <= 56 {
		// One 8-byte load per delta: bw bits plus a shift of up to 7 fit.
		for ; i < len(out) && pos>>3+8 <= len(src); i++ {
			d := binary.LittleEndian.Uint64(src[pos>>3:]) >> uint(pos&7) & mask
			cur += minDelta + int64(d)
			out[i] = cur
			pos += bw
		}
	}
	for ; i < len(out); i++ {
		cur += minDelta + int64(bitsAt(src, pos, bw))
		out[i] = cur
		pos += bw
	}
	return cur
}

// deltaMini32 is deltaMini64 for INT32 columns: sums wrap in 32 bits and
// are stored sign-extended.
func deltaMini32(src []byte, bw int, cur, minDelta int32, out []int64) int32 {
	if bw == 0 {
		for i := range out {
			cur += minDelta
			out[i] = int64(cur)
		}
		return cur
	}
	i := 0
	for group := delta32Group[bw]; i+32 <= len(out) && (i+32)*bw <= 8*len(src); i += 32 {
		cur = group(src[i*bw/8:], (*[32]int64)(out[i:i+32]), cur, minDelta)
	}
	mask := ^uint64(0) >> (64 - uint(bw))
	pos := i * bw
	for ; i < len(out) && pos>>3+8 <= len(src); i++ {
		d := binary.LittleEndian.Uint64(src[pos>>3:]) >> uint(pos&7) & mask
		cur += minDelta + int32(uint32(d))
		out[i] = int64(cur)
		pos += bw
	}
	for ; i < len(out); i++ {
		cur += minDelta + int32(uint32(bitsAt(src, pos, bw)))
		out[i] = int64(cur)
		pos += bw
	}
	return cur
}

// bitsAt returns the bw bits (bw <= 64) of src starting at bit pos, little
// endian; bits past the end of src read as zero.
func bitsAt(src []byte, pos, bw int) uint64 {
	var buf [16]byte
	if p := pos >> 3; p < len(src) {
		copy(buf[:], src[p:])
	}
	lo := binary.LittleEndian.Uint64(buf[:])
	hi := binary.LittleEndian.Uint64(buf[8:])
	s := uint(pos & 7)
	v := lo >> s
	if s > 0 {
		v |= hi << (64 - s)
	}
	if bw < 64 {
		v &= 1<<uint(bw) - 1
	}
	return v
}

// convertInts applies column c's conversion to integers decoded from its
// physical type, in place (as decodeFixed does for PLAIN values).
func convertInts(c *column, vals []int64) {
	switch c.kind {
	case kInt32:
		if c.mul != 1 {
			for i, x := range vals {
				vals[i] = x * c.mul
			}
		}
	case kUint32:
		for i, x := range vals {
			vals[i] = int64(uint32(x))
		}
	case kInt64:
		convertUnits(vals, c.mul, c.div)
	}
}
