package executor

import "github.com/b2sql/b2sql/columnar"

// bitsAdd is bitAdd over BITs: each group keeps its own copy of its
// first BIT in s.bytes and folds the others into it in place; BITs of
// another length are DuckDB's error ("Cannot AND bit strings of
// different sizes"). The padding bits stay set (AND and OR keep them,
// XOR sets them back).
func (s *aggState) bitsAdd(b *columnar.Batch, arg *columnar.Vector, gids []int32) error {
	s.bytes = growZero(s.bytes, len(s.count))
	name := map[AggKind]string{AggBitAnd: "AND", AggBitOr: "OR", AggBitXor: "XOR"}[s.spec.Kind]
	return forRows(b, func(i int) error {
		if arg.IsNull(i) {
			return nil
		}
		x, g := arg.Bytes[i], gids[i]
		if s.count[g] == 0 {
			s.bytes[g] = append([]byte(nil), x...)
			s.count[g]++
			return nil
		}
		acc := s.bytes[g]
		if len(acc) != len(x) || acc[0] != x[0] {
			return errorf("cannot %s bit strings of different sizes", name)
		}
		for j := 1; j < len(x); j++ {
			switch s.spec.Kind {
			case AggBitAnd:
				acc[j] &= x[j]
			case AggBitOr:
				acc[j] |= x[j]
			default:
				acc[j] ^= x[j]
			}
		}
		acc[1] |= ^byte(0xff >> acc[0])
		s.count[g]++
		return nil
	})
}
