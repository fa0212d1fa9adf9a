package sql

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// lttb(x, y, n [ORDER BY k…]) downsamples the group's points (x, y), in
// input order, to at most n by Largest Triangle Three Buckets, as DuckDB:
// a LIST of STRUCT(x, y), x and y keeping their types. x is a FLOAT, a
// DOUBLE or a timestamp of any unit or zone, y a FLOAT or a DOUBLE
// (integers and decimals as DOUBLE); n a constant of at least 2. It is
// list(struct_pack(x, y)) — in the ORDER BY when there is one, each
// group's entries sorted as an ordered list's (sortedEntries) — handed to
// lttb_sample (executor/call_lttb.go), which drops the points with a NULL.
// OVER a window it is that list over the frame, in the call's ORDER BY
// (bind_window_any.go).

// bindLttb binds lttb without ORDER BY: over list(struct_pack(x, y)).
func (b *binder) bindLttb(name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx) (planner.Expr, error) {
	point, n, err := b.lttbPoint(name, e, args, star, at, c)
	if err != nil {
		return nil, err
	}
	return lttbSample(b.addAgg(planner.AggCall{Func: planner.AggList, Arg: point, Type: columnar.ListOf(point.T)}), n), nil
}

// lttbSample is the points of pts (a LIST of lttb's points) lttb keeps.
func lttbSample(pts planner.Expr, n int64) planner.Expr {
	count := &planner.Const{Val: columnar.IntValue(columnar.TInt64, n)}
	return &planner.Call{Fn: "lttb_sample", Args: []planner.Expr{pts, count}, T: pts.Type()}
}

// lttbPoint binds lttb's arguments: the point struct_pack(x, y) a row
// gives, and n.
func (b *binder) lttbPoint(name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx) (*planner.Call, int64, error) {
	xs, ac, err := b.aggArgs(name, e, args, star, at, c, aggArity{lo: 3, hi: 3, bind: 2, plain: true}) // bind_agg_args.go
	if err != nil {
		return nil, 0, err
	}
	for k, x := range xs {
		t := x.Type()
		switch {
		case t.IsFloat() || k == 0 && (t.IsTimestampUnit() || t.ID == columnar.Timestamp || t.ID == columnar.TimestampTZ):
		case t.IsInteger() || t.IsDecimal() || t.ID == columnar.Null:
			xs[k] = &planner.Cast{Arg: x, To: columnar.TFloat64}
		default:
			return nil, 0, b.typeErr(args[k], c, "No function matches lttb(%s, %s, BIGINT)", xs[0].Type(), xs[1].Type())
		}
	}
	y, err := b.bindExpr(args[2], ac)
	if err != nil {
		return nil, 0, err
	}
	k, ok := planner.FoldExpr(y).(*planner.Const)
	switch {
	case !ok:
		return nil, 0, b.typeErr(args[2], c, "lttb: the number of points n must be a constant")
	case k.Val.Null || !k.Val.Type.IsInteger() || k.Val.Type.Wide():
		return nil, 0, b.typeErr(args[2], c, "lttb: the number of points n must be an integer, not %s", k.Val)
	}
	n := k.Val.I
	if k.Val.Type.Phys() == columnar.PhysUint && n < 0 {
		n = math.MaxInt64 // a UBIGINT past BIGINT: every point
	}
	if n < 2 {
		return nil, 0, b.typeErr(args[2], c, "lttb: the number of points n must be at least 2, not %d", n)
	}
	pt := columnar.StructOf(columnar.Field{Name: "x", Type: xs[0].Type()}, columnar.Field{Name: "y", Type: xs[1].Type()})
	return &planner.Call{Fn: "struct_pack", Args: xs, T: pt}, n, nil
}
