package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
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
		return x.CTE != nil && f.reads(x.CTE.Plan)
	case *planner.CTERef:
		return x.CTE != nil && f.reads(x.CTE.Plan)
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

// limitPerRow is [ORDER BY keys] LIMIT count OFFSET offset of in, per
// domain row: row_number() over the domain's partitions.
func (f *flattener) limitPerRow(in planner.Node, keys []planner.SortKey, count, offset int64) (planner.Node, carried, error) {
	below, m, err := f.push(in)
	if err != nil {
		return nil, nil, err
	}
	keys = f.substKeys(keys, m)
	rn := f.b.newCol("row_number", "", columnar.TInt64)
	win := &planner.Window{Input: below, Out: []planner.Column{rn}, Funcs: []planner.WindowFunc{{
		Name: "row_number", Partition: f.refs(m), Order: keys, Type: columnar.TInt64,
		Frame: planner.Frame{StartUnbounded: true, EndUnbounded: len(keys) == 0},
	}}}
	ref := &planner.ColRef{Col: rn}
	i64 := func(v int64) planner.Expr { return &planner.Const{Val: columnar.IntValue(columnar.TInt64, v)} }
	cmp := func(op string, v int64) planner.Expr {
		return &planner.Call{Fn: op, Args: []planner.Expr{ref, i64(v)}, T: columnar.TBool}
	}
	cond := cmp(">", offset)
	if count >= 0 && offset+count >= offset {
		cond = and(cond, cmp("<=", offset+count))
	}
	var out planner.Node = &planner.Filter{Input: win, Cond: cond}
	if len(keys) > 0 {
		// The subquery's rows keep its ORDER BY (ARRAY(…), string_agg of
		// a subquery and first-row semantics read it).
		out = &planner.Sort{Input: out, Keys: keys}
	}
	return out, m, nil
}

// aggregate groups by the carried columns too. Without GROUP BY the
// aggregate yields one row for every domain row, also for those without
// input rows: the domain is left-joined to the input and the aggregates
// count only the matched rows (FILTER on a marker).
func (f *flattener) aggregate(a *planner.Aggregate) (planner.Node, carried, error) {
	in, m, err := f.push(a.Input)
	if err != nil {
		return nil, nil, err
	}
	g := &planner.Aggregate{Input: in}
	nGroups := len(a.Groups)
	aggs := make([]planner.AggCall, len(a.Aggs))
	for i, ag := range a.Aggs {
		ag.Arg = f.subst(ag.Arg, m)
		ag.Arg2 = f.subst(ag.Arg2, m)
		ag.Filter = f.subst(ag.Filter, m)
		aggs[i] = ag
	}
	groupBy := m
	if nGroups == 0 {
		mark := f.b.newCol("matched", "", columnar.TBool)
		marked := &planner.Project{Input: in}
		for _, col := range in.Schema() {
			marked.Exprs, marked.Out = append(marked.Exprs, &planner.ColRef{Col: col}), append(marked.Out, col)
		}
		marked.Exprs, marked.Out = append(marked.Exprs, &planner.Const{Val: columnar.BoolValue(true)}), append(marked.Out, mark)
		d, dm := f.domain()
		j := &planner.Join{Left: d, Right: marked, Kind: planner.JoinLeft}
		j.EquiKeys, j.Cond = planner.SplitJoinCond(planner.JoinAnd(f.same(dm, m)), d.Schema(), marked.Schema())
		g.Input, groupBy = j, dm
		markRef := &planner.ColRef{Col: mark}
		for i := range aggs {
			if aggs[i].Filter != nil {
				aggs[i].Filter = and(markRef, aggs[i].Filter)
			} else {
				aggs[i].Filter = markRef
			}
		}
	}
	g.Groups = f.substAll(a.Groups, m)
	g.Out = append(g.Out, a.Out[:nGroups]...)
	out := carried{}
	for _, o := range f.outer {
		c := groupBy[o.ID]
		g.Groups = append(g.Groups, &planner.ColRef{Col: c})
		oc := f.b.newCol(c.Name, "", c.Type)
		g.Out = append(g.Out, oc)
		out[o.ID] = oc
	}
	g.Aggs = aggs
	g.Out = append(g.Out, a.Out[nGroups:]...)
	return g, out, nil
}

// join pushes the domain into the sides that read outer columns; when
// both do (or the side that must keep every domain row does not), both
// get it and the condition matches their domain rows.
func (f *flattener) join(j *planner.Join) (planner.Node, carried, error) {
	lr, rr := f.reads(j.Left), f.reads(j.Right)
	if (j.Kind == planner.JoinInner || j.Kind == planner.JoinCross) && !lr {
		// Only the right side reads outer columns (or the condition
		// does, which then reads the right side's copy).
		return f.joinOneSide(j, false)
	}
	switch j.Kind {
	case planner.JoinInner, planner.JoinCross, planner.JoinLeft, planner.JoinSemi, planner.JoinAnti, planner.JoinSingle, planner.JoinMark:
		if !rr {
			return f.joinOneSide(j, true) // the left side carries the domain alone
		}
		if j.Kind == planner.JoinMark && j.NullAware {
			return nil, nil, f.unsupported("with IN of a subquery that reads outer columns inside another subquery")
		}
	case planner.JoinRight:
		if !lr {
			return f.joinOneSide(j, false)
		}
	case planner.JoinFull:
	default:
		return nil, nil, f.unsupported("with a " + j.Kind.String() + " join here")
	}
	l, lm, err := f.push(j.Left)
	if err != nil {
		return nil, nil, err
	}
	r, rm, err := f.push(j.Right)
	if err != nil {
		return nil, nil, err
	}
	nj := *j
	nj.Left, nj.Right = l, r
	keys := f.substEquiKeys(j.EquiKeys, lm)
	cond := f.subst(j.Cond, lm)
	// Outer references in the condition read the left side's copy; the
	// right side's copy must be the same domain row.
	more, rest := planner.SplitJoinCond(planner.JoinAnd(f.same(lm, rm)), l.Schema(), r.Schema())
	nj.EquiKeys = append(keys, more...)
	if rest != nil {
		cond = andMaybe(cond, rest)
	}
	nj.Cond = cond
	if nj.Kind == planner.JoinCross {
		nj.Kind = planner.JoinInner
	}
	switch j.Kind {
	case planner.JoinRight:
		return &nj, rm, nil
	case planner.JoinFull:
		// A row of either side alone has the other's copy NULL.
		p := &planner.Project{Input: &nj}
		for _, col := range nj.Schema() {
			p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: col}), append(p.Out, col)
		}
		out := carried{}
		for _, o := range f.outer {
			c := f.b.newCol(o.Name, "", o.Type)
			p.Exprs = append(p.Exprs, &planner.Call{Fn: "coalesce", Args: []planner.Expr{
				&planner.ColRef{Col: lm[o.ID]}, &planner.ColRef{Col: rm[o.ID]}}, T: o.Type})
			p.Out = append(p.Out, c)
			out[o.ID] = c
		}
		// Both copies NULL: the domain row has NULL there, and either
		// side's NULL is that value; a side's own NULL-extension cannot
		// be told apart, and need not be: the other copy then holds it.
		return p, out, nil
	}
	return &nj, lm, nil
}

// joinOneSide pushes the domain into one side of j (the left one when
// left), whose carried columns then stand for the outer ones in the
// condition too.
func (f *flattener) joinOneSide(j *planner.Join, left bool) (planner.Node, carried, error) {
	side := j.Right
	if left {
		side = j.Left
	}
	n, m, err := f.push(side)
	if err != nil {
		return nil, nil, err
	}
	nj := *j
	if left {
		nj.Left = n
	} else {
		nj.Right = n
	}
	nj.EquiKeys = f.substEquiKeys(j.EquiKeys, m)
	nj.Cond = f.subst(j.Cond, m)
	return &nj, m, nil
}

func (f *flattener) substEquiKeys(keys []planner.EquiKey, m carried) []planner.EquiKey {
	out := make([]planner.EquiKey, len(keys))
	for i, k := range keys {
		out[i] = planner.EquiKey{L: f.subst(k.L, m), R: f.subst(k.R, m)}
	}
	return out
}

func andMaybe(a, c planner.Expr) planner.Expr {
	if a == nil {
		return c
	}
	return and(a, c)
}

// setOp evaluates both sides per domain row and combines them by their
// columns and the domain row's.
func (f *flattener) setOp(s *planner.SetOp) (planner.Node, carried, error) {
	side := func(n planner.Node) (planner.Node, error) {
		in, m, err := f.push(n)
		if err != nil {
			return nil, err
		}
		p := &planner.Project{Input: in}
		for _, col := range n.Schema() {
			p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: col}), append(p.Out, col)
		}
		for _, o := range f.outer {
			p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: m[o.ID]}), append(p.Out, m[o.ID])
		}
		return p, nil
	}
	l, err := side(s.Left)
	if err != nil {
		return nil, nil, err
	}
	r, err := side(s.Right)
	if err != nil {
		return nil, nil, err
	}
	ns := *s
	ns.Left, ns.Right = l, r
	ns.Out = append([]planner.Column(nil), s.Out...)
	out := carried{}
	for _, o := range f.outer {
		c := f.b.newCol(o.Name, "", o.Type)
		ns.Out = append(ns.Out, c)
		out[o.ID] = c
	}
	return &ns, out, nil
}

// values evaluates rows that read outer columns once per domain row: a
// projection of the domain per row, the rows combined by UNION ALL.
func (f *flattener) values(v *planner.Values) (planner.Node, carried, error) {
	if len(v.Rows) == 0 {
		return nil, nil, f.unsupported("over an empty VALUES")
	}
	// row projects row i over a fresh domain into out (and the domain's
	// columns).
	row := func(i int, out []planner.Column) (planner.Node, carried) {
		d, m := f.domain()
		p := &planner.Project{Input: d}
		for k, e := range v.Rows[i] {
			p.Exprs, p.Out = append(p.Exprs, f.subst(e, m)), append(p.Out, out[k])
		}
		for _, o := range f.outer {
			p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: m[o.ID]}), append(p.Out, m[o.ID])
		}
		return p, m
	}
	if len(v.Rows) == 1 {
		p, m := row(0, v.Out)
		return p, m, nil
	}
	fresh := func(cols []planner.Column) []planner.Column {
		out := make([]planner.Column, len(cols))
		for i, c := range cols {
			out[i] = f.b.newCol(c.Name, c.Table, c.Type)
		}
		return out
	}
	acc, _ := row(0, fresh(v.Out))
	var m carried
	for i := 1; i < len(v.Rows); i++ {
		p, _ := row(i, fresh(v.Out))
		out := v.Out
		if i < len(v.Rows)-1 {
			out = fresh(v.Out)
		}
		u := &planner.SetOp{Left: acc, Right: p, Kind: planner.SetUnion, All: true, Out: append([]planner.Column(nil), out...)}
		m = carried{}
		for _, o := range f.outer {
			c := f.b.newCol(o.Name, "", o.Type)
			u.Out = append(u.Out, c)
			m[o.ID] = c
		}
		acc = u
	}
	return acc, m, nil
}

// limitBelowProjects rewrites LIMIT (Project … (Sort x)) as Project …
// (LIMIT (Sort x)): a projection keeps every row, so the two orders are
// the same query, and the second gives the LIMIT its ORDER BY keys.
func limitBelowProjects(l *planner.Limit) (planner.Node, bool) {
	var projects []*planner.Project
	n := l.Input
	for {
		p, ok := n.(*planner.Project)
		if !ok {
			break
		}
		projects = append(projects, p)
		n = p.Input
	}
	if _, ok := n.(*planner.Sort); !ok || len(projects) == 0 {
		return nil, false
	}
	lim := *l
	lim.Input = n
	var out planner.Node = &lim
	for i := len(projects) - 1; i >= 0; i-- {
		p := *projects[i]
		p.Input = out
		out = &p
	}
	return out, true
}

// postAggFlatten flattens a correlated subquery in an aggregating query's
// SELECT list, HAVING or ORDER BY (SELECT g, (SELECT count(*) FROM u
// WHERE u.g = t.g) FROM t GROUP BY g): there the outer rows are the
// groups, so every outer column the subquery reads must be a group key,
// and the domain is the distinct group keys, read above the Aggregate
// (its node is filled in when built: b.postRows). The join goes above the
// Aggregate as an uncorrelated one does (joinSub, b.post).
func (b *binder) postAggFlatten(bd *Bound, child *binder, at int, value bool) (*boundSub, error) {
	f := &flattener{b: b, outerRefs: map[planner.ColID]bool{}, at: at, from: map[planner.ColID]planner.Expr{}}
	f.input = &planner.Values{} // replaced: each domain's Project gets the Aggregate as Input
	keyOf := map[planner.ColID]planner.Column{}
	for i, g := range b.agg.groups {
		if r, ok := g.(*planner.ColRef); ok && !b.agg.isSubqueryKey(i) {
			keyOf[r.Col.ID] = b.agg.groupCols[i]
		}
	}
	for _, col := range b.scope {
		if !child.outerRefs[col.ID] {
			continue
		}
		key, ok := keyOf[col.ID]
		if !ok {
			return nil, b.errAt(at, ErrGrouping, fmt.Sprintf("column %q must appear in the GROUP BY clause or be used in an aggregate function (read by a subquery here)", col.Name))
		}
		f.outer = append(f.outer, col)
		f.outerRefs[col.ID] = true
		f.from[col.ID] = &planner.ColRef{Col: key}
	}
	if len(f.outer) != len(child.outerRefs) {
		return nil, f.unsupported("in an aggregating query that reads columns of a query further out")
	}
	root, carried, err := f.push(bd.Root)
	if err != nil {
		return nil, err
	}
	sub := &boundSub{right: root}
	for _, o := range f.outer {
		sub.corr = append(sub.corr, sameValue(f.from[o.ID], &planner.ColRef{Col: carried[o.ID]})...)
	}
	if value {
		sub.value = bd.Root.Schema()[0]
	}
	return sub, nil
}
