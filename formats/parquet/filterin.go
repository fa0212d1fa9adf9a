package parquet

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// IN over an integer column (region IN (1, 5, 7)) runs as its own loop
// over the selection rather than through mark's per-row comparison
// closures: when the constants span fewer than 64 values, a row's test is
// one shift of a 64-bit mask (Go defines a shift by 64 or more as 0, so
// values outside the span need no range test), and the selection is
// compacted in place without branches.

// inInts returns p's constants as int64s in buf, false when p is not an
// IN of non-NULL constants over an integer vector v.
func inInts(p index.Pred, v *columnar.Vector, buf []int64) ([]int64, bool) {
	if p.Op != index.In || v.Const || v.Dict != nil || v.Type.Phys() != columnar.PhysInt || len(p.Vals) == 0 {
		return buf, false
	}
	buf = buf[:0]
	for _, x := range p.Vals {
		if x.Null || x.Type.Phys() != columnar.PhysInt {
			return buf, false
		}
		buf = append(buf, x.I)
	}
	return buf, true
}

// selectInInts keeps the rows of sel whose value in data is non-NULL and
// one of vals (non-empty).
func selectInInts(data, vals []int64, valid columnar.Bitmap, sel []int) []int {
	lo, hi := vals[0], vals[0]
	for _, c := range vals[1:] {
		lo, hi = min(lo, c), max(hi, c)
	}
	k := 0
	if uint64(hi)-uint64(lo) < 64 {
		var m uint64
		for _, c := range vals {
			m |= 1 << uint64(c-lo)
		}
		if valid == nil {
			for _, i := range sel {
				sel[k] = i
				k += int(m >> uint64(data[i]-lo) & 1)
			}
			return sel[:k]
		}
		for _, i := range sel {
			sel[k] = i
			k += int(m>>uint64(data[i]-lo)&1) & int(valid[i>>6]>>(uint(i)&63)&1)
		}
		return sel[:k]
	}
	for _, i := range sel {
		x := data[i]
		for _, c := range vals {
			if x == c {
				if valid == nil || valid.Get(i) {
					sel[k] = i
					k++
				}
				break
			}
		}
	}
	return sel[:k]
}
