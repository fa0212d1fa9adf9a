package planner

// pushThrough moves the conjuncts of a Filter below the node under it when
// that node does not change which rows a row predicate keeps, so that a
// WHERE on a view, a derived table or a CTE still reaches the scans:
//   - Project: each column the conjunct reads is replaced by the expression
//     the Project computes for it;
//   - Sort and Distinct: the conjunct moves as it is;
//   - Aggregate: only conjuncts that read group keys alone (a group is kept
//     or dropped whole), the keys replaced by their expressions;
//   - SetOp (UNION, INTERSECT, EXCEPT, with or without ALL): into both
//     inputs, the output columns renamed to each input's;
//   - Window: only conjuncts that read columns every function partitions
//     by (a partition is kept or dropped whole, so each row's window is
//     unchanged), as DuckDB does for top-n-per-group queries.
//
// A conjunct that calls a volatile function, or would need a volatile
// expression substituted, stays where it is (DuckDB's rule too: random()
// must run once per row of the node it was written over). It reports
// false when nothing moved.
func pushThrough(f *Filter) (Node, bool) {
	conds := SplitAnd(f.Cond)
	switch in := f.Input.(type) {
	case *Project:
		subst := map[ColID]Expr{}
		for i, c := range in.Out {
			subst[c.ID] = in.Exprs[i]
		}
		down, keep := movable(conds, func(Expr) bool { return true }, subst)
		if len(down) == 0 {
			return nil, false
		}
		p := *in
		p.Input = pushHere(addFilter(in.Input, down))
		return refilter(&p, keep), true
	case *Sort:
		down, keep := movable(conds, func(Expr) bool { return true }, nil)
		if len(down) == 0 {
			return nil, false
		}
		s := *in
		s.Input = pushHere(addFilter(in.Input, down))
		return refilter(&s, keep), true
	case *Distinct:
		down, keep := movable(conds, func(Expr) bool { return true }, nil)
		if len(down) == 0 {
			return nil, false
		}
		d := *in
		d.Input = pushHere(addFilter(in.Input, down))
		return refilter(&d, keep), true
	case *Aggregate:
		if len(in.Groups) == 0 {
			return nil, false // one row even over no input: a filter below would not remove it
		}
		subst := map[ColID]Expr{}
		keys := map[ColID]bool{}
		for i := range in.Groups {
			subst[in.Out[i].ID] = in.Groups[i]
			keys[in.Out[i].ID] = true
		}
		onKeys := func(c Expr) bool {
			cols := ExprCols(c, nil)
			for id := range cols {
				if !keys[id] {
					return false
				}
			}
			return len(cols) > 0
		}
		down, keep := movable(conds, onKeys, subst)
		if len(down) == 0 {
			return nil, false
		}
		a := *in
		a.Input = pushHere(addFilter(in.Input, down))
		return refilter(&a, keep), true
	case *SetOp:
		left, right := map[ColID]Expr{}, map[ColID]Expr{}
		ls, rs := in.Left.Schema(), in.Right.Schema()
		for i, c := range in.Out {
			left[c.ID] = &ColRef{Col: ls[i]}
			right[c.ID] = &ColRef{Col: rs[i]}
		}
		toLeft, keep := movable(conds, func(Expr) bool { return true }, left)
		if len(toLeft) == 0 {
			return nil, false
		}
		toRight, _ := movable(conds, func(Expr) bool { return true }, right)
		s := *in
		s.Left = pushHere(addFilter(in.Left, toLeft))
		s.Right = pushHere(addFilter(in.Right, toRight))
		return refilter(&s, keep), true
	case *Window:
		down, keep := movable(conds, func(c Expr) bool { return onPartitionKeys(c, in.Funcs) }, nil)
		if len(down) == 0 {
			return nil, false
		}
		w := *in
		w.Input = pushHere(addFilter(in.Input, down))
		return refilter(&w, keep), true
	}
	return nil, false
}

// onPartitionKeys reports whether c reads at least one column and only
// columns that every function of a Window partitions by.
func onPartitionKeys(c Expr, funcs []WindowFunc) bool {
	cols := ExprCols(c, nil)
	if len(cols) == 0 || len(funcs) == 0 {
		return false
	}
	for id := range cols {
		for _, f := range funcs {
			found := false
			for _, p := range f.Partition {
				if r, ok := p.(*ColRef); ok && r.Col.ID == id {
					found = true
				}
			}
			if !found {
				return false
			}
		}
	}
	return true
}

// movable splits conds into those that may move (ok, non-volatile, and
// every substituted expression non-volatile, all of them made of the
// expression kinds SubstCols rewrites), rewritten with subst, and those
// that stay, in their order.
func movable(conds []Expr, ok func(Expr) bool, subst map[ColID]Expr) (down, keep []Expr) {
	for _, c := range conds {
		if !ok(c) || hasVolatile(c) || !plainExpr(c) {
			keep = append(keep, c)
			continue
		}
		clean := true
		for id := range ExprCols(c, nil) {
			if e, found := subst[id]; found && (hasVolatile(e) || !plainExpr(e)) {
				clean = false
			}
		}
		if !clean {
			keep = append(keep, c)
			continue
		}
		down = append(down, SubstCols(c, subst))
	}
	return down, keep
}

// refilter puts the conjuncts that could not move back over n.
func refilter(n Node, keep []Expr) Node {
	if len(keep) == 0 {
		return n
	}
	return &Filter{Input: n, Cond: JoinAnd(keep)}
}

// hasVolatile reports whether e calls a function whose value changes from
// row to row with the same arguments.
func hasVolatile(e Expr) bool {
	found := false
	WalkExpr(e, func(x Expr) {
		if c, ok := x.(*Call); ok && Volatile(c.Fn) {
			found = true
		}
	})
	return found
}

// plainExpr reports whether e is made only of the expression kinds whose
// column references SubstCols and ExprCols see (columns, constants,
// calls, CASE, casts); anything else might hide a column reference.
func plainExpr(e Expr) bool {
	plain := true
	WalkExpr(e, func(x Expr) {
		switch x.(type) {
		case *ColRef, *Const, *Call, *Case, *Cast:
		default:
			plain = false
		}
	})
	return plain
}
