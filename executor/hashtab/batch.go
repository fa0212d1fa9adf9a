package hashtab

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// idx maps row i to its payload slot (row 0 of a Const vector).
func idx(v *columnar.Vector, i int) int {
	if v.Const {
		return 0
	}
	return i
}

// bytesAt returns row j's bytes, decoding a dictionary-coded vector.
func bytesAt(v *columnar.Vector, j int) []byte {
	if d, codes, ok := dict.Of(v); ok {
		return d.Value(codes[j])
	}
	return v.Bytes[j]
}

// pushFloats appends row i's value of each float column of keys to its
// list in floats (0 for NULL): a float key word folds -0 and NaNs, so the
// first value is kept apart for Keys.
func pushFloats(floats []chunked[float64], keys []*columnar.Vector, i int) {
	for k, v := range keys {
		if v.Type.Phys() == columnar.PhysFloat {
			j := idx(v, i)
			f := 0.0
			if !v.IsNull(j) {
				f = v.Floats[j]
			}
			floats[k].push(f)
		}
	}
}
