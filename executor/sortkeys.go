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
	for k, v := range keys {
		an, bn := v.Valid != nil && !v.Valid.Get(a), v.Valid != nil && !v.Valid.Get(b)
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
			c = cmp.Compare(v.Ints[a], v.Ints[b])
		case columnar.PhysUint:
			c = cmp.Compare(v.Uints[a], v.Uints[b])
		case columnar.PhysFloat:
			c = columnar.CompareFloat(v.Floats[a], v.Floats[b])
		case columnar.PhysBytes:
			c = bytes.Compare(v.Bytes[a], v.Bytes[b])
		case columnar.PhysBool:
			x, y := v.Bools[a], v.Bools[b]
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
