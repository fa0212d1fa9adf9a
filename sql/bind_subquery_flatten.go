package sql

import (
	"github.com/b2sql/b2sql/planner"
)

// flattenCorrelated decorrelates a subquery of any shape, for the ones
// decorrelate's patterns do not cover: outer columns read in the SELECT
// list, in a join's ON, in a derived table, under a set operation, a
// window or a LIMIT. It is the dependent join of Neumann and Kemper
// ("Unnesting Arbitrary Queries"), which is what DuckDB does too:
//
//	D  = DISTINCT the outer columns the subquery reads   (the domain)
//	I' = the subquery evaluated once for every row of D, as one plan
//	     that carries D's columns along (push, below)
//	outer ⋈ I' ON outer columns IS NOT DISTINCT FROM I''s copies of them
//
// The join is the one the caller picks for the subquery's use (single,
// mark, semi, anti), exactly as for decorrelate's result: the
// correlation conditions are sub.corr.
//
// push brings D down the subquery's plan until the subtrees that read no
// outer column, which become D × subtree; on the way every operator
// keeps D's columns apart: groups and partitions gain them, a LIMIT
// becomes a row_number per domain row, a scalar aggregate is left-joined
// to D so that a domain row without input rows still gets its one row
// (count 0, sum NULL).
func (b *binder) flattenCorrelated(bd *Bound, child *binder, at int, value bool) (*boundSub, error) {
	f, err := b.newFlattener(b.input, child.outerRefs, at)
	if err != nil {
		return nil, err
	}
	if len(f.outer) == 0 {
		// It reads only columns of queries further out: uncorrelated at
		// this level, those references stay for the level they belong to.
		sub := &boundSub{right: bd.Root}
		if value {
			sub.value = bd.Root.Schema()[0]
		}
		return sub, nil
	}
	root, carried, err := f.push(bd.Root)
	if err != nil {
		return nil, err
	}
	sub := &boundSub{right: root}
	for _, o := range f.outer {
		sub.corr = append(sub.corr, sameValue(&planner.ColRef{Col: o}, &planner.ColRef{Col: carried[o.ID]})...)
	}
	if value {
		sub.value = bd.Root.Schema()[0]
	}
	return sub, nil
}

// flattener holds what push needs: the outer input, the outer columns the
// subquery reads (in the outer input's order) and where errors point.
type flattener struct {
	b         *binder
	input     planner.Node
	outerRefs map[planner.ColID]bool
	outer     []planner.Column
	at        int
	// from, when set, gives the expression over input that an outer
	// column's value is read from (a group key above the Aggregate);
	// else the column itself.
	from map[planner.ColID]planner.Expr
	// works maps the work table of a recursive CTE being pushed to its
	// rewritten one, whose rows carry the domain (recursive).
	works map[*planner.WorkTable]*planner.WorkTable
}

// newFlattener prepares the flattening of a subquery over input, the
// outer rows, that reads the columns refs of it.
func (b *binder) newFlattener(input planner.Node, refs map[planner.ColID]bool, at int) (*flattener, error) {
	// Only input's columns are this level's correlation; references to
	// queries further out stay as they are (readsFurtherOut).
	f := &flattener{b: b, input: input, outerRefs: map[planner.ColID]bool{}, at: at}
	for _, col := range input.Schema() {
		if refs[col.ID] {
			f.outer = append(f.outer, col)
			f.outerRefs[col.ID] = true
		}
	}
	return f, nil
}

// readsFurtherOut reports whether refs holds a column input does not
// produce: one of a query further out, which the level that reads it
// decorrelates.
func readsFurtherOut(input planner.Node, refs map[planner.ColID]bool) bool {
	in := colIDs(input.Schema())
	for id := range refs {
		if !in[id] {
			return true
		}
	}
	return false
}

// carried maps each outer column to the column of a rewritten plan that
// carries its value (the domain row the plan's row belongs to).
type carried map[planner.ColID]planner.Column

func (f *flattener) unsupported(why string) error {
	return f.b.errAt(f.at, ErrUnsupported, "correlated subquery "+why+" is not supported")
}

// domain builds a fresh copy of D: the distinct values of the outer
// columns over the outer input, under new column ids.
func (f *flattener) domain() (planner.Node, carried) {
	p := &planner.Project{Input: f.input}
	m := carried{}
	for _, o := range f.outer {
		d := f.b.newCol(o.Name, "", o.Type)
		p.Exprs, p.Out = append(p.Exprs, f.source(o)), append(p.Out, d)
		m[o.ID] = d
	}
	if f.from != nil {
		f.b.postRows = append(f.b.postRows, p) // its Input: the Aggregate, when built
	}
	return &planner.Distinct{Input: p}, m
}

// source is where outer column o's value is read from over input.
func (f *flattener) source(o planner.Column) planner.Expr {
	if e, ok := f.from[o.ID]; ok {
		return e
	}
	return &planner.ColRef{Col: o}
}

// subst rewrites e's outer column references to the carried columns.
func (f *flattener) subst(e planner.Expr, m carried) planner.Expr {
	if e == nil {
		return nil
	}
	by := make(map[planner.ColID]planner.Expr, len(m))
	for id, c := range m {
		by[id] = &planner.ColRef{Col: c}
	}
	return planner.SubstCols(e, by)
}

func (f *flattener) substKeys(keys []planner.SortKey, m carried) []planner.SortKey {
	out := make([]planner.SortKey, len(keys))
	for i, k := range keys {
		out[i] = k
		out[i].Expr = f.subst(k.Expr, m)
	}
	return out
}

// refs returns the carried columns as references, in the outer order.
func (f *flattener) refs(m carried) []planner.Expr {
	out := make([]planner.Expr, len(f.outer))
	for i, o := range f.outer {
		out[i] = &planner.ColRef{Col: m[o.ID]}
	}
	return out
}

// same is the NULL-safe equality of two carried column sets.
func (f *flattener) same(a, c carried) []planner.Expr {
	var out []planner.Expr
	for _, o := range f.outer {
		out = append(out, sameValue(&planner.ColRef{Col: a[o.ID]}, &planner.ColRef{Col: c[o.ID]})...)
	}
	return out
}

// reads reports whether n's subtree reads an outer column.
func (f *flattener) reads(n planner.Node) bool {
	if planReads(n, f.outerRefs) {
		return true
	}
	switch x := n.(type) {
	case *planner.Aggregate:
		for _, a := range x.Aggs {
			if readsAny(a.Arg2, f.outerRefs) || readsAny(a.Filter, f.outerRefs) {
				return true
			}
		}
	case *planner.TopK:
		for _, k := range x.Keys {
			if readsAny(k.Expr, f.outerRefs) {
				return true
			}
		}
	case *planner.AsofJoin:
		if readsAny(x.L, f.outerRefs) || readsAny(x.R, f.outerRefs) {
			return true
		}
		for _, k := range x.EquiKeys {
			if readsAny(k.L, f.outerRefs) || readsAny(k.R, f.outerRefs) {
				return true
			}
		}
	case *planner.CTEScan:
		// A CTERef's plan is its child; a CTE has a Plan only once
		// Optimize has materialized it.
		return x.CTE != nil && x.CTE.Plan != nil && f.reads(x.CTE.Plan)
	case *planner.WorkScan:
		return f.works[x.Work] != nil // the rows of a correlated recursive CTE
	}
	for _, k := range n.Children() {
		if f.reads(k) {
			return true
		}
	}
	return false
}

// push rewrites n into the plan that evaluates n once for every domain
// row: its output is n's columns and the carried ones.
func (f *flattener) push(n planner.Node) (planner.Node, carried, error) {
	if !f.reads(n) {
		d, m := f.domain()
		return &planner.Join{Left: n, Right: d, Kind: planner.JoinCross}, m, nil
	}
	switch x := n.(type) {
	case *planner.Filter:
		in, m, err := f.push(x.Input)
		if err != nil {
			return nil, nil, err
		}
		return &planner.Filter{Input: in, Cond: f.subst(x.Cond, m)}, m, nil
	case *planner.Project:
		in, m, err := f.push(x.Input)
		if err != nil {
			return nil, nil, err
		}
		p := &planner.Project{Input: in}
		for i, e := range x.Exprs {
			p.Exprs, p.Out = append(p.Exprs, f.subst(e, m)), append(p.Out, x.Out[i])
		}
		for _, o := range f.outer {
			p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: m[o.ID]}), append(p.Out, m[o.ID])
		}
		return p, m, nil
	case *planner.Distinct:
		in, m, err := f.push(x.Input)
		if err != nil {
			return nil, nil, err
		}
		return &planner.Distinct{Input: in}, m, nil
	case *planner.Sort:
		in, m, err := f.push(x.Input)
		if err != nil {
			return nil, nil, err
		}
		return &planner.Sort{Input: in, Keys: f.substKeys(x.Keys, m)}, m, nil
	case *planner.Limit:
		if moved, ok := limitBelowProjects(x); ok {
			return f.push(moved)
		}
		var keys []planner.SortKey
		below := x.Input
		if s, ok := below.(*planner.Sort); ok {
			keys, below = s.Keys, s.Input
		}
		return f.limitPerRow(below, keys, x.Count, x.Offset)
	case *planner.TopK:
		return f.limitPerRow(x.Input, x.Keys, x.Count, x.Offset)
	case *planner.Aggregate:
		return f.aggregate(x)
	case *planner.Window:
		in, m, err := f.push(x.Input)
		if err != nil {
			return nil, nil, err
		}
		w := &planner.Window{Input: in, Out: x.Out}
		for _, fn := range x.Funcs {
			fn.Args = f.substAll(fn.Args, m)
			fn.Partition = append(f.substAll(fn.Partition, m), f.refs(m)...)
			fn.Order = f.substKeys(fn.Order, m)
			fn.ArgOrder = f.substKeys(fn.ArgOrder, m)
			w.Funcs = append(w.Funcs, fn)
		}
		return w, m, nil
	case *planner.Unnest:
		in, m, err := f.push(x.Input)
		if err != nil {
			return nil, nil, err
		}
		u := &planner.Unnest{Input: in, Exprs: f.substAll(x.Exprs, m), Out: x.Out}
		if x.Pass != nil {
			u.Pass = append(append([]planner.Column(nil), x.Pass...), f.carriedCols(m)...)
		}
		return u, m, nil
	case *planner.Join:
		return f.join(x)
	case *planner.SetOp:
		return f.setOp(x)
	case *planner.Values:
		return f.values(x)
	case *planner.RecursiveCTE:
		return f.recursive(x) // bind_subquery_flatten_ops.go
	case *planner.WorkScan:
		if w := f.works[x.Work]; w != nil {
			return f.workScan(x, w)
		}
	}
	return nil, nil, f.unsupported("that reads outer columns here")
}

func (f *flattener) substAll(es []planner.Expr, m carried) []planner.Expr {
	out := make([]planner.Expr, len(es))
	for i, e := range es {
		out[i] = f.subst(e, m)
	}
	return out
}

func (f *flattener) carriedCols(m carried) []planner.Column {
	out := make([]planner.Column, len(f.outer))
	for i, o := range f.outer {
		out[i] = m[o.ID]
	}
	return out
}

func (f *flattener) substEquiKeys(keys []planner.EquiKey, m carried) []planner.EquiKey {
	out := make([]planner.EquiKey, len(keys))
	for i, k := range keys {
		out[i] = planner.EquiKey{L: f.subst(k.L, m), R: f.subst(k.R, m)}
	}
	return out
}
