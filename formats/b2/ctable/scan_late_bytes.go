package ctable

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// selBytes appends the rows of sel (nil: [0, n)) of a string column where
// a comparison with one constant holds, NULLs excluded, with the
// comparison inline in one loop: the closures rowMatcher nests cost more
// per row than the comparison itself, and LIKE 'p%' reaches the scan as
// BETWEEN p AND p⁺ (planner.likeRange), tested on every row.
// ok is false for other predicates and vectors.
func selBytes(p index.Pred, v *columnar.Vector, sel []int, n int, out []int) ([]int, bool) {
	if v.Type.Phys() != columnar.PhysBytes || v.Dict != nil || v.Const || len(p.Vals) == 0 {
		return out, false
	}
	for _, x := range p.Vals {
		if x.Null || x.Type.Phys() != columnar.PhysBytes {
			return out, false
		}
	}
	op, a, b := p.Op, p.Vals[0].S, ""
	switch op {
	case index.Eq, index.Lt, index.Le, index.Gt, index.Ge:
	case index.Between:
		// a <= s <= b: s >= a, then s <= b.
		op, b = index.Ge, p.Vals[1].S
	default:
		return out, false
	}
	ka, kb, vals := columnar.NewBytesKey([]byte(a)), columnar.NewBytesKey([]byte(b)), v.Bytes[:n]
	between := p.Op == index.Between
	if succ, ok := columnar.PrefixSuccessor([]byte(a)); between && ok && string(succ) == b {
		// LIKE a% as planner.likeRange pushes it: a <= s <= a⁺ holds
		// when s starts with a or is a⁺, one test for most rows.
		if sel == nil && v.Valid == nil {
			for i, s := range vals {
				if ka.IsPrefixOf(s) || string(s) == b {
					out = append(out, i)
				}
			}
			return out, true
		}
	}
	if sel == nil && v.Valid == nil {
		for i, s := range vals {
			if holds(op, ka.Compare(s)) && (!between || kb.Compare(s) <= 0) {
				out = append(out, i)
			}
		}
		return out, true
	}
	each := func(i int) {
		if s := vals[i]; !v.IsNull(i) && holds(op, ka.Compare(s)) && (!between || kb.Compare(s) <= 0) {
			out = append(out, i)
		}
	}
	if sel == nil {
		for i := range vals {
			each(i)
		}
	} else {
		for _, i := range sel {
			each(i)
		}
	}
	return out, true
}

// holds reports whether a comparison op is true of a value that compares
// c (-1, 0, 1) with its constant. Small enough to be inlined into the
// loops above, where op is the same on every row (a predicted branch).
func holds(op index.Op, c int) bool {
	switch op {
	case index.Eq:
		return c == 0
	case index.Lt:
		return c < 0
	case index.Le:
		return c <= 0
	case index.Gt:
		return c > 0
	}
	return c >= 0 // Ge
}
