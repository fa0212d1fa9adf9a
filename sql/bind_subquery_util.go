package sql

import (
	"strings"

	"github.com/b2sql/b2sql/planner"
)

func equalFold(a, b string) bool { return strings.EqualFold(a, b) }

// readsAny reports whether e reads a column of set.
func readsAny(e planner.Expr, set map[planner.ColID]bool) bool {
	for id := range planner.ExprCols(e, nil) {
		if set[id] {
			return true
		}
	}
	return false
}

// readsOnly reports whether e reads at least one column, all in set.
func readsOnly(e planner.Expr, set map[planner.ColID]bool) bool {
	cols := planner.ExprCols(e, nil)
	for id := range cols {
		if !set[id] {
			return false
		}
	}
	return len(cols) > 0
}

// planReads reports whether any expression of the plan reads a column of
// set.
func planReads(n planner.Node, set map[planner.ColID]bool) bool {
	var exprs []planner.Expr
	switch x := n.(type) {
	case *planner.Filter:
		exprs = []planner.Expr{x.Cond}
	case *planner.Project:
		exprs = x.Exprs
	case *planner.Aggregate:
		exprs = append(exprs, x.Groups...)
		for _, a := range x.Aggs {
			for _, e := range []planner.Expr{a.Arg, a.Arg2, a.Filter} {
				if e != nil {
					exprs = append(exprs, e)
				}
			}
		}
	case *planner.TopK:
		for _, k := range x.Keys {
			exprs = append(exprs, k.Expr)
		}
	case *planner.Sort:
		for _, k := range x.Keys {
			exprs = append(exprs, k.Expr)
		}
	case *planner.Join:
		for _, k := range x.EquiKeys {
			exprs = append(exprs, k.L, k.R)
		}
		if x.Cond != nil {
			exprs = append(exprs, x.Cond)
		}
	case *planner.Values:
		for _, r := range x.Rows {
			exprs = append(exprs, r...)
		}
	case *planner.Unnest:
		exprs = x.Exprs
	case *planner.Window:
		for _, f := range x.Funcs {
			exprs = append(append(exprs, f.Args...), f.Partition...)
			for _, k := range f.Order {
				exprs = append(exprs, k.Expr)
			}
		}
	}
	for _, e := range exprs {
		if readsAny(e, set) {
			return true
		}
	}
	for _, k := range n.Children() {
		if planReads(k, set) {
			return true
		}
	}
	return false
}

// substitute rewrites e, an expression over p's output, into one over p's
// input.
func substitute(e planner.Expr, p *planner.Project) planner.Expr {
	by := map[planner.ColID]planner.Expr{}
	for i, c := range p.Out {
		by[c.ID] = p.Exprs[i]
	}
	return mapColRefs(e, func(r *planner.ColRef) planner.Expr {
		if x, ok := by[r.Col.ID]; ok {
			return x
		}
		return r
	})
}

// mapColRefs rebuilds e with every column reference replaced by fn's
// result.
func mapColRefs(e planner.Expr, fn func(*planner.ColRef) planner.Expr) planner.Expr {
	switch x := e.(type) {
	case *planner.ColRef:
		return fn(x)
	case *planner.Call:
		c := *x
		c.Args = make([]planner.Expr, len(x.Args))
		for i, a := range x.Args {
			c.Args[i] = mapColRefs(a, fn)
		}
		return &c
	case *planner.Case:
		c := *x
		c.Whens = make([]planner.When, len(x.Whens))
		for i, w := range x.Whens {
			c.Whens[i] = planner.When{Cond: mapColRefs(w.Cond, fn), Then: mapColRefs(w.Then, fn)}
		}
		if x.Else != nil {
			c.Else = mapColRefs(x.Else, fn)
		}
		return &c
	case *planner.Cast:
		c := *x
		c.Arg = mapColRefs(x.Arg, fn)
		return &c
	case *planner.Lambda:
		c := *x
		c.Body = mapColRefs(x.Body, fn)
		return &c
	}
	return e
}

// enclosingHas reports whether a query this one is nested in (as a derived
// table, CTE or set-operation leaf, or through those as a subquery) has
// qual.name in scope: a reference to it would be a lateral correlation,
// which is reported as unsupported rather than as an unknown name.
func (b *binder) enclosingHas(qual, name string, depth int) bool {
	if depth > 32 {
		return false
	}
	for _, p := range []*binder{b.enclosing, b.outer} {
		if p == nil {
			continue
		}
		if depth > 0 || p == b.enclosing {
			for _, col := range p.scope {
				if equalFold(col.Name, name) && (qual == "" || equalFold(col.Table, qual)) {
					return true
				}
			}
		}
		if p.enclosingHas(qual, name, depth+1) {
			return true
		}
	}
	return false
}
