package hashtab

import (
	"encoding/binary"

	"github.com/b2sql/b2sql/columnar"
)

// appendNestedKey appends the normal form of row i (not NULL) of the
// nested vector v: equal forms exactly for values that GROUP BY, DISTINCT
// and joins take as equal. A LIST or MAP is its length, then per element
// a NULL flag and the element's form; a STRUCT is per field a NULL flag
// and the field's form. Flat values encode as EncodeKey's (floats with -0
// folded into 0 and one NaN, intervals by their order key), so
// [1.0, NULL] = [1.0, NULL] and [-0.0] = [0.0], as in DuckDB.
func appendNestedKey(dst []byte, v *columnar.Vector, i int) []byte {
	if v.Const {
		i = 0
	}
	if v.Type.ID == columnar.Struct {
		for _, k := range v.Kids {
			dst = appendElemKey(dst, k, i)
		}
		return dst
	}
	s, e := int(v.Starts[i]), int(v.Ends[i])
	dst = binary.AppendUvarint(dst, uint64(e-s))
	for j := s; j < e; j++ {
		dst = appendElemKey(dst, v.Kids[0], j)
	}
	return dst
}

// appendElemKey appends a NULL flag and the form of row j of a nested
// vector's child.
func appendElemKey(dst []byte, k *columnar.Vector, j int) []byte {
	if k.IsNull(j) {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	if k.Type.IsNested() {
		return appendNestedKey(dst, k, j)
	}
	return appendFlatKey(dst, k, j)
}

// appendFlatKey appends the form of row j (not NULL) of a flat vector.
func appendFlatKey(dst []byte, v *columnar.Vector, j int) []byte {
	switch v.Type.Phys() {
	case columnar.PhysBool:
		if v.Bools[j] {
			return append(dst, 1)
		}
		return append(dst, 0)
	case columnar.PhysInt:
		return binary.LittleEndian.AppendUint64(dst, uint64(v.Ints[j]))
	case columnar.PhysUint:
		return binary.LittleEndian.AppendUint64(dst, v.Uints[j])
	case columnar.PhysFloat:
		return binary.LittleEndian.AppendUint64(dst, FloatWord(v.Floats[j]))
	case columnar.PhysBytes:
		s := bytesAt(v, j)
		if v.Type.ID == columnar.Interval { // equal intervals written apart encode alike
			s = columnar.IntervalOrderKey(s)
		}
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		return append(dst, s...)
	}
	return dst
}
