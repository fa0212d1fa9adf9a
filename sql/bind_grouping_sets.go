package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// astGroupingSets reads a GROUP BY list with GROUPING SETS, ROLLUP, CUBE
// or () items: its distinct key expressions (each at its first
// occurrence, told apart by their tokens with names lower-cased) and the
// grouping sets as indexes into them, the cross product of each item's
// sets. A plain list has no sets (nil): its items are the keys.
func (b *binder) astGroupingSets(items []ast.Expr) ([]ast.Expr, [][]int, error) {
	special := false
	for _, it := range items {
		switch it := it.(type) {
		case *ast.GroupingSet:
			special = true
		case *ast.Row:
			special = special || len(it.Elems) == 0
		}
	}
	if !special {
		// GROUP BY (a, b), c groups by a, b and c, as in DuckDB.
		var flat []ast.Expr
		for _, it := range items {
			if r, ok := it.(*ast.Row); ok {
				flat = append(flat, r.Elems...)
			} else {
				flat = append(flat, it)
			}
		}
		return flat, nil, nil
	}
	g := &astGrouping{b: b, index: map[string]int{}}
	sets := [][]int{{}}
	for _, it := range items {
		es, err := g.element(it)
		if err != nil {
			return nil, nil, err
		}
		var next [][]int
		for _, s := range sets {
			for _, e := range es {
				next = append(next, union(s, e))
			}
		}
		sets = next
	}
	return g.keys, sets, nil
}

type astGrouping struct {
	b     *binder
	index map[string]int // a key's tokens → its index
	keys  []ast.Expr
}

// key returns the index of key expression e.
func (g *astGrouping) key(e ast.Expr) int {
	q := g.b.q
	lo, hi := q.tokSpan(e)
	var sb strings.Builder
	for _, t := range q.toks[lo:hi] {
		raw := q.src.Text[t.off:t.end]
		if t.kind == tkIdent {
			raw = strings.ToLower(raw)
		}
		sb.WriteString(raw)
		sb.WriteByte(' ')
	}
	if n, ok := g.index[sb.String()]; ok {
		return n
	}
	g.index[sb.String()] = len(g.keys)
	g.keys = append(g.keys, e)
	return len(g.keys) - 1
}

// tuple reads (a, b), () or one expression as one set.
func (g *astGrouping) tuple(e ast.Expr) []int {
	if r, ok := e.(*ast.Row); ok {
		out := []int{}
		for _, x := range r.Elems {
			out = union(out, []int{g.key(x)})
		}
		return out
	}
	return []int{g.key(e)}
}

// element reads one GROUP BY item as its grouping sets.
func (g *astGrouping) element(e ast.Expr) ([][]int, error) {
	gs, ok := e.(*ast.GroupingSet)
	if !ok {
		return [][]int{g.tuple(e)}, nil
	}
	if gs.Kind == "GROUPING SETS" {
		var out [][]int
		for _, it := range gs.Items {
			if _, nested := it.(*ast.GroupingSet); nested {
				es, err := g.element(it)
				if err != nil {
					return nil, err
				}
				out = append(out, es...)
				continue
			}
			out = append(out, g.tuple(it))
		}
		return out, nil
	}
	tuples := make([][]int, len(gs.Items))
	for i, it := range gs.Items {
		tuples[i] = g.tuple(it)
	}
	if gs.Kind == "ROLLUP" {
		return rollup(tuples), nil
	}
	if len(tuples) > maxCubeKeys {
		return nil, g.b.errAt(g.b.q.tokAt(gs.Start), ErrUnsupported, "CUBE of more than 12 expressions")
	}
	return cube(tuples), nil
}

// groupItemBindable reports whether a GROUP BY item has bind cases.
func groupItemBindable(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.GroupingSet:
		for _, it := range e.Items {
			if _, nested := it.(*ast.GroupingSet); nested && (e.Kind != "GROUPING SETS" || !groupItemBindable(it)) {
				return false
			}
			if !groupItemBindable(it) {
				return false
			}
		}
		return true
	case *ast.Row: // a grouping set: (a, b) and (), also at the top
		return allBindable(e.Elems...)
	}
	return astBindable(e)
}

// bindGrouping binds grouping(keys…) (alias grouping_id): a BIGINT whose
// bit for a key is 1 in the rows where that key was rolled up (its NULL is
// not a data NULL). It is a column of the grouping node, constant per
// grouping set.
func (b *binder) bindGrouping(name string, args []callexpr.Expr, star bool, at int, c ectx) (planner.Expr, error) {
	switch {
	case star || len(args) == 0:
		return nil, b.arity(at, name, "at least 1")
	case b.agg == nil || !c.aggOK || c.inAgg:
		return nil, b.errAt(at, ErrGrouping, fmt.Sprintf("%s is only allowed in the SELECT list, HAVING and ORDER BY of a GROUP BY query", name))
	case len(args) > 62:
		return nil, b.arity(at, name, "at most 62")
	}
	a := b.agg
	keys := make(map[string]int, len(a.groups))
	for i, g := range a.groups {
		keys[g.String()+"\x00"+g.Type().String()] = i
	}
	call := groupingCall{}
	var text []string
	for _, arg := range args {
		ac := c
		ac.aggOK = false
		x, err := b.bindExpr(arg, ac)
		if err != nil {
			return nil, err
		}
		k, ok := keys[x.String()+"\x00"+x.Type().String()]
		if !ok {
			return nil, b.errAt(at, ErrGrouping, fmt.Sprintf("%s argument %s is not a GROUP BY key", name, x.String()))
		}
		call.keys = append(call.keys, k)
		text = append(text, x.String())
	}
	key := "grouping(" + strings.Join(text, ", ") + ")"
	for _, g := range a.groupings {
		if g.col.Name == key {
			return &planner.ColRef{Col: g.col}, nil
		}
	}
	call.col = b.newCol(key, "", columnar.TInt64)
	a.groupings = append(a.groupings, call)
	return &planner.ColRef{Col: call.col}, nil
}

// groupingNode is the Aggregate of a query with grouping sets or grouping()
// calls: one Aggregate per set, each projected onto out (group keys,
// aggregates, grouping() columns) with NULL for the keys the set rolls up,
// concatenated by UNION ALL. When every aggregate re-aggregates (count,
// sum, min, max, avg), the input is aggregated once by all the keys (the
// finest set, a materialized WITH entry read by every set) and each set
// aggregates those rows; otherwise (DISTINCT, median, arg_max, …)
// each set aggregates the input rows itself, keeping exact semantics.
func (b *binder) groupingNode(input planner.Node, out []planner.Column) planner.Node {
	a := b.agg
	sets := b.groupSets
	if sets == nil {
		all := make([]int, len(a.groups))
		for i := range all {
			all[i] = i
		}
		sets = [][]int{all}
	}
	var finest *planner.CTE
	if len(sets) > 1 && reaggregable(a.aggs) {
		finest = &planner.CTE{Name: "grouping sets", Mode: planner.CTEMaterialized}
	}
	var root planner.Node
	for n, set := range sets {
		in := make([]bool, len(a.groups))
		for _, k := range set {
			in[k] = true
		}
		var ag *planner.Aggregate
		if finest != nil {
			ag = b.reaggregate(finest, input, in)
		} else {
			ag = &planner.Aggregate{Input: input, Aggs: a.aggs}
			for k, g := range a.groups {
				if in[k] {
					ag.Groups = append(ag.Groups, g)
				}
			}
		}
		keyCol := make([]planner.Column, len(a.groups))
		for k, g := range a.groups {
			if in[k] {
				keyCol[k] = b.newCol(a.groupCols[k].Name, "", g.Type())
				ag.Out = append(ag.Out, keyCol[k])
			}
		}
		for _, col := range a.aggCols {
			ag.Out = append(ag.Out, b.newCol(col.Name, "", col.Type))
		}
		proj := &planner.Project{Input: ag}
		for k, col := range a.groupCols {
			if in[k] {
				proj.Exprs = append(proj.Exprs, &planner.ColRef{Col: keyCol[k]})
			} else {
				proj.Exprs = append(proj.Exprs, &planner.Const{Val: columnar.NullValue(col.Type)})
			}
		}
		for j, col := range ag.Out[len(set):] {
			var x planner.Expr = &planner.ColRef{Col: col}
			if f := a.aggs[j].Func; finest != nil && (f == planner.AggCount || f == planner.AggCountStar) {
				// a sum of counts over no rows (the empty set of an
				// empty input) is NULL where the count is 0
				x = &planner.Call{Fn: "coalesce", Args: []planner.Expr{x, &planner.Const{Val: columnar.IntValue(col.Type, 0)}}, T: col.Type}
			}
			proj.Exprs = append(proj.Exprs, x)
		}
		for _, g := range a.groupings {
			var bits int64
			for _, k := range g.keys {
				bits <<= 1
				if !in[k] {
					bits |= 1
				}
			}
			proj.Exprs = append(proj.Exprs, &planner.Const{Val: columnar.IntValue(columnar.TInt64, bits)})
		}
		last := n == len(sets)-1
		for _, col := range out {
			if n == 0 && last {
				proj.Out = append(proj.Out, col)
			} else {
				proj.Out = append(proj.Out, b.newCol(col.Name, "", col.Type))
			}
		}
		if n == 0 {
			root = proj
			continue
		}
		u := &planner.SetOp{Left: root, Right: proj, Kind: planner.SetUnion, All: true}
		if last {
			u.Out = out
		} else {
			for _, col := range out {
				u.Out = append(u.Out, b.newCol(col.Name, "", col.Type))
			}
		}
		root = u
	}
	return root
}

// reaggregable reports whether every aggregate can be computed from the
// results of the same aggregate over finer groups.
func reaggregable(aggs []planner.AggCall) bool {
	for _, c := range aggs {
		switch {
		case c.Distinct:
			return false
		case c.Func == planner.AggCountStar, c.Func == planner.AggCount, c.Func == planner.AggSum,
			c.Func == planner.AggMin, c.Func == planner.AggMax, c.Func == planner.AggAvg:
		default:
			return false
		}
	}
	return true
}

// reaggregate is the Aggregate of one grouping set (the keys with in[k])
// over a reference to the finest set: the input aggregated by every key,
// bound afresh for this reference (a CTE's references each have their own
// columns) and computed once. Counts are summed; sum, min and max apply
// again; an avg is kept in the finest set as a DOUBLE sum and a count,
// merged as the parallel partial averages are (executor.AggAvgMerge). Its
// Out is left to the caller.
func (b *binder) reaggregate(finest *planner.CTE, input planner.Node, in []bool) *planner.Aggregate {
	a := b.agg
	fine := &planner.Aggregate{Input: input, Groups: a.groups}
	for k, g := range a.groups {
		fine.Out = append(fine.Out, b.newCol(a.groupCols[k].Name, "", g.Type()))
	}
	add := func(c planner.AggCall, name string) *planner.ColRef {
		col := b.newCol(name, "", c.Type)
		fine.Aggs = append(fine.Aggs, c)
		fine.Out = append(fine.Out, col)
		return &planner.ColRef{Col: col}
	}
	ag := &planner.Aggregate{Input: &planner.CTERef{CTE: finest, Input: fine}}
	for k := range a.groups {
		if in[k] {
			ag.Groups = append(ag.Groups, &planner.ColRef{Col: fine.Out[k]})
		}
	}
	for j, c := range a.aggs {
		name := a.aggCols[j].Name
		switch c.Func {
		case planner.AggAvg:
			sum := add(planner.AggCall{Func: planner.AggSum, Arg: c.Arg, Type: columnar.TFloat64}, "sum of "+name)
			cnt := add(planner.AggCall{Func: planner.AggCount, Arg: c.Arg, Type: columnar.TInt64}, "count of "+name)
			ag.Aggs = append(ag.Aggs, planner.AggCall{Func: planner.AggAvgMerge, Arg: sum, Arg2: cnt, Type: c.Type})
		case planner.AggCount, planner.AggCountStar:
			ag.Aggs = append(ag.Aggs, planner.AggCall{Func: planner.AggSum, Arg: add(c, name), Type: c.Type})
		default:
			ag.Aggs = append(ag.Aggs, planner.AggCall{Func: c.Func, Arg: add(c, name), Type: c.Type})
		}
	}
	return ag
}

// maxCubeKeys bounds CUBE: 2^n grouping sets, each one aggregate.
const maxCubeKeys = 12

// rollup is (t1…tn), (t1…tn-1), …, ().
func rollup(tuples [][]int) [][]int {
	var out [][]int
	for n := len(tuples); n >= 0; n-- {
		s := []int{}
		for _, t := range tuples[:n] {
			s = union(s, t)
		}
		out = append(out, s)
	}
	return out
}

// cube is every subset of the tuples, the full set first.
func cube(tuples [][]int) [][]int {
	n := len(tuples)
	var out [][]int
	for m := (1 << n) - 1; m >= 0; m-- {
		s := []int{}
		for k := range n {
			if m&(1<<(n-1-k)) != 0 {
				s = union(s, tuples[k])
			}
		}
		out = append(out, s)
	}
	return out
}

// union appends the indexes of b missing from a, into a fresh slice.
func union(a, b []int) []int {
	out := append([]int{}, a...)
	for _, x := range b {
		seen := false
		for _, y := range out {
			seen = seen || x == y
		}
		if !seen {
			out = append(out, x)
		}
	}
	return out
}
