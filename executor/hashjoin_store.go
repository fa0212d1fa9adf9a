package executor

import "github.com/b2sql/b2sql/columnar"

// appendBuild copies the live rows of build batch b into the join's row
// store: rowStore.appendRows with one type switch per column instead of
// per row, no NULL test for columns without NULLs, and one arena block
// for a column's strings. Dictionary-coded vectors are decoded first;
// Const vectors (rare on a build side) take appendRows' general path.
func appendBuild(s *rowStore, b *columnar.Batch) {
	for _, v := range b.Cols {
		if v.Dict != nil {
			b = decodeDicts(b)
			break
		}
	}
	for _, v := range b.Cols {
		if v.Const {
			s.appendRows(b, b.Cols)
			return
		}
	}
	live := b.Live()
	base := s.n
	s.n += live
	var rows []int // nil: rows 0..live-1
	if b.Sel != nil {
		rows = b.Sel[:live]
	}
	for c, v := range b.Cols {
		dst := s.cols[c]
		dst.Grow(s.n)
		switch v.Type.Phys() {
		case columnar.PhysBool:
			copyLive(dst.Bools[base:s.n], v.Bools, rows)
		case columnar.PhysInt:
			copyLive(dst.Ints[base:s.n], v.Ints, rows)
		case columnar.PhysUint:
			copyLive(dst.Uints[base:s.n], v.Uints, rows)
		case columnar.PhysFloat:
			copyLive(dst.Floats[base:s.n], v.Floats, rows)
		case columnar.PhysBytes:
			copyStrings(s, dst.Bytes[base:s.n], v, rows, live)
		}
		appendValidity(dst, v, rows, base, live, s.n)
	}
}

// copyLive copies src's live rows (rows, or the first len(dst) rows when
// rows is nil) to dst.
func copyLive[T any](dst, src []T, rows []int) {
	if rows == nil {
		copy(dst, src[:len(dst)])
		return
	}
	for k, i := range rows {
		dst[k] = src[i]
	}
}

// copyStrings copies the live strings of v into one arena block of s
// (NULL rows get nil).
func copyStrings(s *rowStore, dst [][]byte, v *columnar.Vector, rows []int, live int) {
	row := func(k int) int {
		if rows == nil {
			return k
		}
		return rows[k]
	}
	total := 0
	for k := range live {
		total += len(v.Bytes[row(k)])
	}
	buf := s.bytes.alloc(total)
	off := 0
	for k := range live {
		i := row(k)
		if v.Valid != nil && !v.Valid.Get(i) {
			dst[k] = nil
			continue
		}
		n := copy(buf[off:], v.Bytes[i])
		dst[k] = buf[off : off+n : off+n]
		off += n
	}
}

// appendValidity carries v's NULLs into rows [base, base+live) of dst,
// which has n rows; dst gets a bitmap once some row is NULL.
func appendValidity(dst, v *columnar.Vector, rows []int, base, live, n int) {
	if v.Valid == nil && dst.Valid == nil {
		return
	}
	if dst.Valid == nil {
		dst.Valid = columnar.NewBitmap(n)
	} else if len(dst.Valid)*64 < n {
		grown := columnar.NewBitmap(n + n/2)
		copy(grown, dst.Valid)
		dst.Valid = grown
	}
	for k := range live {
		i := k
		if rows != nil {
			i = rows[k]
		}
		dst.Valid.SetTo(base+k, v.Valid.Get(i))
	}
}

// decodeDicts returns the live rows of b as a batch without selection,
// its non-Const columns gathered (Gather decodes dictionary codes).
func decodeDicts(b *columnar.Batch) *columnar.Batch {
	rows := make([]int32, b.Live())
	for k := range rows {
		rows[k] = int32(b.Row(k))
	}
	out := &columnar.Batch{Cols: make([]*columnar.Vector, len(b.Cols)), Len: len(rows)}
	for c, v := range b.Cols {
		if v.Const {
			out.Cols[c] = v
			continue
		}
		out.Cols[c] = columnar.NewVector(v.Type, 0)
		out.Cols[c].Gather(v, rows)
	}
	return out
}

// reserveRows gives the store's columns room for rows rows (an estimate),
// so that filling them does not copy and re-scan (for the GC) the
// payloads at every early doubling. At most storeReserve rows: an
// estimate far above the truth would zero memory never used (TPC-H Q3
// reserved 1M rows per column for a 147K-row build: 12% of its CPU), and
// the doublings past it copy about as much as they add.
func reserveRows(s *rowStore, rows int) {
	rows = min(rows, storeReserve)
	if rows <= 0 {
		return
	}
	for _, v := range s.cols {
		v.Grow(rows)
		v.Grow(0) // keeps the capacity
	}
}

// storeReserve bounds the rows reserveRows reserves.
const storeReserve = 1 << 16
