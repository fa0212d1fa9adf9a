package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// The dependent join's rules for the operators that need more than
// rewriting their expressions (bind_subquery_flatten.go's push).

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
		d, m := f.domain() // no rows, whatever the binding
		return &planner.Join{Left: v, Right: d, Kind: planner.JoinCross}, m, nil
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

// A recursive CTE under the correlation (SELECT … FROM t, LATERAL (WITH
// RECURSIVE r AS (SELECT t.x UNION ALL SELECT y + 1 FROM r …) …)) runs
// once for all domain rows at once: its work table gains the carried
// columns, so every row of every iteration carries the domain row it
// belongs to; the step reads its outer columns from the work rows it
// extends (a WorkScan of the rewritten work table stands for the domain,
// as reads and push treat it), two readings of the work table are joined
// on the same domain row, and UNION's duplicate removal is per domain row.

// recursive pushes the domain through a recursive CTE.
func (f *flattener) recursive(x *planner.RecursiveCTE) (planner.Node, carried, error) {
	base, mb, err := f.push(x.Base)
	if err != nil {
		return nil, nil, err
	}
	work := &planner.WorkTable{Cols: append([]planner.Column(nil), x.Work.Cols...)}
	for _, o := range f.outer {
		work.Cols = append(work.Cols, f.b.newCol(o.Name, "", o.Type))
	}
	if f.works == nil {
		f.works = map[*planner.WorkTable]*planner.WorkTable{}
	}
	f.works[x.Work] = work
	step, ms, err := f.push(x.Step)
	delete(f.works, x.Work)
	if err != nil {
		return nil, nil, err
	}
	out := append([]planner.Column(nil), x.Out...)
	m := carried{}
	for _, o := range f.outer {
		c := f.b.newCol(o.Name, "", o.Type)
		out, m[o.ID] = append(out, c), c
	}
	return &planner.RecursiveCTE{Base: f.inOrder(base, x.Base.Schema(), mb), Step: f.inOrder(step, x.Step.Schema(), ms),
		Work: work, Distinct: x.Distinct, Out: out}, m, nil
}

// workScan reads the rewritten work table: the scan's columns, then the
// domain row each work row belongs to.
func (f *flattener) workScan(x *planner.WorkScan, w *planner.WorkTable) (planner.Node, carried, error) {
	out := append([]planner.Column(nil), x.Out...)
	m := carried{}
	for _, o := range f.outer {
		c := f.b.newCol(o.Name, "", o.Type)
		out, m[o.ID] = append(out, c), c
	}
	return &planner.WorkScan{Work: w, Out: out}, m, nil
}

// inOrder projects a pushed plan to cols and then the carried columns in
// the outer order: the positions a recursive CTE's sides and work table
// agree on.
func (f *flattener) inOrder(n planner.Node, cols []planner.Column, m carried) planner.Node {
	p := &planner.Project{Input: n}
	for _, c := range cols {
		p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: c}), append(p.Out, c)
	}
	for _, o := range f.outer {
		p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: m[o.ID]}), append(p.Out, m[o.ID])
	}
	return p
}
