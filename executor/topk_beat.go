package executor

import "github.com/b2sql/b2sql/columnar"

// Filtering a batch by the top-k cut.
//
// Once a TopK holds k rows, every input row is compared with the k-th
// (beating): ORDER BY price DESC, id LIMIT 10 OFFSET 100 compares 10M
// rows, most of which lose on the first key alone. compareAcross does it
// through a NULL test, a type switch and a call per row; for an integer or
// floating-point first key, selectBeating settles a row by one comparison
// of its first key with the cut's and calls compareAcross only for the
// rows that tie it, are NULL, or are NaN.

// selectBeating appends to sel the live rows of b whose keys (keys, their
// key vectors, none Const) sort strictly before the one-row cut, and
// returns it.
func selectBeating(b *columnar.Batch, keys, cut []*columnar.Vector, spec []SortKey, sel []int) []int {
	full := func(i int) bool { return compareAcross(keys, i, cut, 0, spec) < 0 }
	v, c := keys[0], cut[0]
	if !c.IsNull(0) {
		switch v.Type.Phys() {
		case columnar.PhysInt:
			return beatFirst(v.Ints, c.Ints[0], spec[0].Desc, b, v.Valid, sel, full)
		case columnar.PhysFloat:
			return beatFirst(v.Floats, c.Floats[0], spec[0].Desc, b, v.Valid, sel, full)
		}
	}
	b.ForEach(func(i int) {
		if full(i) {
			sel = append(sel, i)
		}
	})
	return sel
}

// beatFirst is selectBeating for a first key of values vals (validity
// valid) against the cut's first key cut, a number: a row strictly before
// it is taken, one strictly after it left, and the others (equal, NULL,
// NaN: no order holds for NaN) decided by full.
func beatFirst[T int64 | float64](vals []T, cut T, desc bool, b *columnar.Batch, valid columnar.Bitmap, sel []int, full func(int) bool) []int {
	n := b.Live()
	for k := 0; k < n; k++ {
		i := k
		if b.Sel != nil {
			i = b.Sel[k]
		}
		if valid == nil || valid.Get(i) {
			x := vals[i]
			before, after := x < cut, x > cut
			if desc {
				before, after = after, before
			}
			if before {
				sel = append(sel, i)
				continue
			}
			if after {
				continue
			}
		}
		if full(i) {
			sel = append(sel, i)
		}
	}
	return sel
}
