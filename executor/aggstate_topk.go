package executor

import (
	"cmp"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// AggApproxTopK is approx_top_k(x, k) (planner/histogram_agg.go): the LIST
// of a group's k most frequent non-NULL values, most frequent first; NULL
// for a group without values. Param is k. The values are counted exactly,
// as histogram counts them (modeAdd), where DuckDB keeps a sketch of a
// few times k counters: the same answer while the group has no more
// distinct values than the sketch holds, and the exact one past that.
// Among values as frequent, the one that reached that count first comes
// first, as in DuckDB's sketch, whose counters stay sorted by count and
// where a value that grows moves ahead of those below its new count only.
const AggApproxTopK AggKind = 106

// topKResult writes the lists of groups [from, to).
func (s *aggState) topKResult(out *columnar.Vector, from, to int) {
	n := to - from
	t := s.in
	k := int(s.spec.Param.I)
	type counted struct {
		key string
		c   modeCount
	}
	for j := range n {
		counts := s.vals.modes[from+j]
		if len(counts) == 0 {
			out.SetNull(j, n)
			continue
		}
		all := make([]counted, 0, len(counts))
		for key, c := range counts {
			all = append(all, counted{key, c})
		}
		slices.SortFunc(all, func(a, b counted) int {
			if a.c.n != b.c.n {
				return cmp.Compare(b.c.n, a.c.n)
			}
			return cmp.Compare(a.c.last, b.c.last)
		})
		all = all[:min(k, len(all))]
		list := columnar.Value{Type: out.Type, Elems: make([]columnar.Value, len(all))}
		for i, e := range all {
			list.Elems[i] = s.modeKeyValue(t, e.key, e.c)
		}
		out.SetValue(j, n, list)
	}
}
