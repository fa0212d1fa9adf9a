package planner

import "github.com/b2sql/b2sql/columnar"

// eagerAggregate pre-aggregates the input of a join below a GROUP BY when
// the aggregates read only that input and the grouping above is wide
// (TPC-H Q10: seven customer keys, four of them VARCHAR, over the rows of
// lineitem ⋈ orders, whose only column the rest of the query reads is
// o_custkey):
//
//	Aggregate g(L), sum(f(R))              Aggregate g(L), sum(p)
//	└─ Join L.k = R.k             →        └─ Join L.k = R'.k
//	   ├─ L                                   ├─ L
//	   └─ R                                   └─ R' = Aggregate R.k, sum(f(R)) AS p
//	                                                 └─ R
//
// R' groups R by every column of R that anything above it reads (join
// keys and residual conditions of the joins on the way, GROUP BY keys):
// its rows are R's rows merged where the rest of the query cannot tell
// them apart, so each joined row of L meets, instead of the rows of one
// R group, that group's one partial row. Summing the partial sums of the
// groups an L row meets is summing their rows (Σ over the group's rows of
// the group's partial = the sum over its rows, however often L repeats a
// key); MIN of MINs and MAX of MAXes likewise. A NULL key's group meets no
// row, as its rows met none (NULL keys never match an equality).
//
// It fires only where it saves work and cannot change an answer:
//   - every join between the Aggregate and R is INNER with hash keys (an
//     outer join would NULL-extend rows R' no longer has; a cross join has
//     no key to group on);
//   - every aggregate is SUM typed HUGEINT or DECIMAL(38,s) over a 64-bit
//     integer or DECIMAL, or typed BIGINT over a 32-bit or narrower integer
//     (exact: partial sums are exact and their sum is the sum; a float SUM
//     would add in another order), or MIN or MAX, none DISTINCT or
//     FILTERed;
//   - R' groups on at most two integer, DECIMAL or temporal columns, fewer
//     than the Aggregate's keys, one of which is VARCHAR: the wide string
//     grouping then meets one row per R' group instead of one per R row,
//     and the join above R' builds on fewer rows;
//   - R is estimated no larger than the other side (join_estimate.go):
//     where the join itself drops most of R's rows (TPC-H Q18: lineitem
//     against the 57 orders its IN keeps) pre-aggregating all of R costs
//     more than the Aggregate above it.
//
// The highest join that qualifies is chosen: above it, R holds more of the
// query's filters and joins, so R' has fewer rows. R' is Partial: each
// worker's groups come out unmerged (a key in up to one row per worker),
// since the aggregate above adds them up anyway; merging them first would
// cost a second partitioned phase for nothing. The aggregate above is
// OnePhase: it meets about one row per group (Q10: 43.8k rows, 39.1k
// groups), which a parallel partial phase would insert twice.
func eagerAggregate(root Node) Node {
	next := maxColID(root) + 1
	var walk func(Node) Node
	walk = func(n Node) Node {
		n = mapChildren(n, walk)
		if a, ok := n.(*Aggregate); ok {
			if r := preAggregate(a, &next); r != nil {
				return r
			}
		}
		return n
	}
	return walk(root)
}

// preAggregate returns a's rewrite with a partial aggregate below the
// highest qualifying join, or nil.
func preAggregate(a *Aggregate, next *ColID) Node {
	if len(a.Groups) == 0 || len(a.Aggs) == 0 || !wideGrouping(a.Groups) {
		return nil
	}
	aggCols := map[ColID]bool{}
	for _, c := range a.Aggs {
		if !splittable(c) {
			return nil
		}
		ExprCols(c.Arg, aggCols)
	}
	groupCols := map[ColID]bool{}
	for _, g := range a.Groups {
		ExprCols(g, groupCols)
	}
	var path []*Join // the joins from a down to the one pre-aggregated below
	for cur := a.Input; ; {
		j, ok := cur.(*Join)
		if !ok || j.Kind != JoinInner || len(j.EquiKeys) == 0 {
			return nil
		}
		path = append(path, j)
		right := allIn(aggCols, j.Right.Schema())
		if !right && !allIn(aggCols, j.Left.Schema()) {
			return nil // the aggregates read both sides
		}
		side, other := j.Left, j.Right
		if right {
			side, other = j.Right, j.Left
		}
		if keys, ok := partialKeys(side, path, groupCols, len(a.Groups)); ok && smallerSide(side, other) {
			return splitAggregate(a, path, right, keys, next)
		}
		cur = side
	}
}

// wideGrouping reports whether a GROUP BY is one that pre-aggregation
// relieves: two or more keys, one of them VARCHAR.
func wideGrouping(groups []Expr) bool {
	if len(groups) < 2 {
		return false
	}
	for _, g := range groups {
		if g.Type().ID == columnar.Varchar {
			return true
		}
	}
	return false
}

// splittable reports whether an aggregate is computed exactly from
// partial aggregates of the same function (see eagerAggregate).
func splittable(c AggCall) bool {
	if c.Distinct || c.Filter != nil || c.Arg == nil || c.Arg2 != nil {
		return false
	}
	switch c.Func {
	case AggSum:
		t := c.Arg.Type()
		if t.Phys() != columnar.PhysInt {
			return false
		}
		// 128-bit sums never overflow; a BIGINT sum of 32-bit integers
		// (the binder's, cast to HUGEINT above) cannot before 2^32 rows.
		return c.Type.Wide() || c.Type.ID == columnar.Int64 && t.IsInteger() && t.ID != columnar.Int64 && t.ID != columnar.Uint64
	case AggMin, AggMax:
		return true
	}
	return false
}

// allIn reports whether every column of set is one of cols.
func allIn(set map[ColID]bool, cols []Column) bool {
	have := colSet(cols)
	for id := range set {
		if !have[id] {
			return false
		}
	}
	return true
}

// partialKeys returns the columns of side that the joins on path (the
// last one side's parent) and the GROUP BY read, in side's order: the
// keys of a partial aggregate of side. ok is false when they are not a
// narrow integer key (see eagerAggregate).
func partialKeys(side Node, path []*Join, groupCols map[ColID]bool, groups int) ([]Column, bool) {
	used := map[ColID]bool{}
	for id := range groupCols {
		used[id] = true
	}
	for _, j := range path {
		for _, k := range j.EquiKeys {
			ExprCols(k.L, used)
			ExprCols(k.R, used)
		}
		if j.Cond != nil {
			ExprCols(j.Cond, used)
		}
	}
	var keys []Column
	for _, c := range side.Schema() {
		if used[c.ID] {
			keys = append(keys, c)
		}
	}
	if len(keys) == 0 || len(keys) > 2 || len(keys) >= groups {
		return nil, false
	}
	for _, c := range keys {
		if c.Type.Phys() != columnar.PhysInt || c.Type.ID == columnar.Bool {
			return nil, false
		}
	}
	return keys, true
}

// smallerSide reports whether side is estimated to have no more rows than
// other.
func smallerSide(side, other Node) bool {
	s, ok := estimate(side)
	if !ok {
		return false
	}
	o, ok := estimate(other)
	return ok && s.rows <= o.rows
}

// splitAggregate builds the rewrite: the partial aggregate of the side
// (right or left) of the last join on path, keyed by keys, and a's final
// over the joins rebuilt on it, every reference to a key renamed to the
// partial's output column.
func splitAggregate(a *Aggregate, path []*Join, right bool, keys []Column, next *ColID) Node {
	last := path[len(path)-1]
	side := last.Left
	if right {
		side = last.Right
	}
	fresh := func(name string, t columnar.Type) Column {
		c := Column{ID: *next, Name: name, Type: t}
		*next++
		return c
	}
	part := &Aggregate{Input: side, Partial: true}
	rename := map[ColID]Expr{}
	for _, k := range keys {
		c := fresh(k.Name, k.Type)
		c.Table = k.Table
		part.Groups = append(part.Groups, &ColRef{Col: k})
		part.Out = append(part.Out, c)
		rename[k.ID] = &ColRef{Col: c}
	}
	final := &Aggregate{Out: a.Out, OnePhase: true}
	for _, g := range a.Groups {
		final.Groups = append(final.Groups, SubstCols(g, rename))
	}
	for _, c := range a.Aggs {
		p := fresh("partial "+c.Func.String()+"("+c.Arg.String()+")", c.Type)
		part.Aggs = append(part.Aggs, c)
		part.Out = append(part.Out, p)
		final.Aggs = append(final.Aggs, AggCall{Func: c.Func, Arg: &ColRef{Col: p}, Type: c.Type})
	}
	// Rebuild the joins bottom-up over the partial aggregate.
	var in Node = part
	for i := len(path) - 1; i >= 0; i-- {
		j := *path[i]
		if i == len(path)-1 {
			if right {
				j.Right = in
			} else {
				j.Left = in
			}
		} else if path[i].Left == path[i+1] {
			j.Left = in
		} else {
			j.Right = in
		}
		j.EquiKeys = make([]EquiKey, len(path[i].EquiKeys))
		for k, e := range path[i].EquiKeys {
			j.EquiKeys[k] = EquiKey{L: SubstCols(e.L, rename), R: SubstCols(e.R, rename)}
		}
		j.Cond = SubstCols(j.Cond, rename)
		in = &j
	}
	final.Input = in
	return final
}
