package planner

// Join order by filter flow. A left-deep chain builds its hash tables top
// down: the last join's build side is read first, and each build's keys
// become a runtime join filter (joinfilter.go) on every scan below that
// the join's probe keys trace to — the other builds' scans as much as the
// fact table's. So a filtered dimension placed high in the chain shrinks
// every build under it and, through them, the fact table: TPC-H Q5's
// region filter reaches nation, then supplier and customer (c_nationkey =
// s_nationkey), then orders, then lineitem, but only when customer sits
// below supplier. The greedy order (reorderJoins) picks each next join by
// its own output and misses that.
//
// flowOrder scores every connected left-deep order of a small chain by
// the rows its builds hold plus the fact-table rows every join probes,
// with each leaf's rows cut by the filters from the leaves above it, and
// returns the cheapest when it beats the greedy order's score clearly.

// flowMaxLeaves bounds the chains scored exhaustively ((n-1)! orders).
const flowMaxLeaves = 8

// flowGain is how much cheaper than the greedy order another order must
// score to replace it: the estimates are coarse, and the greedy order is
// the known plan.
const flowGain = 0.7

// flowLeaf is what the score needs of one leaf: its rows before and
// after its own filters.
type flowLeaf struct {
	base, sel float64
}

// flowLeaves turns the leaves' estimates into their rows before and after
// their own filters.
func flowLeaves(ests []est) []flowLeaf {
	out := make([]flowLeaf, len(ests))
	for i, e := range ests {
		out[i] = flowLeaf{base: e.rows, sel: 1}
		if e.sel > 0 && e.sel < 1 {
			out[i] = flowLeaf{base: e.rows / e.sel, sel: e.sel}
		}
	}
	return out
}

// flowLinks returns, for each pair of leaves, whether a join filter can
// pass between them — some column of each is equal to the other's through
// a chain of equalities between bare columns of one integer type
// (joinfilter_equal.go: Q9's partsupp and part through l_partkey) — and
// whether some equality connects them directly.
func flowLinks(leaves []Node, conds []Expr) (filter, connect [][]bool) {
	n := len(leaves)
	leafOf := map[ColID]int{}
	for i, l := range leaves {
		for _, c := range l.Schema() {
			leafOf[c.ID] = i
		}
	}
	filter, connect = make([][]bool, n), make([][]bool, n)
	for i := range n {
		filter[i], connect[i] = make([]bool, n), make([]bool, n)
	}
	// Classes of integer columns equal through the conditions.
	class := map[ColID]ColID{}
	var root func(id ColID) ColID
	root = func(id ColID) ColID {
		p, ok := class[id]
		if !ok || p == id {
			return id
		}
		r := root(p)
		class[id] = r
		return r
	}
	for _, c := range conds {
		call, ok := c.(*Call)
		if !ok || call.Fn != "=" || len(call.Args) != 2 {
			continue
		}
		l, okl := call.Args[0].(*ColRef)
		r, okr := call.Args[1].(*ColRef)
		if okl && okr {
			i, oki := leafOf[l.Col.ID]
			j, okj := leafOf[r.Col.ID]
			if oki && okj && i != j {
				connect[i][j], connect[j][i] = true, true
				if sameIntType(l.Col.Type, r.Col.Type) {
					for _, id := range []ColID{l.Col.ID, r.Col.ID} {
						if _, ok := class[id]; !ok {
							class[id] = id
						}
					}
					class[root(l.Col.ID)] = root(r.Col.ID)
				}
			}
			continue
		}
		// An equality of expressions connects the leaves it reads when
		// they are two (no join filter: the keys are not bare columns).
		seen := map[int]bool{}
		for id := range ExprCols(c, nil) {
			if k, ok := leafOf[id]; ok {
				seen[k] = true
			}
		}
		if len(seen) == 2 {
			var ks []int
			for k := range seen {
				ks = append(ks, k)
			}
			connect[ks[0]][ks[1]], connect[ks[1]][ks[0]] = true, true
		}
	}
	members := map[ColID][]int{} // class -> leaves of its columns
	for id := range class {
		members[root(id)] = append(members[root(id)], leafOf[id])
	}
	for _, ls := range members {
		for _, i := range ls {
			for _, j := range ls {
				if i != j {
					filter[i][j] = true
				}
			}
		}
	}
	return filter, connect
}

// flowScore scores order (a permutation of the leaves, order[0] the
// probe side of the whole chain). Top down, each leaf keeps its own
// selectivity times, for each leaf above it linked by a join filter, the
// share of its rows the filter passes: the other leaf's surviving share
// when that leaf is the smaller (it holds the keys), else the other
// leaf's surviving rows over this leaf's rows (at most all of them).
func flowScore(order []int, leaves []flowLeaf, filter [][]bool) float64 {
	eff := make([]float64, len(order)) // by position in order
	for k := len(order) - 1; k >= 0; k-- {
		a := leaves[order[k]]
		e := a.sel
		for j := k + 1; j < len(order); j++ {
			if !filter[order[k]][order[j]] {
				continue
			}
			b := leaves[order[j]]
			if b.base <= a.base {
				e *= eff[j]
			} else {
				e *= min(1, eff[j]*b.base/a.base)
			}
		}
		eff[k] = e
	}
	score := float64(len(order)-1) * leaves[order[0]].base * eff[0]
	for k := 1; k < len(order); k++ {
		score += leaves[order[k]].base * eff[k]
	}
	return score
}

// flowOrder returns the best-scoring connected order starting with
// greedy[0], or greedy itself unless one scores below flowGain times
// greedy's score.
func flowOrder(greedy []int, leaves []flowLeaf, filter, connect [][]bool) []int {
	n := len(greedy)
	if n < 3 || n > flowMaxLeaves {
		return greedy
	}
	best, bestScore := greedy, flowScore(greedy, leaves, filter)
	limit := flowGain * bestScore
	order := []int{greedy[0]}
	used := make([]bool, n)
	used[greedy[0]] = true
	var walk func()
	walk = func() {
		if len(order) == n {
			if s := flowScore(order, leaves, filter); s < limit {
				best, limit = append([]int(nil), order...), s
			}
			return
		}
		for i := range n {
			if used[i] {
				continue
			}
			linked := false
			for _, o := range order {
				if connect[o][i] {
					linked = true
					break
				}
			}
			if !linked {
				continue
			}
			used[i] = true
			order = append(order, i)
			walk()
			order = order[:len(order)-1]
			used[i] = false
		}
	}
	walk()
	return best
}
