package parquet

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
)

// PLAIN BYTE_ARRAY pages of chunks without a dictionary (free text: the
// events title, TPC-H comments), read by codeReader.
//
// Each value is a 4-byte little-endian length and its bytes. The page
// buffer is arrow-go's, reused by the next page, so the values are copied
// into the batch's arena, which the batch keeps and reuses when it is
// recycled: one copy, parsed and copied in the same pass, straight from
// the page. arrow-go's reader did the same copy after a decoding pass of
// its own into a slice of values, and the batch loop then walked them
// twice more (sizes, copies). Copying whole pages into fresh buffers the
// batches alias instead (as dictionary chunks' PLAIN fallback pages are,
// loadValues) costs an allocation per page, which the garbage collector
// and the kernel's zeroing of new memory then pay for: slower than the
// copy for a column made of such pages.

// plainBytes reports whether c's dictionary-less chunks of encodings encs
// are read here: a BYTE_ARRAY column read as bytes, every data page
// PLAIN.
func plainBytes(c *column, encs []parquet.Encoding) bool {
	if c.kind != kBytes || c.phys != parquet.Types.ByteArray {
		return false
	}
	for _, e := range encs {
		switch e {
		case parquet.Encodings.Plain, parquet.Encodings.RLE, parquet.Encodings.BitPacked:
		default:
			return false
		}
	}
	return true
}

// readCopied is read for a dictionary-less BYTE_ARRAY chunk: the next n
// rows into v.Bytes (room for n rows), their bytes appended to arena,
// NULL slots nil. It returns the rows read (fewer than n only at the end
// of the chunk), the grown validity storage and the arena.
func (r *codeReader) readCopied(v *columnar.Vector, n int, validBuf columnar.Bitmap, arena []byte) (int, columnar.Bitmap, []byte, error) {
	got, _, validBuf, arena, err := r.readCopiedWhere(v, n, validBuf, arena, nil, nil)
	return got, validBuf, arena, err
}

// readCopiedWhere is readCopied testing keep (nil: every value passes) on
// each non-NULL value where it lies in the page, before copying it: the
// rows kept are appended to sel, the others (and NULLs) left nil.
func (r *codeReader) readCopiedWhere(v *columnar.Vector, n int, validBuf columnar.Bitmap, arena []byte, keep func([]byte) bool, sel []int) (int, []int, columnar.Bitmap, []byte, error) {
	got := 0
	hasNull := false
	for got < n {
		if r.pos == r.rows {
			ok, err := r.nextPage()
			if err != nil {
				return 0, sel, validBuf, arena, err
			}
			if !ok {
				break
			}
			continue
		}
		k := min(n-got, r.rows-r.pos)
		out := v.Bytes[got : got+k]
		var err error
		switch {
		case r.defs != nil:
			if !hasNull {
				hasNull = true
				validBuf = validBuf.Resize(n)
			}
			arena, sel, err = r.copyNullable(out, validBuf, got, arena, keep, sel)
		case r.lazyBytes:
			arena, sel, err = r.copyValues(out, got, arena, keep, sel)
		default:
			// A dictionary page the chunk's metadata did not announce
			// (nation.dict-malformed.parquet): its values are aliased.
			for j := range out {
				out[j] = r.dict.Value(r.codes[r.vpos+j])
				if keep != nil && keep(out[j]) {
					sel = append(sel, got+j)
				}
			}
			r.vpos += k
		}
		if err != nil {
			return 0, sel, validBuf, arena, err
		}
		r.pos += k
		got += k
	}
	if hasNull {
		v.Valid = validBuf
	} else {
		v.Valid = nil
	}
	return got, sel, validBuf, arena, nil
}

// nextValue returns the next value of the current PLAIN page where it
// lies (aliasing the page buffer, valid until the next page) and moves
// past it.
func (r *codeReader) nextValue() ([]byte, error) {
	src, at := r.plainSrc, r.byteAt
	if len(src)-at >= 4 {
		l := int(binary.LittleEndian.Uint32(src[at:]))
		if at += 4; l >= 0 && l <= len(src)-at {
			r.byteAt = at + l
			return src[at : at+l : at+l], nil
		}
	}
	return nil, r.badValue()
}

// badValue is the error of nextValue at a value the page does not hold.
func (r *codeReader) badValue() error {
	src, at := r.plainSrc, r.byteAt
	if len(src)-at < 4 {
		return corruptf("plain byte array truncated")
	}
	return corruptf("plain byte array of %d bytes, %d left", binary.LittleEndian.Uint32(src[at:]), len(src)-at-4)
}

// appendValue appends x to arena and returns the copy (aliasing arena)
// with the grown arena.
func appendValue(arena, x []byte) ([]byte, []byte) {
	if cap(arena)-len(arena) < len(x) {
		// Earlier values keep the old buffer alive; the batch keeps the
		// new one, big enough next time.
		arena = make([]byte, 0, max(2*cap(arena), len(x), 4096))
	}
	s := len(arena)
	arena = append(arena, x...)
	return arena[s:len(arena):len(arena)], arena
}

// copyValues copies the next len(out) values of the current PLAIN page
// into arena, out aliasing them. With keep (nil: all pass), tested on
// each value where it lies in the page, only the values kept are copied
// and their slots (at+j for out[j]) appended to sel; the others are left
// nil.
func (r *codeReader) copyValues(out [][]byte, at int, arena []byte, keep func([]byte) bool, sel []int) ([]byte, []int, error) {
	// The page is parsed here rather than by nextValue (not inlined):
	// this loop runs once per value of a filtered text column.
	src, pos := r.plainSrc, r.byteAt
	for j := range out {
		if len(src)-pos < 4 {
			r.byteAt = pos
			return arena, sel, r.badValue()
		}
		l := int(binary.LittleEndian.Uint32(src[pos:]))
		if l > len(src)-pos-4 {
			r.byteAt = pos
			return arena, sel, r.badValue()
		}
		x := src[pos+4 : pos+4+l : pos+4+l]
		pos += 4 + l
		out[j] = nil
		if keep == nil {
			out[j], arena = appendValue(arena, x)
		} else if keep(x) {
			out[j], arena = appendValue(arena, x)
			sel = append(sel, at+j)
		}
	}
	r.byteAt = pos
	r.vpos += len(out)
	return arena, sel, nil
}

// copyNullable is copyValues for rows of a page with NULLs (r.defs): out
// holds rows r.pos.. of the page, slots at..at+len(out) of the batch,
// whose NULLs are cleared in valid and left nil. With keep (nil: all
// pass), the values it rejects are left nil too (not copied), and the
// slots of those it keeps appended to sel.
func (r *codeReader) copyNullable(out [][]byte, valid columnar.Bitmap, at int, arena []byte, keep func([]byte) bool, sel []int) ([]byte, []int, error) {
	for j, d := range r.defs[r.pos : r.pos+len(out)] {
		out[j] = nil
		if d != int32(r.maxDef) {
			valid.Clear(at + j)
			continue
		}
		var x []byte
		if r.lazyBytes {
			var err error
			if x, err = r.nextValue(); err != nil {
				return arena, sel, err
			}
		} else {
			x = r.dict.Value(r.codes[r.vpos])
		}
		r.vpos++
		if keep != nil && !keep(x) {
			continue
		}
		if keep != nil {
			sel = append(sel, at+j)
		}
		if r.lazyBytes {
			x, arena = appendValue(arena, x)
		}
		out[j] = x
	}
	return arena, sel, nil
}

// skipBytes moves the current PLAIN BYTE_ARRAY page n values forward.
func (r *codeReader) skipBytes(n int) error {
	src, at := r.plainSrc, r.byteAt
	for range n {
		if len(src)-at < 4 {
			return corruptf("plain byte array truncated")
		}
		l := int(binary.LittleEndian.Uint32(src[at:]))
		at += 4
		if l > len(src)-at {
			return corruptf("plain byte array of %d bytes, %d left", l, len(src)-at)
		}
		at += l
	}
	r.byteAt = at
	return nil
}
