package sql

import (
	"strconv"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// LIMIT and OFFSET that are not constants — a subquery (LIMIT (SELECT
// max(n) FROM t)) or a volatile call (LIMIT nextval('s'), random()) — are
// computed once, before the rows, as DuckDB computes them: they become a
// query of their own, SELECT CAST(limit AS BIGINT), CAST(offset AS
// BIGINT), whose one row planner.LimitBy reads when the query runs. It
// cannot read the query's columns (bound with no outer scope). A NULL
// count, or a subquery with no row, is no limit; a negative one an error.
// LIMIT p% computes p as a DOUBLE instead (CAST(p AS DOUBLE)): a percent
// of the rows, as a constant one is.

// limitBy puts the LIMIT/OFFSET of q over root; computed holds the
// expressions that are not constants, count and offset the constants
// (-1 and 0 when absent). A LIMIT … % has percent, its constant (nil for
// none or NULL), or byPercent when it is computed[0].
func (b *binder) limitBy(root planner.Node, q *ast.Query, computed [2]ast.Expr, count, offset int64, percent *float64, byPercent bool) (planner.Node, error) {
	for i, e := range computed {
		if e == nil {
			continue
		}
		what := [2]string{"LIMIT", "OFFSET"}[i]
		if f := astAggCall(e); f != nil {
			return nil, b.errAt(b.q.tok(f.Extent()), ErrType, "aggregate functions are not allowed in "+what)
		}
		var win *ast.Func
		ast.Inspect(e, func(x ast.Expr) bool {
			if f, ok := x.(*ast.Func); ok && f.Over != nil {
				win = f
			}
			return win == nil
		})
		if win != nil {
			return nil, b.errAt(b.q.tok(win.Extent()), ErrType, "window functions are not allowed in "+what)
		}
	}
	sp := q.Span
	items := make([]*ast.SelectItem, 2)
	pct := byPercent || percent != nil
	for i, e := range computed {
		if e == nil {
			v := strconv.FormatInt([2]int64{count, offset}[i], 10)
			switch {
			case i == 0 && percent != nil:
				e = &ast.Literal{Span: sp, Kind: ast.LitNumber, Val: strconv.FormatFloat(*percent, 'g', -1, 64)}
			case i == 0 && (count < 0 || pct):
				e = &ast.Literal{Span: sp, Kind: ast.LitNull, Val: "NULL"}
			default:
				e = &ast.Literal{Span: sp, Kind: ast.LitNumber, Val: v}
			}
		}
		to := "BIGINT"
		if i == 0 && pct {
			to = "DOUBLE"
		}
		items[i] = &ast.SelectItem{Span: e.Extent(), X: &ast.Cast{Span: e.Extent(), X: e, Type: &ast.TypeName{Span: e.Extent(), Name: to}}}
	}
	nq := b.subQuery(&ast.Query{Span: sp, Body: &ast.Select{Span: sp, Items: items}})
	c := b.child(nq.q, nq.params)
	bd, err := c.bindQuery()
	b.nextID = c.nextID
	if err != nil {
		return nil, err
	}
	return &planner.LimitBy{Input: root, Bounds: bd.Root, Percent: pct}, nil
}
