package parquet

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// putCodedRows copies src rows part[k]-shift to dst slots off+k where src
// or dst is dictionary-coded (a string column read as codes in a filtered
// scan). An output that accepts codes (codes) gets them: its batch gathers
// rows of one column chunk, hence of one dictionary, and stays coded; it
// turns plain only when a writer fell back to PLAIN pages inside the
// chunk. Plain output rows are the dictionary's values: slices of the
// immutable dictionary, no copy.
func putCodedRows(dst, src *columnar.Vector, part []int, shift, off int, codes bool) {
	sd, scodes, scoded := dict.Of(src)
	if codes && scoded && (off == 0 || dst.Dict == src.Dict) {
		if off == 0 {
			dict.Set(dst, sd, int(batchRows))
		}
		copyRows(dst.Codes[off:], scodes, part, shift)
		return
	}
	if dd, dcodes, ok := dict.Of(dst); ok {
		for i := range off {
			if dst.Valid == nil || dst.Valid.Get(i) {
				dst.Bytes[i] = dd.Value(dcodes[i])
			}
		}
		dst.Dict, dst.Codes = nil, dst.Codes[:0]
	}
	d := dst.Bytes[off:]
	for k, r := range part {
		switch {
		case src.Valid != nil && !src.Valid.Get(r-shift):
			d[k] = nil
		case scoded:
			d[k] = sd.Value(scodes[r-shift])
		default:
			d[k] = src.Bytes[r-shift]
		}
	}
}

// copyRows sets dst[k] to src[rows[k]-shift]. rows increase strictly (a
// selection), so rows[k..e) are consecutive when rows[e-1]-rows[k] is
// e-1-k: runs found 8 rows at a time (most of the rows under a filter that
// keeps nearly all: TPC-H q01) are copied as one block, other groups of 8
// row by row.
func copyRows[T any](dst, src []T, rows []int, shift int) {
	dst = dst[:len(rows)]
	k := 0
	for k+8 <= len(rows) {
		r0 := rows[k]
		if rows[k+7]-r0 != 7 {
			g, d := rows[k:k+8:k+8], dst[k:k+8:k+8]
			for j, r := range g {
				d[j] = src[r-shift]
			}
			k += 8
			continue
		}
		e := k + 8
		for e+8 <= len(rows) && rows[e+7]-r0 == e+7-k {
			e += 8
		}
		copy(dst[k:e], src[r0-shift:])
		k = e
	}
	for ; k < len(rows); k++ {
		dst[k] = src[rows[k]-shift]
	}
}
