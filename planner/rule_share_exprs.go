package planner

// shareExprs computes once a sub-expression that an aggregate's keys and
// arguments, or a projection's list, use more than once (common
// sub-expression elimination). TPC-H Q01 sums l_extendedprice*(1-l_discount)
// and that times (1+l_tax): the product is computed in a projection below
// the aggregate and both arguments read its column.
//
//	SELECT sum(a*b), sum(a*b*c) FROM t  ≡  SELECT sum(e), sum(e*c) FROM (SELECT a*b e, c FROM t)
//
// The projection runs in the aggregate's worker pipeline (parallel.go) and
// PruneColumns, which runs later, trims what it passes through.
//
// Results cannot change: only calls of non-volatile functions are shared,
// and only when one of their uses is evaluated for every row (not under a
// CASE branch, AND, OR or COALESCE argument, which may skip rows), so the
// shared column is computed for no row the plan did not already compute
// it for, and an error it raises is one the plan raised anyway.
func shareExprs(root Node) Node {
	next := maxColID(root) + 1
	var walk func(Node) Node
	walk = func(n Node) Node {
		n = mapChildren(n, walk)
		switch x := n.(type) {
		case *Aggregate:
			return shareAggExprs(x, &next)
		case *Project:
			return shareProjectExprs(x, &next)
		}
		return n
	}
	return walk(root)
}

// shareAggExprs is shareExprs on the group keys and arguments of a.
func shareAggExprs(a *Aggregate, next *ColID) Node {
	slots := make([]*Expr, 0, len(a.Groups)+3*len(a.Aggs))
	out := &Aggregate{Input: a.Input, Groups: append([]Expr(nil), a.Groups...), Aggs: append([]AggCall(nil), a.Aggs...), Out: a.Out}
	for i := range out.Groups {
		slots = append(slots, &out.Groups[i])
	}
	for i := range out.Aggs {
		if out.Aggs[i].Arg != nil {
			slots = append(slots, &out.Aggs[i].Arg)
		}
		if out.Aggs[i].Arg2 != nil {
			slots = append(slots, &out.Aggs[i].Arg2)
		}
		if out.Aggs[i].Filter != nil {
			slots = append(slots, &out.Aggs[i].Filter)
		}
	}
	below, ok := hoistShared(a.Input, slots, next)
	if !ok {
		return a
	}
	out.Input = below
	return out
}

// shareProjectExprs is shareExprs on the list of p.
func shareProjectExprs(p *Project, next *ColID) Node {
	out := &Project{Input: p.Input, Exprs: append([]Expr(nil), p.Exprs...), Out: p.Out}
	slots := make([]*Expr, len(out.Exprs))
	for i := range out.Exprs {
		slots[i] = &out.Exprs[i]
	}
	below, ok := hoistShared(p.Input, slots, next)
	if !ok {
		return p
	}
	out.Input = below
	return out
}

// hoistShared finds the calls that occur more than once in the expressions
// *slots (all evaluated over in's rows), rewrites each use into a reference
// to a new column and returns a projection over in computing those columns
// and passing through the columns of in the rewritten expressions still
// read. false: nothing is shared, and *slots are unchanged.
func hoistShared(in Node, slots []*Expr, next *ColID) (Node, bool) {
	uses := map[string]*shared{}
	for _, s := range slots {
		countUses(*s, true, uses)
	}
	some := false
	for _, u := range uses {
		some = some || (u.n > 1 && u.always)
	}
	if !some {
		return nil, false
	}
	var exprs []Expr
	var cols []Column
	var rewrite func(Expr) Expr
	rewrite = func(e Expr) Expr {
		if k := exprKey(e); k != "" {
			if u := uses[k]; u != nil && u.n > 1 && u.always {
				if u.col.ID == 0 {
					u.col = Column{ID: *next, Name: e.String(), Type: e.Type()}
					*next++
					exprs, cols = append(exprs, e), append(cols, u.col)
				}
				return &ColRef{Col: u.col}
			}
		}
		// A node none of whose children changes is kept as it is.
		switch x := e.(type) {
		case *Call:
			var args []Expr
			for i, a := range x.Args {
				if r := rewrite(a); r != a && args == nil {
					args = append(append(make([]Expr, 0, len(x.Args)), x.Args[:i]...), r)
				} else if args != nil {
					args = append(args, r)
				}
			}
			if args != nil {
				c := *x
				c.Args = args
				return &c
			}
		case *Case:
			c := *x
			c.Whens = make([]When, len(x.Whens))
			changed := false
			for i, w := range x.Whens {
				c.Whens[i] = When{Cond: rewrite(w.Cond), Then: rewrite(w.Then)}
				changed = changed || c.Whens[i] != w
			}
			if x.Else != nil {
				c.Else = rewrite(x.Else)
			}
			if changed || c.Else != x.Else {
				return &c
			}
		case *Cast:
			if r := rewrite(x.Arg); r != x.Arg {
				c := *x
				c.Arg = r
				return &c
			}
		}
		return e
	}
	for _, s := range slots {
		*s = rewrite(*s)
	}
	// Pass through, in input order, the input columns the rewritten
	// expressions still read.
	need := map[ColID]bool{}
	for _, s := range slots {
		ExprCols(*s, need)
	}
	var pass []Expr
	var passCols []Column
	for _, c := range in.Schema() {
		if need[c.ID] {
			pass, passCols = append(pass, &ColRef{Col: c}), append(passCols, c)
			need[c.ID] = false // a column listed twice in a schema passes once
		}
	}
	return &Project{Input: in, Exprs: append(pass, exprs...), Out: append(passCols, cols...)}, true
}

// shared counts the uses of one call: n of them, always when one is
// evaluated for every row; col is its column once made.
type shared struct {
	n      int
	always bool
	col    Column
}

// countUses counts the shareable calls in e, parents first; always says
// whether e is evaluated for every row.
func countUses(e Expr, always bool, uses map[string]*shared) {
	if c, ok := e.(*Call); ok && shareable(c) {
		if k := exprKey(c); k != "" {
			u := uses[k]
			if u == nil {
				u = &shared{}
				uses[k] = u
			}
			u.n++
			u.always = u.always || always
		}
	}
	switch x := e.(type) {
	case *Call:
		inner := always && !conditional[x.Fn]
		for _, a := range x.Args {
			countUses(a, inner, uses)
		}
	case *Case:
		for i, w := range x.Whens {
			// The first condition is evaluated for every row; the rest
			// and every branch only for the rows that reach them.
			countUses(w.Cond, always && i == 0, uses)
			countUses(w.Then, false, uses)
		}
		countUses(x.Else, false, uses)
	case *Cast:
		countUses(x.Arg, always, uses)
	}
}

// conditional names the calls whose arguments after the first are not
// evaluated for every row (the executor may skip rows already decided).
var conditional = map[string]bool{"and": true, "or": true, "coalesce": true, "ifnull": true, "if": true}

// shareable reports whether computing c once for all its uses is worth a
// column and cannot change results: a non-volatile call that reads a
// column (a call of constants is folded already). Calls are told apart by
// exprKey: columns by ID, not by name, which two scans of one table share.
func shareable(c *Call) bool {
	return !hasVolatile(c) && len(ExprCols(c, nil)) > 0
}
