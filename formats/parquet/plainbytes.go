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
	got := 0
	hasNull := false
	for got < n {
		if r.pos == r.rows {
			ok, err := r.nextPage()
			if err != nil {
				return 0, validBuf, arena, err
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
			arena, err = r.copyNullable(out, validBuf, got, arena)
		case r.lazyBytes:
			arena, err = r.copyValues(out, arena)
		default:
			// A dictionary page the chunk's metadata did not announce
			// (nation.dict-malformed.parquet): its values are aliased.
			for j := range out {
				out[j] = r.dict.Value(r.codes[r.vpos+j])
			}
			r.vpos += k
		}
		if err != nil {
			return 0, validBuf, arena, err
		}
		r.pos += k
		got += k
	}
	if hasNull {
		v.Valid = validBuf
	} else {
		v.Valid = nil
	}
	return got, validBuf, arena, nil
}

// copyValues copies the next len(out) values of the current PLAIN page
// into arena, out aliasing them.
func (r *codeReader) copyValues(out [][]byte, arena []byte) ([]byte, error) {
	for j := range out {
		var err error
		if out[j], arena, err = r.copyValue(arena); err != nil {
			return arena, err
		}
	}
	r.vpos += len(out)
	return arena, nil
}

// copyValue copies the next value of the current PLAIN page into arena
// and returns it (aliasing arena) with the grown arena.
func (r *codeReader) copyValue(arena []byte) ([]byte, []byte, error) {
	src, at := r.plainSrc, r.byteAt
	if len(src)-at < 4 {
		return nil, arena, corruptf("plain byte array truncated")
	}
	l := int(binary.LittleEndian.Uint32(src[at:]))
	at += 4
	if l > len(src)-at {
		return nil, arena, corruptf("plain byte array of %d bytes, %d left", l, len(src)-at)
	}
	if cap(arena)-len(arena) < l {
		// Earlier values keep the old buffer alive; the batch keeps the
		// new one, big enough next time.
		arena = make([]byte, 0, max(2*cap(arena), l, 4096))
	}
	s := len(arena)
	arena = append(arena, src[at:at+l]...)
	r.byteAt = at + l
	return arena[s:len(arena):len(arena)], arena, nil
}

// copyNullable is copyValues for rows of a page with NULLs (r.defs): out
// holds rows r.pos.. of the page, slots at..at+len(out) of the batch,
// whose NULLs are cleared in valid and left nil.
func (r *codeReader) copyNullable(out [][]byte, valid columnar.Bitmap, at int, arena []byte) ([]byte, error) {
	for j, d := range r.defs[r.pos : r.pos+len(out)] {
		var err error
		switch {
		case d != int32(r.maxDef):
			valid.Clear(at + j)
			out[j] = nil
			continue
		case r.lazyBytes:
			out[j], arena, err = r.copyValue(arena)
		default:
			out[j] = r.dict.Value(r.codes[r.vpos])
		}
		if err != nil {
			return arena, err
		}
		r.vpos++
	}
	return arena, nil
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
