package executor

import (
	"encoding/binary"

	"github.com/b2sql/b2sql/columnar"
)

// A chunkedStore column of HUGEINT or DECIMAL(19..38) is held as the
// integers its 16-byte keys stand for, in chunks 16, 32 or 64 bits wide
// as BIGINT chunks are (widenChunk), and 128 bits (the keys themselves,
// back to back in data[ch], no offsets) only in a chunk where a value
// needs it. Such columns are mostly SUMs, which DuckDB types 128-bit
// whatever they hold: a parallel GROUP BY's partial sum(l_quantity) per
// l_orderkey (TPC-H Q18, 1.5M groups) is a few thousand, and its
// partitions held 24 bytes a row (an 8-byte offset and the key) where 4
// do. Reading the column back writes the keys of narrow chunks into a
// buffer made for that read, so that rows read earlier stay valid as the
// store's own payloads do. UHUGEINT, whose keys are unsigned, keeps the
// plain byte layout.

const (
	wideBits     = 128 // the width of a chunk holding keys
	wideKeyBytes = 16  // a key's bytes
)

// wideInt reports whether a column of type t is held as wide integers.
func wideInt(t columnar.Type) bool {
	return t.ID == columnar.Hugeint || t.ID == columnar.Decimal128
}

// wideWidth is the chunk width that holds x.
func wideWidth(x columnar.Int128) uint8 {
	if !x.IsInt64() {
		return wideBits
	}
	return chunkWidth(int64(x.Lo), int64(x.Lo))
}

// putWide stores k live rows of v (plain keys; rows[0:k], or from..from+k
// when rows is nil) in chunk ch from position at on, widening the chunk
// first to what the values need. NULL rows hold 0.
func (col *storeColumn) putWide(v *columnar.Vector, rows []int, from, k, ch, at int) {
	// The rows' low words as int64s when every value fits one (the
	// common case: a SUM of 64-bit values), decoded once.
	lows := col.lows[:0]
	fits := true
	for i := range k {
		r := from + i
		if rows != nil {
			r = rows[i]
		}
		var hi, lo uint64
		if b := v.Bytes[r]; len(b) == wideKeyBytes && (v.Valid == nil || v.Valid.Get(r)) {
			hi, lo = binary.BigEndian.Uint64(b)^1<<63, binary.BigEndian.Uint64(b[8:])
		}
		if hi != uint64(int64(lo)>>63) {
			fits = false
			break
		}
		lows = append(lows, int64(lo))
	}
	col.lows = lows
	if !fits {
		col.widenChunk(ch, wideBits)
		dst := col.data[ch][wideKeyBytes*at : wideKeyBytes*(at+k)]
		for i := range k {
			r := from + i
			if rows != nil {
				r = rows[i]
			}
			if b := v.Bytes[r]; len(b) == wideKeyBytes && (v.Valid == nil || v.Valid.Get(r)) {
				copy(dst[wideKeyBytes*i:], b)
			} else {
				columnar.AppendInt128Key(dst[wideKeyBytes*i:wideKeyBytes*i], columnar.Int128{})
			}
		}
		return
	}
	col.widenChunk(ch, liveWidth(lows, nil, 0, k))
	switch col.cw[ch] {
	case 16:
		narrowLive(col.i16[ch][at:at+k], lows, nil, 0)
	case 32:
		narrowLive(col.i32[ch][at:at+k], lows, nil, 0)
	case 64:
		copy(col.ints[ch][at:at+k], lows)
	default:
		dst := col.data[ch][wideKeyBytes*at : wideKeyBytes*(at+k)]
		for i, x := range lows {
			putWideKey(dst[wideKeyBytes*i:], x)
		}
	}
}

// putWideKey writes the key of x to the first 16 bytes of dst.
func putWideKey(dst []byte, x int64) {
	binary.BigEndian.PutUint64(dst, uint64(x>>63)^1<<63)
	binary.BigEndian.PutUint64(dst[8:], uint64(x))
}

// putWideOne stores the key b at row at of chunk ch.
func (col *storeColumn) putWideOne(b []byte, ch, at int) {
	x := columnar.Int128FromKey(b)
	col.widenChunk(ch, wideWidth(x))
	switch col.cw[ch] {
	case 16:
		col.i16[ch][at] = int16(x.Lo)
	case 32:
		col.i32[ch][at] = int32(x.Lo)
	case 64:
		col.ints[ch][at] = int64(x.Lo)
	default:
		columnar.AppendInt128Key(col.data[ch][wideKeyBytes*at:wideKeyBytes*at], x)
	}
}

// keysChunk widens chunk ch of a wide column to 128 bits: its values
// become keys.
func (col *storeColumn) keysChunk(ch int) {
	var n int
	switch col.cw[ch] {
	case 16:
		n = len(col.i16[ch])
	case 32:
		n = len(col.i32[ch])
	default:
		n = len(col.ints[ch])
	}
	keys := make([]byte, wideKeyBytes*n)
	for i := range n {
		putWideKey(keys[wideKeyBytes*i:], col.intAt(ch, i))
	}
	col.i16[ch], col.i32[ch], col.ints[ch] = nil, nil, nil
	col.data[ch] = keys
	col.cw[ch] = wideBits
}

// wideKey returns row i of chunk ch as its key: where it lies in a
// 128-bit chunk, else written to the front of *buf, which is advanced
// past it.
func (col *storeColumn) wideKey(ch, i int, buf *[]byte) []byte {
	if col.cw[ch] == wideBits {
		return col.data[ch][wideKeyBytes*i : wideKeyBytes*(i+1) : wideKeyBytes*(i+1)]
	}
	b := (*buf)[:wideKeyBytes:wideKeyBytes]
	putWideKey(b, col.intAt(ch, i))
	*buf = (*buf)[wideKeyBytes:]
	return b
}

// wideRange sets out to the keys of rows at.. of chunk ch.
func (col *storeColumn) wideRange(out [][]byte, ch, at int) {
	n := len(out)
	var keys []byte
	if col.cw[ch] == wideBits {
		keys = col.data[ch][wideKeyBytes*at : wideKeyBytes*(at+n)]
	} else {
		keys = make([]byte, wideKeyBytes*n)
		switch col.cw[ch] {
		case 16:
			for i, x := range col.i16[ch][at : at+n] {
				putWideKey(keys[wideKeyBytes*i:], int64(x))
			}
		case 32:
			for i, x := range col.i32[ch][at : at+n] {
				putWideKey(keys[wideKeyBytes*i:], int64(x))
			}
		default:
			for i, x := range col.ints[ch][at : at+n] {
				putWideKey(keys[wideKeyBytes*i:], x)
			}
		}
	}
	for i := range out {
		out[i] = keys[wideKeyBytes*i : wideKeyBytes*(i+1) : wideKeyBytes*(i+1)]
	}
}

// gatherWide sets out[k] to the key of stored row rows[k].
func (col *storeColumn) gatherWide(out [][]byte, rows []int32) {
	buf := make([]byte, wideKeyBytes*len(rows))
	for k, r := range rows {
		out[k] = col.wideKey(int(r>>chunkBits), int(r&chunkMask), &buf)
	}
}
