package sql

import (
	"fmt"
	"strconv"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// SELECT DISTINCT ON (e, …) … ORDER BY … keeps the first row of each
// group of equal e, in the ORDER BY order (DuckDB, PostgreSQL): it is
// row_number() OVER (PARTITION BY e, … ORDER BY …) = 1, a window of the
// query's Window node and a filter above it. The rewriter cuts the list
// out of the text (MySQL has no DISTINCT ON); it is parsed here on its
// own. ORDER BY items may be select ordinals or aliases.

// bindDistinctOn returns the filter keeping each group's first row, nil
// without DISTINCT ON.
func (b *binder) bindDistinctOn(items []selItem, aggregating bool) (planner.Expr, error) {
	r := b.q.rw.distinctOn
	if r[0] == 0 {
		return nil, nil
	}
	lo, hi := r[0], r[1]
	toks := b.q.toks
	text := b.q.src.Text[toks[lo].off:toks[hi-1].end]
	st, err := parseLegacy(Source{Text: "SELECT " + text, Line: 1, Col: 1})
	q, ok := st.(*Query)
	if err != nil || !ok || q.sel == nil {
		msg := "syntax error in DISTINCT ON"
		if e, ok := err.(*Error); ok {
			msg = e.Msg
		}
		return nil, b.errAt(lo, ErrSyntax, msg)
	}
	var on []sqlparser.Expr
	for _, se := range q.sel.SelectExprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok || !ae.As.IsEmpty() {
			return nil, b.errAt(lo, ErrSyntax, "DISTINCT ON expects a list of expressions")
		}
		on = append(on, ae.Expr)
	}
	var order []orderRef
	for k, o := range b.q.sel.OrderBy {
		sp := b.cl.orderBy
		if k < len(b.cl.orderItems) {
			sp = b.cl.orderItems[k]
		}
		order = append(order, orderRef{expr: o.Expr, sp: sp, desc: o.Direction == sqlparser.DescScr, nullsFirst: b.q.rw.nulls[k]})
	}
	return b.distinctOn(on, order, span{lo, hi}, items, aggregating)
}

// orderRef is an ORDER BY item as either syntax tree gives it.
type orderRef struct {
	expr             sqlparser.Expr
	sp               span
	desc, nullsFirst bool
}

// distinctOn binds DISTINCT ON (on…) written at sp, with the query's
// ORDER BY, as the row_number() = 1 filter.
func (b *binder) distinctOn(on []sqlparser.Expr, order []orderRef, sp span, items []selItem, aggregating bool) (planner.Expr, error) {
	lo := sp.lo
	c := ectx{sp: sp, clause: "DISTINCT ON", aggOK: aggregating}
	bind := func(e sqlparser.Expr, c ectx) (planner.Expr, error) {
		if constantOrderKey(e) {
			return nil, b.errAt(lo, ErrSyntax, "DISTINCT ON non-integer literal has no effect")
		}
		// A select ordinal stands for its item.
		if k, ok := ordinal(e); ok {
			if k >= 1 && k <= len(items) && items[k-1].expr != nil {
				return items[k-1].expr, nil
			} else if k < 1 || k > len(items) {
				return nil, b.errAt(lo, ErrUnknownColumn, fmt.Sprintf("DISTINCT ON term out of range: %s, should be between 1 and %d", strconv.Itoa(k), len(items)))
			}
		}
		x, err := b.bindExpr(e, c)
		if err == nil && aggregating {
			x, err = b.finalize(x, c)
		}
		return x, err
	}
	f := planner.WindowFunc{Name: "row_number", Type: columnar.TInt64, Frame: planner.Frame{StartUnbounded: true}}
	for _, e := range on {
		x, err := bind(e, c)
		if err != nil {
			return nil, err
		}
		f.Partition = append(f.Partition, x)
	}
	for _, o := range order {
		x, err := bind(o.expr, ectx{sp: o.sp, clause: "ORDER BY", aggOK: aggregating})
		if err != nil {
			return nil, err
		}
		f.Order = append(f.Order, planner.SortKey{Expr: x, Desc: o.desc, NullsFirst: o.nullsFirst})
	}
	col := b.newCol("row_number", "", columnar.TInt64)
	b.win.funcs = append(b.win.funcs, f)
	b.win.cols = append(b.win.cols, col)
	one := &planner.Const{Val: columnar.IntValue(columnar.TInt64, 1)}
	return &planner.Call{Fn: "=", Args: []planner.Expr{&planner.ColRef{Col: col}, one}, T: columnar.TBool}, nil
}
