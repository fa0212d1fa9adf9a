package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// chunkedStore holds rows copied out of batches (whose memory belongs to
// their producer), for every operator that keeps its input until the
// input ends: a hash join's build side, a probe-first join's held probe
// rows, sort, top-k, window, a spool, a parallel aggregate's partitions. Rows are stored in chunks
// of chunkRows rows that never move once allocated, instead of one
// growing slice per column: growing by doubling copies every stored value
// about twice and faults fresh pages each time (TPC-H Q9's 800K partsupp
// and 330K lineitem⋈part build rows allocated 110 MB a run that way), and
// under the small heap goal a query starts with, every such MB costs
// collector work. Only the first chunk grows, up to chunkRows, so that a
// small build allocates little.
//
// Byte payloads are stored back to back in one buffer per chunk with
// their offsets, not as a []byte per row: a chunk holds no pointer for
// the collector to scan, and a row costs 8 bytes of offset instead of a
// 24-byte slice header. Gathered rows share that buffer.
//
// Row r is row r&chunkMask of chunk r>>chunkBits.
type chunkedStore struct {
	cols   []storeColumn
	n      int // rows stored
	chunks int // chunks allocated
	cap0   int // rows chunk 0 has room for (the others: chunkRows)
}

// chunkRows rows per chunk: a multiple of MaxBatch (so a replayed batch of
// MaxBatch rows starting at a multiple of MaxBatch lies in one chunk) and
// of 64 (each chunk's validity is whole words). 16K rows are 128 KB of
// int64: few objects, and at most one chunk of slack per column.
const (
	chunkBits = 14
	chunkRows = 1 << chunkBits
	chunkMask = chunkRows - 1
)

// storeColumn is one column's chunks; the payload slices used are those
// of the column type's physical representation, except that integers are
// held in int16, int32 or int64 per chunk: types of at most 32 bits in
// their width (narrowWidth), 64-bit ones in the narrowest width the
// chunk's values so far fit (widenChunk). A parallel GROUP BY user_id
// passes its 10M rows on as (user_id, count 1, sum of a small qty), three
// BIGINTs held 24 bytes a row in its partitions where 8 do.
type storeColumn struct {
	typ    columnar.Type
	bools  [][]bool
	ints   [][]int64 // per chunk: nil unless that chunk is 64 bits wide (cw)
	i32    [][]int32 // … 32 bits wide
	i16    [][]int16 // … 16 bits wide
	width  int       // 16 or 32 for a narrow integer type, else 0 (per chunk: cw)
	cw     []uint8   // integers: each chunk's width, 16, 32 or 64
	uints  [][]uint64
	floats [][]float64
	data   [][]byte           // bytes: per chunk, the payloads back to back
	offs   [][]int            // bytes: per chunk, row i's payload is data[offs[i]:offs[i+1]]
	nested []*columnar.Vector // nested: per chunk, its rows (store_nested.go)
	// wide says the column is HUGEINT or DECIMAL(19..38), whose 16-byte
	// keys are held as integers per chunk too, up to 128 bits wide
	// (store_wide.go).
	wide  bool
	lows  []int64           // wide: scratch, a batch's values (putWide)
	valid []columnar.Bitmap // per chunk; nil: no NULL in the chunk
	nulls bool              // some chunk has a NULL
}

// newChunkedStore returns an empty store for rows of the given types.
// hint, when > 0, is the rows expected (an estimate): the first chunk
// starts with room for that many (at most chunkRows).
func newChunkedStore(types []columnar.Type, hint int) *chunkedStore {
	s := &chunkedStore{cols: make([]storeColumn, len(types))}
	for c, t := range types {
		s.cols[c].typ = t
		s.cols[c].width = narrowWidth(t)
		s.cols[c].wide = wideInt(t)
	}
	s.cap0 = min(max(hint, columnar.MaxBatch), chunkRows)
	return s
}

// appendRows copies the live rows of cols (vectors of batch b) into the
// store. Coded vectors are decoded and Const ones repeated.
func (s *chunkedStore) appendRows(b *columnar.Batch, cols []*columnar.Vector) {
	live := b.Live()
	var rows []int // nil: rows 0..live-1
	if b.Sel != nil {
		rows = b.Sel[:live]
	}
	for done := 0; done < live; {
		ch, at, size := s.room()
		k := min(live-done, size-at)
		seg := rows
		if rows != nil {
			seg = rows[done : done+k]
		}
		for c, v := range cols {
			s.cols[c].put(v, seg, done, k, ch, at, size)
		}
		s.n += k
		done += k
	}
}

// room makes sure the chunk of row s.n exists and has room for that row;
// it returns the chunk, the row's position in it and the chunk's size.
func (s *chunkedStore) room() (ch, at, size int) {
	ch, at = s.n>>chunkBits, s.n&chunkMask
	size = chunkRows
	if ch == 0 {
		if s.chunks > 0 && at == s.cap0 {
			s.cap0 = min(2*s.cap0, chunkRows)
			for c := range s.cols {
				s.cols[c].growFirst(s.cap0)
			}
		}
		size = s.cap0
	}
	if ch == s.chunks {
		for c := range s.cols {
			s.cols[c].addChunk(size)
		}
		s.chunks++
	}
	return ch, at, size
}

// addChunk appends a chunk with room for n rows.
func (col *storeColumn) addChunk(n int) {
	col.valid = append(col.valid, nil)
	switch col.typ.Phys() {
	case columnar.PhysBool:
		col.bools = append(col.bools, make([]bool, n))
	case columnar.PhysInt:
		col.addIntChunk(n)
	case columnar.PhysUint:
		col.uints = append(col.uints, make([]uint64, n))
	case columnar.PhysFloat:
		col.floats = append(col.floats, make([]float64, n))
	case columnar.PhysBytes:
		if col.wide {
			col.addIntChunk(n)
			col.data = append(col.data, nil) // its keys once 128 bits wide
			break
		}
		col.offs = append(col.offs, make([]int, n+1))
		col.data = append(col.data, nil)
	case columnar.PhysNested:
		col.nested = append(col.nested, columnar.NewVector(col.typ, n))
	}
}

// addIntChunk appends an integer chunk with room for n rows, as narrow
// as the column's type allows.
func (col *storeColumn) addIntChunk(n int) {
	w := col.width
	if w == 0 {
		w = 16 // a 64-bit (or wide) type: widened as its values need (widenChunk)
	}
	var i16 []int16
	var i32 []int32
	switch w {
	case 16:
		i16 = make([]int16, n)
	case 32:
		i32 = make([]int32, n)
	}
	col.i16, col.i32, col.ints = append(col.i16, i16), append(col.i32, i32), append(col.ints, nil)
	col.cw = append(col.cw, uint8(w))
}

// growFirst gives chunk 0 room for n rows, keeping its rows.
func (col *storeColumn) growFirst(n int) {
	switch col.typ.Phys() {
	case columnar.PhysBool:
		col.bools[0] = regrow(col.bools[0], n)
	case columnar.PhysInt:
		col.growFirstInts(n)
	case columnar.PhysUint:
		col.uints[0] = regrow(col.uints[0], n)
	case columnar.PhysFloat:
		col.floats[0] = regrow(col.floats[0], n)
	case columnar.PhysBytes:
		if col.wide {
			col.growFirstInts(n)
			break
		}
		col.offs[0] = regrow(col.offs[0], n+1)
	case columnar.PhysNested:
		col.nested[0].Grow(n)
		col.nested[0].ExtendValid(n)
	}
	if v := col.valid[0]; v != nil {
		grown := columnar.NewBitmap(n)
		copy(grown, v)
		col.valid[0] = grown
	}
}

// growFirstInts is growFirst for chunk 0 of an integer column, at its
// width (a wide column's 128-bit keys included).
func (col *storeColumn) growFirstInts(n int) {
	switch col.cw[0] {
	case 16:
		col.i16[0] = regrow(col.i16[0], n)
	case 32:
		col.i32[0] = regrow(col.i32[0], n)
	case 64:
		col.ints[0] = regrow(col.ints[0], n)
	default:
		col.data[0] = regrow(col.data[0], wideKeyBytes*n)
	}
}

func regrow[T any](s []T, n int) []T {
	out := make([]T, n)
	copy(out, s)
	return out
}

// put copies k live rows of v into chunk ch (of size rows) from position
// at on: rows rows[0:k], or from..from+k when rows is nil.
func (col *storeColumn) put(v *columnar.Vector, rows []int, from, k, ch, at, size int) {
	src := func(i int) int { // the vector row of live row i of the segment
		if v.Const {
			return 0
		}
		if rows == nil {
			return from + i
		}
		return rows[i]
	}
	if v.Type.ID == columnar.Null || v.Valid != nil {
		for i := range k {
			if v.IsNull(src(i)) {
				col.setNull(ch, at+i, size)
			}
		}
	}
	if col.typ.Phys() == columnar.PhysNested {
		col.putNested(v, src, k, ch, at, size)
		return
	}
	var d *dict.Dict
	var codes []int32
	if col.typ.Phys() == columnar.PhysBytes {
		d, codes, _ = dict.Of(v)
	}
	if v.Const || d != nil || v.Type.ID == columnar.Null {
		for i := range k {
			col.putOne(v, d, codes, src(i), ch, at+i)
		}
		return
	}
	switch col.typ.Phys() {
	case columnar.PhysBool:
		copyLive(col.bools[ch][at:at+k], v.Bools, rows, from)
	case columnar.PhysInt:
		if col.width == 0 {
			col.widenChunk(ch, liveWidth(v.Ints, rows, from, k))
		}
		switch col.cw[ch] {
		case 16:
			narrowLive(col.i16[ch][at:at+k], v.Ints, rows, from)
		case 32:
			narrowLive(col.i32[ch][at:at+k], v.Ints, rows, from)
		default:
			copyLive(col.ints[ch][at:at+k], v.Ints, rows, from)
		}
	case columnar.PhysUint:
		copyLive(col.uints[ch][at:at+k], v.Uints, rows, from)
	case columnar.PhysFloat:
		copyLive(col.floats[ch][at:at+k], v.Floats, rows, from)
	case columnar.PhysBytes:
		if col.wide {
			col.putWide(v, rows, from, k, ch, at)
			return
		}
		col.putStrings(v, rows, from, k, ch, at)
	}
}

// copyLive copies src's live rows (rows, or from..from+len(dst) when rows
// is nil) to dst.
func copyLive[T any](dst, src []T, rows []int, from int) {
	if rows == nil {
		copy(dst, src[from:from+len(dst)])
		return
	}
	for k, i := range rows[:len(dst)] {
		dst[k] = src[i]
	}
}

// narrowLive is copyLive into a narrow integer column: the values fit, as
// their type says.
func narrowLive[T int16 | int32](dst []T, src []int64, rows []int, from int) {
	if rows == nil {
		for k, x := range src[from : from+len(dst)] {
			dst[k] = T(x)
		}
		return
	}
	for k, i := range rows[:len(dst)] {
		dst[k] = T(src[i])
	}
}

// narrowWidth is the bits an integer column of type t is stored in: 16
// or 32 for the types whose every value fits (a SMALLINT costs 2 bytes a
// row instead of 8: a parallel aggregate's partitions of (SMALLINT,
// INTEGER) keys held 16 bytes a row where 6 do), 0 for int64.
func narrowWidth(t columnar.Type) int {
	switch t.ID {
	case columnar.Int8, columnar.Int16, columnar.Uint8:
		return 16
	case columnar.Int32, columnar.Uint16:
		return 32
	}
	return 0
}

// chunkWidth is the narrowest chunk width, 16, 32 or 64 bits, that holds
// every integer in [lo, hi].
func chunkWidth(lo, hi int64) uint8 {
	switch {
	case lo >= math.MinInt16 && hi <= math.MaxInt16:
		return 16
	case lo >= math.MinInt32 && hi <= math.MaxInt32:
		return 32
	}
	return 64
}

// liveWidth is chunkWidth of the k live values of src (rows rows[0:k], or
// from..from+k when rows is nil).
func liveWidth(src []int64, rows []int, from, k int) uint8 {
	if k == 0 {
		return 16
	}
	var lo, hi int64
	if rows == nil {
		vals := src[from : from+k]
		lo, hi = vals[0], vals[0]
		for _, x := range vals {
			lo, hi = min(lo, x), max(hi, x)
		}
	} else {
		lo, hi = src[rows[0]], src[rows[0]]
		for _, i := range rows[:k] {
			lo, hi = min(lo, src[i]), max(hi, src[i])
		}
	}
	return chunkWidth(lo, hi)
}

// widenChunk makes chunk ch of a 64-bit integer column at least w bits
// wide, converting the values it holds.
func (col *storeColumn) widenChunk(ch int, w uint8) {
	if w <= col.cw[ch] {
		return
	}
	if w == wideBits {
		col.keysChunk(ch)
		return
	}
	var vals []int64
	switch col.cw[ch] {
	case 16:
		vals = make([]int64, len(col.i16[ch]))
		widen(vals, col.i16[ch])
	case 32:
		vals = make([]int64, len(col.i32[ch]))
		widen(vals, col.i32[ch])
	}
	col.i16[ch], col.i32[ch] = nil, nil
	if w == 32 {
		col.i32[ch] = make([]int32, len(vals))
		for i, x := range vals {
			col.i32[ch][i] = int32(x)
		}
	} else {
		col.ints[ch] = vals
	}
	col.cw[ch] = w
}

// sameWidth is the width of every chunk of an integer column, or 0 when
// they differ.
func (col *storeColumn) sameWidth() uint8 {
	if len(col.cw) == 0 {
		return 64 // no chunk: nothing to gather
	}
	w := col.cw[0]
	for _, x := range col.cw[1:] {
		if x != w {
			return 0
		}
	}
	return w
}

// intAt returns stored row i of chunk ch of an integer column.
func (col *storeColumn) intAt(ch, i int) int64 {
	switch col.cw[ch] {
	case 16:
		return int64(col.i16[ch][i])
	case 32:
		return int64(col.i32[ch][i])
	}
	return col.ints[ch][i]
}

// putStrings appends k live strings of v to chunk ch's buffer. A buffer
// too small is replaced by one sized for the whole chunk from the mean
// length of the chunk's strings so far, plus a sixteenth: sizes reserved
// for a store are its strings' lengths, so capacity past them is memory
// no reservation counts (doubling the buffer instead left 70% more than
// the strings of a 10M-row sort's title and category columns).
func (col *storeColumn) putStrings(v *columnar.Vector, rows []int, from, k, ch, at int) {
	total := 0
	for i := range k {
		r := from + i
		if rows != nil {
			r = rows[i]
		}
		total += len(v.Bytes[r])
	}
	data, offs := col.data[ch], col.offs[ch]
	if want := len(data) + total; want > cap(data) {
		expect := int(int64(want) * int64(len(offs)-1) / int64(at+k))
		grown := make([]byte, len(data), max(want, expect+expect/16))
		copy(grown, data)
		data = grown
	}
	for i := range k {
		r := from + i
		if rows != nil {
			r = rows[i]
		}
		if v.Valid == nil || v.Valid.Get(r) {
			data = append(data, v.Bytes[r]...)
		}
		offs[at+i+1] = len(data)
	}
	col.data[ch] = data
}

// putOne stores row i of v (Const, coded or NULL-typed) at row at of
// chunk ch; a NULL row's bit is already clear.
func (col *storeColumn) putOne(v *columnar.Vector, d *dict.Dict, codes []int32, i, ch, at int) {
	if v.IsNull(i) {
		if col.typ.Phys() == columnar.PhysBytes && !col.wide {
			col.offs[ch][at+1] = col.offs[ch][at]
		}
		return
	}
	switch col.typ.Phys() {
	case columnar.PhysBool:
		col.bools[ch][at] = v.Bools[i]
	case columnar.PhysInt:
		if col.width == 0 {
			col.widenChunk(ch, chunkWidth(v.Ints[i], v.Ints[i]))
		}
		switch col.cw[ch] {
		case 16:
			col.i16[ch][at] = int16(v.Ints[i])
		case 32:
			col.i32[ch][at] = int32(v.Ints[i])
		default:
			col.ints[ch][at] = v.Ints[i]
		}
	case columnar.PhysUint:
		col.uints[ch][at] = v.Uints[i]
	case columnar.PhysFloat:
		col.floats[ch][at] = v.Floats[i]
	case columnar.PhysBytes:
		var b []byte
		if d != nil {
			b = d.Value(codes[i])
		} else {
			b = v.Bytes[i]
		}
		if col.wide {
			col.putWideOne(b, ch, at)
			return
		}
		col.data[ch] = append(col.data[ch], b...)
		col.offs[ch][at+1] = len(col.data[ch])
	}
}

// setNull marks row at of chunk ch (of size rows) NULL.
func (col *storeColumn) setNull(ch, at, size int) {
	if col.valid[ch] == nil {
		col.valid[ch] = columnar.NewBitmap(size)
	}
	col.valid[ch].Clear(at)
	col.nulls = true
}

// gatherCol sets v to the stored rows rows[k] of column c, k in [0,
// len(rows)): v is reset to len(rows) rows and gets a validity bitmap only
// if some gathered row is NULL. Byte payloads share the store's buffers.
func (s *chunkedStore) gatherCol(v *columnar.Vector, c int, rows []int32) {
	col := &s.cols[c]
	n := len(rows)
	v.Reset(n)
	switch col.typ.Phys() {
	case columnar.PhysBool:
		gatherChunks(v.Bools[:n], col.bools, rows)
	case columnar.PhysInt:
		switch col.sameWidth() {
		case 16:
			widenChunks(v.Ints[:n], col.i16, rows)
		case 32:
			widenChunks(v.Ints[:n], col.i32, rows)
		case 64:
			gatherChunks(v.Ints[:n], col.ints, rows)
		default: // chunks of several widths
			for k, r := range rows {
				v.Ints[k] = col.intAt(int(r>>chunkBits), int(r&chunkMask))
			}
		}
	case columnar.PhysUint:
		gatherChunks(v.Uints[:n], col.uints, rows)
	case columnar.PhysFloat:
		gatherChunks(v.Floats[:n], col.floats, rows)
	case columnar.PhysBytes:
		out := v.Bytes[:n]
		if col.wide {
			col.gatherWide(out, rows)
			break
		}
		for k, r := range rows {
			ch, i := r>>chunkBits, r&chunkMask
			offs := col.offs[ch]
			lo, hi := offs[i], offs[i+1]
			out[k] = col.data[ch][lo:hi:hi]
		}
	case columnar.PhysNested:
		col.gatherNested(v, rows)
	}
	if !col.nulls {
		return
	}
	for k, r := range rows {
		if vb := col.valid[r>>chunkBits]; vb != nil && !vb.Get(int(r&chunkMask)) {
			v.SetNull(k, n)
		}
	}
}

func gatherChunks[T any](dst []T, chunks [][]T, rows []int32) {
	if len(chunks) == 1 {
		src := chunks[0]
		for k, r := range rows {
			dst[k] = src[r]
		}
		return
	}
	for k, r := range rows {
		dst[k] = chunks[r>>chunkBits][r&chunkMask]
	}
}

// widenChunks is gatherChunks from a narrow integer column.
func widenChunks[T int16 | int32](dst []int64, chunks [][]T, rows []int32) {
	for k, r := range rows {
		dst[k] = int64(chunks[r>>chunkBits][r&chunkMask])
	}
}

// widen copies narrow integers into dst.
func widen[T int16 | int32](dst []int64, src []T) {
	for k, x := range src[:len(dst)] {
		dst[k] = int64(x)
	}
}

// gather fills out (one vector per column, reused) with the stored rows
// perm[from:to].
func (s *chunkedStore) gather(out *columnar.Batch, perm []int32, from, to int) {
	out.Len = to - from
	out.Sel = nil
	for c := range s.cols {
		s.gatherCol(out.Cols[c], c, perm[from:to])
	}
}

// eachBatch hands fn the stored rows MaxBatch at a time, as one batch
// (reused between calls, sharing the store's strings) of the first
// len(types) stored columns; it stops at fn's first error.
func (s *chunkedStore) eachBatch(types []columnar.Type, fn func(b *columnar.Batch) error) error {
	tmp := columnar.NewBatch(types, columnar.MaxBatch)
	for from := 0; from < s.n; from += columnar.MaxBatch {
		to := min(from+columnar.MaxBatch, s.n)
		for c := range tmp.Cols {
			s.copyRange(tmp.Cols[c], c, from, to)
		}
		tmp.Len, tmp.Sel = to-from, nil
		if err := fn(tmp); err != nil {
			return err
		}
	}
	return nil
}

// eachColumn is eachBatch that fills only column c of the batches (the
// others are empty vectors of the right types), for a caller reading one
// column of a wide store.
func (s *chunkedStore) eachColumn(c int) func(types []columnar.Type, fn func(b *columnar.Batch) error) error {
	return func(types []columnar.Type, fn func(b *columnar.Batch) error) error {
		tmp := columnar.NewBatch(types, 0)
		for from := 0; from < s.n; from += columnar.MaxBatch {
			to := min(from+columnar.MaxBatch, s.n)
			s.copyRange(tmp.Cols[c], c, from, to)
			tmp.Len, tmp.Sel = to-from, nil
			if err := fn(tmp); err != nil {
				return err
			}
		}
		return nil
	}
}

// copyRange sets v to the stored rows [from, to) of column c (v is reset;
// byte payloads share the store's buffers).
func (s *chunkedStore) copyRange(v *columnar.Vector, c, from, to int) {
	col := &s.cols[c]
	n := to - from
	v.Reset(n)
	for done := 0; done < n; {
		r := from + done
		ch, at := r>>chunkBits, r&chunkMask
		k := min(n-done, chunkRows-at)
		switch col.typ.Phys() {
		case columnar.PhysBool:
			copy(v.Bools[done:done+k], col.bools[ch][at:])
		case columnar.PhysInt:
			switch col.cw[ch] {
			case 16:
				widen(v.Ints[done:done+k], col.i16[ch][at:])
			case 32:
				widen(v.Ints[done:done+k], col.i32[ch][at:])
			default:
				copy(v.Ints[done:done+k], col.ints[ch][at:])
			}
		case columnar.PhysUint:
			copy(v.Uints[done:done+k], col.uints[ch][at:])
		case columnar.PhysFloat:
			copy(v.Floats[done:done+k], col.floats[ch][at:])
		case columnar.PhysBytes:
			if col.wide {
				col.wideRange(v.Bytes[done:done+k], ch, at)
				break
			}
			data, offs := col.data[ch], col.offs[ch]
			for i := range k {
				lo, hi := offs[at+i], offs[at+i+1]
				v.Bytes[done+i] = data[lo:hi:hi]
			}
		case columnar.PhysNested:
			for i := range k {
				v.CopyRow(done+i, col.nested[ch], at+i, n)
			}
		}
		if vb := col.valid[ch]; vb != nil {
			for i := range k {
				if !vb.Get(at + i) {
					v.SetNull(done+i, n)
				}
			}
		}
		done += k
	}
}
