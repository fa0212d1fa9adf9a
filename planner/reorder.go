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
	n = mapChildren(n, reorderJoins)
	j, ok := n.(*Join)
	if !ok || (j.Kind != JoinInner && j.Kind != JoinCross) {
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
		leaves = append(leaves, x)
	}
	flatten(j)
	if len(leaves) < 3 {
		return n
	}
	used := make([]bool, len(leaves))
	applied := make([]bool, len(conds))
	cur := leaves[0]
	curCols := colSet(cur.Schema())
	used[0] = true
	for k := 1; k < len(leaves); k++ {
		pick := -1
		for i, l := range leaves {
			if used[i] {
				continue
			}
			lcols := colSet(l.Schema())
			for c, e := range conds {
				if _, ok := equiKey(e, curCols, lcols); ok && !applied[c] {
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
		all := unionSet(curCols, colSet(l.Schema()))
		var here []Expr
		for c, e := range conds {
			if !applied[c] && within(e, all) {
				here = append(here, e)
				applied[c] = true
			}
		}
		next := &Join{Left: cur, Right: l, Kind: JoinCross}
		if len(here) > 0 {
			next.Kind = JoinInner
			next.EquiKeys, next.Cond = SplitJoinCond(JoinAnd(here), cur.Schema(), l.Schema())
		}
		cur, curCols = next, all
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
