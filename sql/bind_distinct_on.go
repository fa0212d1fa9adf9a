package sql

import (
	"fmt"
	"strconv"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// SELECT DISTINCT ON (e, …) … ORDER BY … keeps the first row of each
// group of equal e, in the ORDER BY order (DuckDB, PostgreSQL): it is
// row_number() OVER (PARTITION BY e, … ORDER BY …) = 1, a window of the
// query's Window node and a filter above it. ORDER BY items may be select
// ordinals or aliases.

// orderRef is an ORDER BY item as either syntax tree gives it.
type orderRef struct {
	expr             callexpr.Expr
	sp               span
	desc, nullsFirst bool
}

// distinctOn binds DISTINCT ON (on…) written at sp, with the query's
// ORDER BY, as the row_number() = 1 filter.
func (b *binder) distinctOn(on []callexpr.Expr, order []orderRef, sp span, items []selItem, aggregating bool) (planner.Expr, error) {
	lo := sp.lo
	c := ectx{sp: sp, clause: "DISTINCT ON", aggOK: aggregating}
	bind := func(e callexpr.Expr, c ectx) (planner.Expr, error) {
		if b.skipLiteralKey(e) {
			return nil, nil // bind_select.go
		}
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
			x, err = b.finalize(x, e, c)
		}
		return x, err
	}
	f := planner.WindowFunc{Name: "row_number", Type: columnar.TInt64, Frame: planner.Frame{StartUnbounded: true}}
	for _, e := range on {
		x, err := bind(e, c)
		if err != nil {
			return nil, err
		}
		if x != nil {
			f.Partition = append(f.Partition, x)
		}
	}
	for _, o := range order {
		x, err := bind(o.expr, ectx{sp: o.sp, clause: "ORDER BY", aggOK: aggregating})
		if err != nil {
			return nil, err
		}
		if x == nil {
			continue
		}
		f.Order = append(f.Order, planner.SortKey{Expr: x, Desc: o.desc, NullsFirst: o.nullsFirst})
	}
	col := b.newCol("row_number", "", columnar.TInt64)
	b.win.funcs = append(b.win.funcs, f)
	b.win.cols = append(b.win.cols, col)
	one := &planner.Const{Val: columnar.IntValue(columnar.TInt64, 1)}
	return &planner.Call{Fn: "=", Args: []planner.Expr{&planner.ColRef{Col: col}, one}, T: columnar.TBool}, nil
}
