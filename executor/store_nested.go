package executor

import "github.com/b2sql/b2sql/columnar"

// A nested column of a chunkedStore keeps each chunk's rows in a nested
// vector of its own (lists as ranges of one child per chunk): rows are
// copied in with their byte payloads, so the store holds nothing of its
// input batches, and copied out (sharing the stored payloads) on gather.

// putNested copies k live rows of v (row src(i) for the i-th) to rows
// at.. of chunk ch (of size rows).
func (col *storeColumn) putNested(v *columnar.Vector, src func(int) int, k, ch, at, size int) {
	dst := col.nested[ch]
	for i := range k {
		dst.CopyRowOwned(at+i, v, src(i), size)
	}
}

// gatherNested sets v (reset to len(rows) rows) to the stored rows rows.
func (col *storeColumn) gatherNested(v *columnar.Vector, rows []int32) {
	n := len(rows)
	for k, r := range rows {
		v.CopyRow(k, col.nested[r>>chunkBits], int(r&chunkMask), n)
	}
}

// nestedBytes estimates what the live rows of the nested vector v (of
// batch b) take once stored.
func nestedBytes(b *columnar.Batch, v *columnar.Vector) int64 {
	var n int64
	for k := range b.Live() {
		n += rowBytes(v, idx(v, b.Row(k)))
	}
	return n
}

// rowBytes estimates the stored size of row i of v, its child rows
// included.
func rowBytes(v *columnar.Vector, i int) int64 {
	if v.IsNull(i) {
		return 8
	}
	switch v.Type.Phys() {
	case columnar.PhysBytes:
		return 24 + int64(len(bytesAt(v, i)))
	case columnar.PhysNested:
		n := int64(8)
		if v.Type.ID == columnar.Struct {
			for _, k := range v.Kids {
				n += rowBytes(k, i)
			}
			return n
		}
		for j := v.Starts[i]; j < v.Ends[i]; j++ {
			n += rowBytes(v.Kids[0], int(j))
		}
		return n
	}
	return 8
}
