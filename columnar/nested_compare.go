package columnar

import (
	"bytes"
	"cmp"
)

// CompareRows orders row i of a against row j of b, both not NULL and of
// one type, as Compare orders their Values, without boxing them: nested
// values element by element (a NULL element after every value, then the
// shorter list first), so that sorts and merges over nested keys need no
// Value per row. Const vectors are read through.
func CompareRows(a *Vector, i int, b *Vector, j int) int {
	if a.Const {
		i = 0
	}
	if b.Const {
		j = 0
	}
	switch a.Type.Phys() {
	case PhysInt:
		return cmp.Compare(a.Ints[i], b.Ints[j])
	case PhysUint:
		return cmp.Compare(a.Uints[i], b.Uints[j])
	case PhysFloat:
		return CompareFloat(a.Floats[i], b.Floats[j])
	case PhysBool:
		x, y := a.Bools[i], b.Bools[j]
		switch {
		case x == y:
			return 0
		case y:
			return -1
		}
		return 1
	case PhysBytes:
		if a.Type.ID == Interval {
			return CompareIntervals(a.IntervalAt(i), b.IntervalAt(j))
		}
		return bytes.Compare(a.bytesAt(i), b.bytesAt(j))
	case PhysNested:
		return compareNestedRows(a, i, b, j)
	}
	return 0
}

func compareNestedRows(a *Vector, i int, b *Vector, j int) int {
	if a.Type.ID == Struct {
		for f, ka := range a.Kids {
			if c := compareKids(ka, i, b.Kids[f], j); c != 0 {
				return c
			}
		}
		return 0
	}
	as, ae := int(a.Starts[i]), int(a.Ends[i])
	bs, be := int(b.Starts[j]), int(b.Ends[j])
	ka, kb := a.Kids[0], b.Kids[0]
	for k := 0; k < min(ae-as, be-bs); k++ {
		if c := compareKids(ka, as+k, kb, bs+k); c != 0 {
			return c
		}
	}
	return cmp.Compare(ae-as, be-bs)
}

// compareKids orders two child rows, a NULL after every value.
func compareKids(a *Vector, i int, b *Vector, j int) int {
	an, bn := a.IsNull(i), b.IsNull(j)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return CompareRows(a, i, b, j)
}
