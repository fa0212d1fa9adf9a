package planner

// reorderJoins rewrites each tree of three or more inner and cross joins
// (after PushFilters has turned WHERE equalities into join conditions)
// into a left-deep chain in which every next input is, where possible,
// connected to the inputs before it by an equality: a comma join listed in
// an unlucky FROM order then never builds a cross product. Each condition
// is placed at the first join where all its columns are present. Outer,
// semi, anti and mark joins are barriers: their inputs are reordered
// separately, and an outer join may swap its inputs so that it builds the
// smaller (orientOuter, join_outer.go). Column positions change, never
// column IDs, so parents are unaffected.
func reorderJoins(n Node) Node {
	j, ok := n.(*Join)
	if !ok || (j.Kind != JoinInner && j.Kind != JoinCross) {
		n = mapChildren(n, reorderJoins)
		if j, ok := n.(*Join); ok {
			return orientOuter(j)
		}
		return n
	}
	var leaves []Node
	var conds []Expr
	var flatten func(x Node)
	flatten = func(x Node) {
		if jj, ok := x.(*Join); ok && (jj.Kind == JoinInner || jj.Kind == JoinCross) {
			flatten(jj.Left)
			flatten(jj.Right)
			conds = append(conds, equiCond(jj.EquiKeys)...)
			if jj.Cond != nil {
				conds = append(conds, SplitAnd(jj.Cond)...)
			}
			return
		}
		leaves = append(leaves, reorderJoins(x))
	}
	flatten(j)
	if len(leaves) < 3 {
		return mapChildren(n, reorderJoins)
	}
	// Column sets, computed once.
	leafCols := make([]map[ColID]bool, len(leaves))
	for i, l := range leaves {
		leafCols[i] = colSet(l.Schema())
	}
	condCols := make([]map[ColID]bool, len(conds))
	for c, e := range conds {
		condCols[c] = ExprCols(e, nil)
	}
	// connects reports whether cond c is an equality between the inputs
	// joined so far (cur) and leaf i.
	connects := func(c int, cur map[ColID]bool, i int) bool {
		call, ok := conds[c].(*Call)
		if !ok || call.Fn != "=" || len(call.Args) != 2 {
			return false
		}
		inL, inR := false, false
		for id := range condCols[c] {
			switch {
			case cur[id]:
				inL = true
			case leafCols[i][id]:
				inR = true
			default:
				return false
			}
		}
		return inL && inR
	}
	subset := func(c int, set map[ColID]bool) bool {
		if len(condCols[c]) == 0 {
			return false
		}
		for id := range condCols[c] {
			if !set[id] {
				return false
			}
		}
		return true
	}
	// With row estimates for every leaf, the chain starts from the
	// largest (the fact table streams through; every other input is a
	// hash table) and adds, among the connected leaves, the one whose join
	// is estimated to keep the fewest rows: selective dimensions first,
	// so later joins probe less. Without estimates, FROM order. A chain
	// of up to flowMaxLeaves leaves then takes the order in which the
	// join filters flow best, when it is clearly better (flowOrder).
	ests := make([]est, len(leaves))
	haveEst := true
	for i, l := range leaves {
		e, ok := estimate(l)
		ests[i], haveEst = e, haveEst && ok
	}
	first := 0
	if haveEst {
		for i := range leaves {
			if ests[i].rows > ests[first].rows {
				first = i
			}
		}
	}
	order := greedyOrder(first, leaves, ests, haveEst, leafCols, conds, connects)
	if haveEst {
		filter, connect := flowLinks(leaves, conds)
		order = flowOrder(order, flowLeaves(ests), filter, connect)
	}
	applied := make([]bool, len(conds))
	cur := leaves[order[0]]
	curCols := copySet(leafCols[order[0]])
	curSchema := append([]Column(nil), cur.Schema()...)
	for _, pick := range order[1:] {
		l := leaves[pick]
		for id := range leafCols[pick] {
			curCols[id] = true
		}
		var here []Expr
		for c, e := range conds {
			if !applied[c] && subset(c, curCols) {
				here = append(here, e)
				applied[c] = true
			}
		}
		next := &Join{Left: cur, Right: l, Kind: JoinCross}
		ls := l.Schema()
		if len(here) > 0 {
			next.Kind = JoinInner
			next.EquiKeys, next.Cond = SplitJoinCond(JoinAnd(here), curSchema, ls)
		}
		cur = next
		curSchema = append(curSchema, ls...)
	}
	var rest []Expr
	for c, e := range conds {
		if !applied[c] {
			rest = append(rest, e)
		}
	}
	if len(rest) > 0 {
		cj := cur.(*Join)
		if cj.Cond != nil {
			rest = append(SplitAnd(cj.Cond), rest...)
		}
		cj.Cond = JoinAnd(rest)
		cj.Kind = JoinInner
	}
	return cur
}

// greedyOrder is the chain's order from leaf first: among the leaves
// connected to those placed by an equality (connects), the one whose join
// is estimated to keep the fewest rows (with estimates), else the first in
// FROM order; a leaf connected to none comes when nothing else is left,
// the smallest first.
func greedyOrder(first int, leaves []Node, ests []est, haveEst bool, leafCols []map[ColID]bool, conds []Expr,
	connects func(c int, cur map[ColID]bool, i int) bool) []int {
	used := make([]bool, len(leaves))
	order := []int{first}
	curCols := copySet(leafCols[first])
	curEst := ests[first]
	used[first] = true
	for k := 1; k < len(leaves); k++ {
		pick := -1
		var pickEst est
		for i := range leaves {
			if used[i] {
				continue
			}
			connected := false
			for c := range conds {
				if connects(c, curCols, i) {
					connected = true
					break
				}
			}
			if !connected {
				continue
			}
			if !haveEst {
				pick = i
				break
			}
			e := joinEstimate(curEst, ests[i])
			if pick < 0 || e.rows < pickEst.rows || e.rows == pickEst.rows && ests[i].rows < ests[pick].rows {
				pick, pickEst = i, e
			}
		}
		if pick < 0 {
			for i := range leaves {
				if !used[i] && (pick < 0 || haveEst && ests[i].rows < ests[pick].rows) {
					pick = i
				}
			}
			if haveEst {
				pickEst = est{rows: curEst.rows * ests[pick].rows, sel: curEst.sel * ests[pick].sel}
			}
		}
		curEst = pickEst
		used[pick] = true
		order = append(order, pick)
		for id := range leafCols[pick] {
			curCols[id] = true
		}
	}
	return order
}
