package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// bindBodyAST binds a query body other than a SELECT with q's ORDER BY,
// LIMIT and OFFSET over it: a set operation, VALUES, or a parenthesized
// query. ORDER BY names an output column or position, or a column as a
// branch's SELECT names it (bind_setop_order.go).
func (b *binder) bindBodyAST(body ast.QueryBody, q *ast.Query) (*Bound, error) {
	leaves := &setOpLeaves{}
	bd, err := b.bindSetOpAST(body, leaves)
	if err != nil {
		return nil, err
	}
	root := bd.Root
	out := root.Schema()
	var keys []planner.SortKey
	for _, o := range q.OrderBy {
		sp := b.q.spanOf(o)
		desc, nullsFirst := b.sortOrder(o)
		if o.X == nil { // ALL
			for _, col := range out {
				keys = append(keys, planner.SortKey{Expr: &planner.ColRef{Col: col}, Desc: desc, NullsFirst: nullsFirst})
			}
			continue
		}
		if b.skipLiteralKey(astSrc(o.X)) { // bind_select.go
			continue
		}
		col, ok := planner.Column{}, false
		if n, isOrd := setOpOrdinal(o.X); isOrd {
			if n < 1 || n > len(out) {
				return nil, b.errAt(sp.lo, ErrUnknownColumn, fmt.Sprintf("ORDER BY position %d is not in select list (1..%d)", n, len(out)))
			}
			col, ok = out[n-1], true
		} else if c, isCol := o.X.(*ast.ColumnRef); isCol {
			for i, name := range bd.Names {
				if (len(c.Name) == 1 || leaves.qualifies(c)) && strings.EqualFold(name, c.Name.Last().Name) {
					col, ok = out[i], true
					break
				}
			}
			if !ok {
				i, found, ambiguous := leaves.position(c) // bind_setop_order.go
				if ambiguous {
					return nil, b.errAt(sp.lo, ErrAmbiguousColumn, fmt.Sprintf("ambiguous reference to column %q in ORDER BY: the branches put it in different output columns", c.Name[0].Name+"."+c.Name.Last().Name))
				}
				if found && i < len(out) {
					col, ok = out[i], true
				}
			}
		}
		if !ok {
			return nil, b.errAt(sp.lo, ErrUnsupported, "ORDER BY of a set operation must name an output column or position")
		}
		keys = append(keys, planner.SortKey{Expr: &planner.ColRef{Col: col}, Desc: desc, NullsFirst: nullsFirst})
	}
	if len(keys) > 0 {
		root = &planner.Sort{Input: root, Keys: keys}
	}
	if root, err = b.limitAST(root, q); err != nil {
		return nil, err
	}
	b.ordered = &orderedRoot{root: root, keys: keys}
	return &Bound{Root: root, Names: bd.Names}, nil
}

// leafQuery is a query body as a query of its own (the leaf of a set
// operation).
func leafQuery(body ast.QueryBody) *ast.Query {
	if q, ok := body.(*ast.Query); ok {
		return q
	}
	return &ast.Query{Span: body.Extent(), Body: body}
}

// bindSetOpAST binds a set operation tree; its leaves are queries of
// their own, which it adds to leaves.
func (b *binder) bindSetOpAST(body ast.QueryBody, leaves *setOpLeaves) (*Bound, error) {
	switch body := body.(type) {
	case *ast.Values:
		it, err := b.bindValuesAST(body, "valueslist", nil)
		if err != nil {
			return nil, err
		}
		names := make([]string, len(it.cols))
		for i, c := range it.cols {
			names[i] = c.Name
		}
		leaves.leaves = append(leaves.leaves, newLeaf(names, nil))
		return &Bound{Root: it.node, Names: names}, nil
	case *ast.SetOp:
	default:
		bd, _, err := b.bindNested(b.subQuery(leafQuery(body)), false)
		if err == nil {
			sel, _ := body.(*ast.Select)
			if q, ok := body.(*ast.Query); ok && q.With == nil {
				sel, _ = q.Body.(*ast.Select) // (SELECT …)
				leaves.nested(q.Body)         // (SELECT … UNION …): their tables
			}
			leaves.leaves = append(leaves.leaves, newLeaf(bd.Names, sel))
		}
		return bd, err
	}
	so := body.(*ast.SetOp)
	at := b.q.tok(so.OpAt)
	first := len(leaves.leaves)
	l, err := b.bindSetOpAST(so.L, leaves)
	if err != nil {
		return nil, err
	}
	mid := len(leaves.leaves)
	r, err := b.bindSetOpAST(so.R, leaves)
	if err != nil {
		return nil, err
	}
	n := &planner.SetOp{All: so.All}
	switch so.Op {
	case "UNION":
		n.Kind = planner.SetUnion
	case "INTERSECT":
		n.Kind = planner.SetIntersect
	default:
		n.Kind = planner.SetExcept
	}
	if so.ByName {
		leaves.byName = true
		if n.Kind != planner.SetUnion {
			return nil, b.errAt(at, ErrUnsupported, "BY NAME is only valid with UNION")
		}
		bd, err := b.unionByName(n, l, r, ectx{sp: span{at, at + 1}}) // bind_setop_byname.go
		if err != nil {
			return nil, err
		}
		right := leaves.leaves[mid:]
		leaves.leaves = leaves.leaves[:mid]
		leaves.remap(first, l.Names, bd.Names)
		tail := len(leaves.leaves)
		leaves.leaves = append(leaves.leaves, right...)
		leaves.remap(tail, r.Names, bd.Names)
		return bd, nil
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
		xs, t, err := b.unifySetOp(xs, ectx{sp: span{at, at + 1}}) // bind_setop_types.go
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

// setOpOrdinal is the position an ORDER BY item of a set operation names:
// an ordinal (ORDER BY 2) or a positional reference (ORDER BY #2), both
// counting the output columns.
func setOpOrdinal(e ast.Expr) (int, bool) {
	if p, ok := e.(*ast.PositionalRef); ok {
		return p.Index, true
	}
	return astOrdinal(e)
}
