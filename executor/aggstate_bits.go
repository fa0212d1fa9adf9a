package executor

import "github.com/b2sql/b2sql/columnar"

// bit_and, bit_or and bit_xor (planner/bit_aggs.go): a group's non-NULL
// integers folded bitwise into one uint64 per group (BITs into a copy of
// the group's first one, aggstate_bitstring.go) (the two's complement
// bits of a signed value; sign-extended values stay sign-extended under
// all three), given back in x's type; NULL for a group without values.
// With DISTINCT each value counts once (bit_xor(DISTINCT x) differs).
const (
	AggBitAnd AggKind = 57 + iota
	AggBitOr
	AggBitXor
)

func (k AggKind) bitAgg() bool { return k >= AggBitAnd && k <= AggBitXor }

// bitAdd folds the live non-NULL rows of arg into their groups.
func (s *aggState) bitAdd(b *columnar.Batch, arg *columnar.Vector, gids []int32) error {
	if s.distinct != nil {
		fresh, err := s.distinct.fresh(b, arg, gids)
		if err != nil || len(fresh) == 0 {
			return err
		}
		b = &columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: fresh}
	}
	kind := s.spec.Kind
	if arg.Type.ID == columnar.Bit {
		return s.bitsAdd(b, arg, gids) // aggstate_bitstring.go
	}
	s.uints = growZero(s.uints, len(s.count)) // grown here: grow knows holistic kinds only by their values
	b.ForEach(func(i int) {
		if arg.IsNull(i) {
			return
		}
		x := uint64(0)
		if arg.Type.Phys() == columnar.PhysUint {
			x = arg.Uints[i]
		} else {
			x = uint64(arg.Ints[i])
		}
		g := gids[i]
		switch {
		case s.count[g] == 0:
			s.uints[g] = x
		case kind == AggBitAnd:
			s.uints[g] &= x
		case kind == AggBitOr:
			s.uints[g] |= x
		default:
			s.uints[g] ^= x
		}
		s.count[g]++
	})

	return nil
}

// bitResult writes groups [from, to).
func (s *aggState) bitResult(out *columnar.Vector, from, to int) {
	n := to - from
	for k := range n {
		g := from + k
		switch {
		case s.count[g] == 0:
			out.SetNull(k, n)
		case out.Type.ID == columnar.Bit:
			out.Bytes[k] = s.bytes[g]
		case out.Type.Phys() == columnar.PhysUint:
			out.Uints[k] = s.uints[g]
		default:
			out.Ints[k] = int64(s.uints[g])
		}
	}
}
