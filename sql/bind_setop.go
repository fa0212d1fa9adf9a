package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// bindSetOp binds UNION/INTERSECT/EXCEPT [ALL] and the ORDER BY and LIMIT
// that apply to the whole. Each side is a query of its own; column types
// are unified pairwise; the output names are the left side's.
func (b *binder) bindSetOp(s *sqlparser.SetOp) (*Bound, error) {
	parts := b.setOpParts()
	leaf := 0
	bd, err := b.bindSetOpTree(s, parts, &leaf)
	if err != nil {
		return nil, err
	}
	root := bd.Root
	out := root.Schema()
	var keys []planner.SortKey
	for k, o := range s.OrderBy {
		sp := b.cl.orderBy
		if k < len(b.cl.orderItems) {
			sp = b.cl.orderItems[k]
		}
		col, ok := planner.Column{}, false
		if n, isOrd := ordinal(o.Expr); isOrd {
			if n < 1 || n > len(out) {
				return nil, b.errAt(sp.lo, ErrUnknownColumn, fmt.Sprintf("ORDER BY position %d is not in select list (1..%d)", n, len(out)))
			}
			col, ok = out[n-1], true
		} else if c, isCol := o.Expr.(*sqlparser.ColName); isCol && c.Qualifier.IsEmpty() {
			for i, name := range bd.Names {
				if strings.EqualFold(name, c.Name.String()) {
					col, ok = out[i], true
					break
				}
			}
		}
		if !ok {
			return nil, b.errAt(sp.lo, ErrUnsupported, "ORDER BY of a set operation must name an output column or position")
		}
		keys = append(keys, planner.SortKey{Expr: &planner.ColRef{Col: col}, Desc: o.Direction == sqlparser.DescScr, NullsFirst: b.q.rw.nulls[k]})
	}
	if len(keys) > 0 {
		root = &planner.Sort{Input: root, Keys: keys}
	}
	if s.Limit != nil {
		count, offset, err := b.bindLimit(s.Limit)
		if err != nil {
			return nil, err
		}
		root = &planner.Limit{Input: root, Count: count, Offset: offset}
	}
	return &Bound{Root: root, Names: bd.Names}, nil
}

func (b *binder) bindSetOpTree(st sqlparser.SelectStatement, parts []span, leaf *int) (*Bound, error) {
	so, ok := st.(*sqlparser.SetOp)
	if !ok {
		bd, _, err := b.bindNested(b.leafQuery(st, parts, leaf), false)
		return bd, err
	}
	at := b.q.findKeyword(strings.ToUpper(strings.Fields(so.Type)[0]), b.q.whole())
	if len(so.OrderBy) > 0 || so.Limit != nil {
		if *leaf > 0 {
			return nil, b.errAt(at, ErrUnsupported, "ORDER BY or LIMIT inside a set operation must be parenthesized")
		}
	}
	l, err := b.bindSetOpTree(unparen(so.Left), parts, leaf)
	if err != nil {
		return nil, err
	}
	r, err := b.bindSetOpTree(unparen(so.Right), parts, leaf)
	if err != nil {
		return nil, err
	}
	n := &planner.SetOp{}
	switch so.Type {
	case sqlparser.UnionStr, sqlparser.UnionDistinctStr:
		n.Kind = planner.SetUnion
	case sqlparser.UnionAllStr:
		n.Kind, n.All = planner.SetUnion, true
	case sqlparser.IntersectStr, sqlparser.IntersectDistinctStr:
		n.Kind = planner.SetIntersect
	case sqlparser.IntersectAllStr:
		n.Kind, n.All = planner.SetIntersect, true
	case sqlparser.ExceptStr, sqlparser.ExceptDistinctStr:
		n.Kind = planner.SetExcept
	case sqlparser.ExceptAllStr:
		n.Kind, n.All = planner.SetExcept, true
	default:
		return nil, b.errAt(at, ErrUnsupported, strings.ToUpper(so.Type)+" is not supported")
	}
	// The operator's keyword ends the left side's last leaf part.
	if k := *leaf - 1 - countLeaves(so.Right); k >= 0 && k < len(parts) && b.q.rw.byName[parts[k].hi] {
		if n.Kind != planner.SetUnion {
			return nil, b.errAt(at, ErrUnsupported, "BY NAME is only valid with UNION")
		}
		return b.unionByName(n, l, r, ectx{sp: span{parts[k].hi, parts[k].hi + 1}}) // bind_setop_byname.go
	}
	return b.combine(n, l, r, at)
}

// combine completes set operation n over its bound sides by position,
// unifying the column types pairwise; at is its keyword's token.
func (b *binder) combine(n *planner.SetOp, l, r *Bound, at int) (*Bound, error) {
	ls, rs := l.Root.Schema(), r.Root.Schema()
	if len(ls) != len(rs) {
		return nil, b.errAt(at, ErrType, fmt.Sprintf("each %s query must have the same number of columns (%d and %d)", strings.ToUpper(n.Kind.String()), len(ls), len(rs)))
	}
	lp := &planner.Project{Input: l.Root}
	rp := &planner.Project{Input: r.Root}
	cast := false
	for i := range ls {
		xs := []planner.Expr{&planner.ColRef{Col: ls[i]}, &planner.ColRef{Col: rs[i]}}
		xs, t, err := b.unify(xs, nil, ectx{sp: span{at, at + 1}}, false, "combine")
		if err != nil {
			return nil, err
		}
		cast = cast || ls[i].Type != t || rs[i].Type != t
		lp.Exprs = append(lp.Exprs, xs[0])
		lp.Out = append(lp.Out, b.newCol(l.Names[i], "", t))
		rp.Exprs = append(rp.Exprs, xs[1])
		rp.Out = append(rp.Out, b.newCol(l.Names[i], "", t))
		n.Out = append(n.Out, b.newCol(l.Names[i], "", t))
	}
	n.Left, n.Right = l.Root, r.Root
	if cast {
		n.Left, n.Right = lp, rp
	}
	return &Bound{Root: n, Names: l.Names}, nil
}

// setOpParts splits the query's tokens into the leaf queries of its set
// operation: at the top-level UNION/INTERSECT/EXCEPT keywords, without a
// leading WITH list and a trailing ORDER BY/LIMIT/OFFSET.
func (b *binder) setOpParts() []span {
	toks := b.q.toks
	depth, start := 0, 0
	if len(toks) > 0 && toks[0].is("WITH") {
		start = -1
	}
	var parts []span
	end := len(toks)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.isOp("("):
			depth++
			continue
		case t.isOp(")"):
			depth--
			continue
		}
		if depth != 0 {
			continue
		}
		switch {
		case start < 0 && t.is("SELECT"):
			start = i
		case start >= 0 && (t.is("UNION") || t.is("INTERSECT") || t.is("EXCEPT")):
			parts = append(parts, span{start, i})
			start = i + 1
			if i+1 < len(toks) && (toks[i+1].is("ALL") || toks[i+1].is("DISTINCT")) {
				start++
			}
			if start+1 < len(toks) && toks[start].is("BY") && toks[start+1].is("NAME") {
				start += 2
			}
		case start >= 0 && len(parts) > 0 && end == len(toks) && (t.is("ORDER") || t.is("LIMIT") || t.is("OFFSET")):
			end = i
		}
	}
	if start >= 0 && start < end {
		parts = append(parts, span{start, end})
	}
	return parts
}

// leafQuery returns the next leaf query of a set operation, from its
// tokens when they parse to st.
func (b *binder) leafQuery(st sqlparser.SelectStatement, parts []span, leaf *int) nestedQuery {
	defer func() { *leaf++ }()
	if *leaf < len(parts) {
		p := parts[*leaf]
		if q, err := parseQuery(b.q.src, b.q.toks[p.lo:p.hi]); err == nil && sqlparser.String(q.stmt) == sqlparser.String(unparen(st)) {
			q.syn = b.q.sharedSyntax()
			return nestedQuery{q: q, params: b.paramsFrom(p.lo)}
		}
	}
	return b.nested(st, b.q.whole())
}
