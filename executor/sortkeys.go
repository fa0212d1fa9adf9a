package executor

import (
	"bytes"
	"cmp"

	"github.com/b2sql/b2sql/columnar"
)

// SortKey is a compiled ORDER BY key.
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// compareRows orders rows a and b of the key vectors keys, NULLs placed per
// key (DuckDB default: NULLS LAST for both directions), NaN greatest.
func compareRows(keys []*columnar.Vector, spec []SortKey, a, b int) int {
	return compareAcross(keys, a, keys, b, spec)
}

// compareAcross orders row a of the vectors ka against row b of kb.
func compareAcross(ka []*columnar.Vector, a int, kb []*columnar.Vector, b int, spec []SortKey) int {
	for k, v := range ka {
		w := kb[k]
		an, bn := v.Valid != nil && !v.Valid.Get(a), w.Valid != nil && !w.Valid.Get(b)
		if an || bn {
			if an && bn {
				continue
			}
			c := -1 // NULL sorts after values unless NullsFirst
			if an {
				c = 1
			}
			if spec[k].NullsFirst {
				c = -c
			}
			return c
		}
		var c int
		switch v.Type.Phys() {
		case columnar.PhysInt:
			c = cmp.Compare(v.Ints[a], w.Ints[b])
		case columnar.PhysUint:
			c = cmp.Compare(v.Uints[a], w.Uints[b])
		case columnar.PhysFloat:
			c = columnar.CompareFloat(v.Floats[a], w.Floats[b])
		case columnar.PhysBytes:
			c = bytes.Compare(v.Bytes[a], w.Bytes[b])
		case columnar.PhysNested:
			c = columnar.CompareRows(v, a, w, b)
		case columnar.PhysBool:
			x, y := v.Bools[a], w.Bools[b]
			switch {
			case x == y:
				c = 0
			case y:
				c = -1
			default:
				c = 1
			}
		}
		if c != 0 {
			if spec[k].Desc {
				return -c
			}
			return c
		}
	}
	return 0
}
