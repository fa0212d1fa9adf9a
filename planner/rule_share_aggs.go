package planner

import "github.com/b2sql/b2sql/columnar"

// shareSums computes avg(x) from sum(x) when a query asks for both (TPC-H
// Q01 does, for l_quantity and l_extendedprice): the aggregate keeps
// sum(x) and count(x), and a projection above it divides them.
//
//	SELECT sum(x), avg(x) FROM t  ≡  SELECT s, s / c FROM (SELECT sum(x) s, count(x) c FROM t)
//
// A count is a cheaper state than a second sum, and an existing count(x)
// is reused. The division is the one the avg state makes: its sum over its
// count. Only DOUBLE x is rewritten, where both states keep the same
// compensated sum. AVG of integers and DECIMALs never reaches this rule as
// an avg state: the binder already binds it as their exact sum (BIGINT,
// HUGEINT or DECIMAL(38,s)) and count(x) divided by avg_of_sum as DuckDB
// divides (sql/bind_agg_avg.go), sharing a sum(x) the query asks for; a
// DOUBLE division of that sum would round twice. The binder also merges
// aggregates asked for twice; DISTINCT ones keep their own states.
func shareSums(root Node) Node {
	next := maxColID(root) + 1
	var walk func(Node) Node
	walk = func(n Node) Node {
		n = mapChildren(n, walk)
		if a, ok := n.(*Aggregate); ok {
			return shareSumsOf(a, &next)
		}
		return n
	}
	return walk(root)
}

// shareSumsOf is shareSums on one aggregate; next is the next free ColID.
func shareSumsOf(a *Aggregate, next *ColID) Node {
	ng := len(a.Groups)
	find := func(f AggFunc, like AggCall) int {
		for i, c := range a.Aggs {
			if c.Func == f && !c.Distinct && c.Arg != nil && sameExpr(c.Arg, like.Arg) && sameFilter(c.Filter, like.Filter) {
				return i
			}
		}
		return -1
	}
	var out *Aggregate
	drop := make([]bool, len(a.Aggs))
	exprs := make([]Expr, len(a.Out))
	for i, col := range a.Out {
		exprs[i] = &ColRef{Col: col}
	}
	for i, c := range a.Aggs {
		if c.Func != AggAvg || c.Distinct || c.Arg == nil || c.Type.ID != columnar.Float64 || !sharesSum(c.Arg.Type()) {
			continue
		}
		s := find(AggSum, c)
		if s < 0 || !sharesSum(a.Aggs[s].Type) {
			continue
		}
		if out == nil {
			out = &Aggregate{Input: a.Input, Groups: a.Groups, Aggs: append([]AggCall(nil), a.Aggs...), Out: append([]Column(nil), a.Out...)}
		}
		// The avg's place now holds count(x), or is dropped when count(x)
		// is already asked for.
		var cnt Column
		if k := find(AggCount, c); k >= 0 {
			cnt, drop[i] = out.Out[ng+k], true
		} else {
			cnt = Column{ID: *next, Name: "count of " + c.Arg.String(), Type: columnar.TInt64}
			*next++
			out.Aggs[i] = AggCall{Func: AggCount, Arg: c.Arg, Filter: c.Filter, Type: columnar.TInt64}
			out.Out[ng+i] = cnt
		}
		sum := out.Out[ng+s]
		exprs[ng+i] = &Call{Fn: "/", T: columnar.TFloat64, Args: []Expr{
			&Cast{Arg: &ColRef{Col: sum}, To: columnar.TFloat64},
			&Cast{Arg: &ColRef{Col: cnt}, To: columnar.TFloat64},
		}}
	}
	if out == nil {
		return a
	}
	aggs, cols := out.Aggs[:0], out.Out[:ng]
	for i, c := range out.Aggs {
		if !drop[i] {
			aggs, cols = append(aggs, c), append(cols, out.Out[ng+i])
		}
	}
	out.Aggs, out.Out = aggs, cols
	return &Project{Input: out, Exprs: exprs, Out: a.Out}
}

// sharesSum reports whether t is a type whose sum and avg states keep the
// same sum: DOUBLE (see shareSums for integers and DECIMALs).
func sharesSum(t columnar.Type) bool {
	return t.ID == columnar.Float64
}

// sameExpr reports whether a and b are the same expression of the same
// type (the binder's test for one aggregate asked twice).
func sameExpr(a, b Expr) bool {
	return a.Type() == b.Type() && a.String() == b.String()
}

// sameFilter reports whether two calls' FILTERs (nil: none) are the same.
func sameFilter(a, b Expr) bool {
	return a == nil && b == nil || a != nil && b != nil && sameExpr(a, b)
}
