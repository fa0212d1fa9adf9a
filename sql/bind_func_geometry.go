package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindSetCRS types st_setcrs(geom, crs): its result is GEOMETRY(crs), so
// crs must be a constant (DuckDB 1.5's rule and message); a NULL crs
// gives a NULL GEOMETRY, blank text a GEOMETRY without a CRS
// (columnar.SetCRS reads the text as DuckDB does).
func (b *binder) bindSetCRS(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) != 2 {
		return nil, false, nil // the registry's arity error
	}
	k, ok := xs[1].(*planner.Const)
	if !ok {
		return nil, true, b.errAt(at, ErrType, "ST_SetCRS: CRS argument must be constant!")
	}
	crs := ""
	if !k.Val.Null && k.Val.Type.IsString() {
		var err error
		if crs, err = columnar.SetCRS(k.Val.S); err != nil {
			return nil, true, b.typeErr(srcs[1], c, "%s", err)
		}
	}
	x, err := b.callRules(name, xs, srcs, at, c)
	if err != nil {
		return nil, true, err
	}
	t := columnar.GeometryCRS(crs)
	switch x := x.(type) {
	case *planner.Call:
		x.T = t
	case *planner.Const: // folded
		v := x.Val
		v.Type = t
		return &planner.Const{Val: v}, true, nil
	}
	return x, true, nil
}

// bindOverlap binds l && r: DuckDB's st_intersects_extent when either side
// is a GEOMETRY, else list_has_any (the lists share an element).
func (b *binder) bindOverlap(l, r planner.Expr, ls, rs callexpr.Expr, c ectx) (planner.Expr, error) {
	fn := "list_has_any"
	if l.Type().ID == columnar.Geometry || r.Type().ID == columnar.Geometry {
		fn = "st_intersects_extent"
	}
	return b.callFunc(fn, []planner.Expr{l, r}, []callexpr.Expr{ls, rs}, b.leafTok(ls, c.sp), c)
}
