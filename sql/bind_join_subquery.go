package sql

import (
	"maps"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// A join condition that holds a subquery (l LEFT JOIN r ON EXISTS (SELECT
// … WHERE s.a = l.a AND s.b = r.b)) is evaluated over pairs of rows: the
// subquery may read both sides, so it binds as in a WHERE over the cross
// product, where subqueries decorrelate. An inner join is that filter. The
// other kinds number each side's rows, keep the pairs (left row, right
// row) the condition holds for, and join the sides back through them:
//
//	LEFT:  (l LEFT JOIN pairs ON l.row = pairs.l) LEFT JOIN r ON pairs.r = r.row
//	RIGHT: (l JOIN pairs …) RIGHT JOIN r …   FULL: (l LEFT JOIN pairs …) FULL JOIN r …
//	SEMI/ANTI: l SEMI/ANTI JOIN pairs ON l.row = pairs.l
//
// Each side is a materialized WITH entry read twice (by the pairs and by
// the join back), so it is computed once. The pairs are a cross product:
// n × m condition evaluations, as DuckDB's plan for the general case.

// joinOnSubquery binds the ON condition of out (the join of l and r, of
// kind) that holds a subquery.
func (b *binder) joinOnSubquery(l, r, out *fromItem, kind planner.JoinKind, cond joinCond, sp span) (*fromItem, error) {
	if kind == planner.JoinInner {
		pairs, x, err := b.bindPairCond(out, &planner.Join{Left: l.node, Right: r.node, Kind: planner.JoinCross}, cond, sp)
		if err != nil {
			return nil, err
		}
		out.node = &planner.Filter{Input: pairs, Cond: x}
		return out, nil
	}
	ls, lrow, lcopy := b.numberedSide(l, "join left")
	rs, rrow, rcopy := b.numberedSide(r, "join right")
	scope := &fromItem{cols: append(append([]planner.Column(nil), lcopy.cols...), rcopy.cols...), quals: out.quals,
		hidden: cloneHidden(lcopy.hidden)}
	maps.Copy(scope.hidden, rcopy.hidden)
	pairs, x, err := b.bindPairCond(scope, &planner.Join{Left: lcopy.node, Right: rcopy.node, Kind: planner.JoinCross}, cond, sp)
	if err != nil {
		return nil, err
	}
	pl, pr := b.newCol("left row", "", columnar.TInt64), b.newCol("right row", "", columnar.TInt64)
	matched := &planner.Project{Input: &planner.Filter{Input: pairs, Cond: x},
		Exprs: []planner.Expr{&planner.ColRef{Col: lcopy.row}, &planner.ColRef{Col: rcopy.row}},
		Out:   []planner.Column{pl, pr}}
	first := planner.JoinLeft
	switch kind {
	case planner.JoinSemi, planner.JoinAnti:
		out.node = equiJoin(kind, ls, matched, lrow, pl)
		return out, nil
	case planner.JoinRight:
		first = planner.JoinInner
	}
	out.node = equiJoin(kind, equiJoin(first, ls, matched, lrow, pl), rs, pr, rrow)
	return out, nil
}

// bindPairCond binds cond over scope's columns with input as the rows
// subqueries join to; it returns the input with those joins and the
// condition.
func (b *binder) bindPairCond(scope *fromItem, input planner.Node, cond joinCond, sp span) (planner.Node, planner.Expr, error) {
	saved, savedIn := b.saveScope(), b.input
	b.scope, b.quals, b.hidden = scope.cols, scope.quals, scope.hidden
	b.input = input
	x, err := cond.on(ectx{sp: sp, clause: "ON"})
	pairs := b.input
	b.restoreScope(saved)
	b.input = savedIn
	return pairs, x, err
}

// numberedCopy is a second reading of a numbered join side: its columns
// under new IDs (the same names, qualifiers and schemas), row its number.
type numberedCopy struct {
	node   planner.Node
	cols   []planner.Column
	hidden map[planner.ColID]hide
	row    planner.Column
}

// numberedSide numbers its rows (row_number() over ()) as a materialized
// WITH entry and returns two readings of it: the one with its own column
// IDs (and row, the number's column) and a copy under new IDs.
func (b *binder) numberedSide(it *fromItem, name string) (planner.Node, planner.Column, numberedCopy) {
	row := b.newCol("row", "", columnar.TInt64)
	numbered := &planner.Window{Input: it.node, Out: []planner.Column{row}, Funcs: []planner.WindowFunc{{
		Name: "row_number", Type: columnar.TInt64, Frame: planner.Frame{StartUnbounded: true, EndUnbounded: true},
	}}}
	cte := &planner.CTE{Name: name, Mode: planner.CTEMaterialized}
	schema := numbered.Schema()
	cp := &planner.Project{Input: numbered}
	fresh := map[planner.ColID]planner.Column{}
	for _, c := range schema {
		n := b.newCol(c.Name, c.Table, c.Type)
		if s, ok := b.colSchemas[c.ID]; ok {
			b.colSchemas[n.ID] = s
		}
		fresh[c.ID] = n
		cp.Exprs = append(cp.Exprs, &planner.ColRef{Col: c})
		cp.Out = append(cp.Out, n)
	}
	c := numberedCopy{node: &planner.CTERef{CTE: cte, Input: cp}, hidden: map[planner.ColID]hide{}, row: fresh[row.ID]}
	for _, col := range it.cols {
		c.cols = append(c.cols, fresh[col.ID])
		if h, ok := it.hidden[col.ID]; ok {
			c.hidden[fresh[col.ID].ID] = h
		}
	}
	return &planner.CTERef{CTE: cte, Input: numbered}, row, c
}

// equiJoin joins left and right of kind on l = r.
func equiJoin(kind planner.JoinKind, left, right planner.Node, l, r planner.Column) *planner.Join {
	return &planner.Join{Left: left, Right: right, Kind: kind, EquiKeys: []planner.EquiKey{{L: &planner.ColRef{Col: l}, R: &planner.ColRef{Col: r}}}}
}
