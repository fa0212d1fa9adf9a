package planner

// reorderJoins rewrites each tree of three or more inner and cross joins
// (after PushFilters has turned WHERE equalities into join conditions)
// into a left-deep chain in which every next input is, where possible,
// connected to the inputs before it by an equality: a comma join listed in
// an unlucky FROM order then never builds a cross product. Each condition
// is placed at the first join where all its columns are present. Outer,
// semi, anti and mark joins are barriers: their inputs are reordered
// separately. Column positions change, never column IDs, so parents are
// unaffected.
func reorderJoins(n Node) Node {
	j, ok := n.(*Join)
	if !ok || (j.Kind != JoinInner && j.Kind != JoinCross) {
		return mapChildren(n, reorderJoins)
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
	used := make([]bool, len(leaves))
	applied := make([]bool, len(conds))
	cur := leaves[0]
	curCols := copySet(leafCols[0])
	curSchema := append([]Column(nil), cur.Schema()...)
	used[0] = true
	for k := 1; k < len(leaves); k++ {
		pick := -1
		for i := range leaves {
			if used[i] {
				continue
			}
			for c := range conds {
				if !applied[c] && connects(c, curCols, i) {
					pick = i
					break
				}
			}
			if pick >= 0 {
				break
			}
		}
		if pick < 0 {
			for i := range leaves {
				if !used[i] {
					pick = i
					break
				}
			}
		}
		l := leaves[pick]
		used[pick] = true
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
