package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// Ordered aggregates whose order DuckDB honours and whose kernels know no
// order, rewritten into forms that do, before binding:
//
//	percentile_cont(f) WITHIN GROUP (ORDER BY x [DESC])   quantile_cont(x, f ORDER BY x [DESC])
//	percentile_disc(f) WITHIN GROUP (ORDER BY x [DESC])   quantile_disc(x, f ORDER BY x [DESC])
//	mode() WITHIN GROUP (ORDER BY x [DESC])               mode(x ORDER BY x [DESC])
//	quantile_cont|quantile_disc(x, f ORDER BY x DESC)     the quantile of -x, negated (of each
//	                                                      element when f is a list literal): the
//	                                                      value at the same position counted from
//	                                                      the top, as DuckDB takes it; DuckDB
//	                                                      ignores an ORDER BY on anything but x
//	mode(v ORDER BY k…)                                   list_mode(list(v ORDER BY k…)): among
//	                                                      values as frequent, the first in that
//	                                                      order (list_mode's rule, as DuckDB's mode)
//	mode(DISTINCT v ORDER BY v [DESC])                    min(v) [max(v)]: one vote per value
//	arg_max(x, y ORDER BY k…)                             first(x ORDER BY y DESC, k…) FILTER (WHERE
//	                                                      x and y are not NULL; only y for
//	                                                      arg_max_null): ties on y go to the first
//	                                                      row in k's order (arg_min: y ascending)
//	arg_max_nulls_last(x, y [, n] [ORDER BY k…])          first(x ORDER BY y DESC NULLS LAST, k…),
//	                                                      with n list(x ORDER BY …)[1:n]: every row
//	                                                      counts, a NULL y after the others (NaN
//	                                                      before it), x NULL or not (arg_min: y
//	                                                      ascending)
//
// orderedAggRewrite returns the rewrite of f, ok false when it has none.
func orderedAggRewrite(f *ast.Func) (ast.Expr, bool) {
	if len(f.Name) != 1 || f.Name[0].Quoted || f.Over != nil || f.Method || f.ExportState {
		return nil, false
	}
	name := strings.ToLower(f.Name[0].Name)
	sp := f.Span
	call := func(fn string, args ...ast.Expr) *ast.Func {
		return &ast.Func{Span: sp, Name: ast.Name{{Span: sp, Name: fn}}, Args: args}
	}
	if len(f.WithinGroup) > 0 {
		if len(f.OrderBy) > 0 || f.Distinct || f.Star || len(f.WithinGroup) != 1 {
			return nil, false
		}
		x := f.WithinGroup[0].X
		var g *ast.Func
		switch {
		case (name == "percentile_cont" || name == "percentile_disc") && len(f.Args) == 1:
			g = call("quantile_"+name[len("percentile_"):], x, f.Args[0])
		case name == "mode" && len(f.Args) == 0:
			g = call("mode", x)
		default:
			return nil, false
		}
		g.OrderBy, g.Filter = f.WithinGroup, f.Filter
		return g, true
	}
	if name == "arg_min_nulls_last" || name == "arg_max_nulls_last" {
		return nullsLastArg(f, name, call)
	}
	if len(f.OrderBy) == 0 || f.Star || len(f.WithinGroup) > 0 {
		return nil, false
	}
	switch name {
	case "quantile_cont", "quantile_disc", "quantile":
		o := f.OrderBy[0]
		if len(f.Args) != 2 || f.Distinct || !o.Desc || ast.Format(o.X) != ast.Format(f.Args[0]) || negativeFraction(f.Args[1]) {
			return nil, false // a negative fraction: refused with the order (bindOrderedAgg)
		}
		neg := func(x ast.Expr) ast.Expr { return &ast.Unary{Span: sp, Op: "-", X: x} }
		q := call(name, neg(f.Args[0]), f.Args[1])
		q.Filter = f.Filter
		if _, list := f.Args[1].(*ast.List); list {
			v := &ast.Ident{Span: sp, Name: "__q"}
			lambda := &ast.Lambda{Span: sp, Params: []*ast.Ident{v}, Body: neg(&ast.ColumnRef{Span: sp, Name: ast.Name{v}})}
			return call("list_transform", q, lambda), true
		}
		return neg(q), true
	case "arg_max", "argmax", "max_by", "arg_min", "argmin", "min_by", "arg_max_null", "arg_min_null":
		if len(f.Args) != 2 || f.Distinct {
			return nil, false
		}
		x, y := f.Args[0], f.Args[1]
		isNotNull := func(e ast.Expr) ast.Expr { return &ast.Is{Span: sp, X: e, Not: true, What: "NULL"} }
		keep := isNotNull(y)
		if !strings.HasSuffix(name, "_null") {
			keep = &ast.Binary{Span: sp, Op: "AND", L: isNotNull(x), R: keep}
		}
		if f.Filter != nil {
			keep = &ast.Binary{Span: sp, Op: "AND", L: f.Filter, R: keep}
		}
		by := &ast.OrderItem{Span: sp, X: y, Desc: strings.Contains(name, "max")}
		g := call("first", x)
		g.OrderBy, g.Filter = append([]*ast.OrderItem{by}, f.OrderBy...), keep
		return g, true
	case "mode":
		if len(f.Args) != 1 {
			return nil, false
		}
		if o := f.OrderBy[0]; f.Distinct && len(f.OrderBy) == 1 && ast.Format(o.X) == ast.Format(f.Args[0]) {
			// One vote per value: the first value in its own order.
			ext := call(map[bool]string{false: "min", true: "max"}[o.Desc], f.Args[0])
			ext.Filter = f.Filter
			return ext, true
		}
		l := call("list", f.Args[0])
		l.OrderBy, l.Filter, l.Distinct = f.OrderBy, f.Filter, f.Distinct
		return call("list_mode", l), true
	}
	return nil, false
}

// nullsLastArg rewrites arg_min_nulls_last and arg_max_nulls_last
// (orderedAggRewrite); ok is false for a form they do not take.
func nullsLastArg(f *ast.Func, name string, call func(string, ...ast.Expr) *ast.Func) (ast.Expr, bool) {
	if len(f.Args) < 2 || len(f.Args) > 3 || f.Distinct || f.Star || len(f.WithinGroup) > 0 {
		return nil, false
	}
	by := &ast.OrderItem{Span: f.Span, X: f.Args[1], Desc: name == "arg_max_nulls_last", Nulls: "LAST"}
	order := append([]*ast.OrderItem{by}, f.OrderBy...)
	if len(f.Args) == 2 {
		g := call("first", f.Args[0])
		g.OrderBy, g.Filter = order, f.Filter
		return g, true
	}
	l := call("list", f.Args[0])
	l.OrderBy, l.Filter = order, f.Filter
	one := &ast.Literal{Span: f.Span, Kind: ast.LitNumber, Val: "1"}
	return &ast.Slice{Span: f.Span, X: l, Lo: one, Hi: f.Args[2]}, true
}

// negativeFraction reports whether a quantile's fraction is written as a
// negative number, or a list holding one: with an ORDER BY DuckDB refuses
// it (bindOrderedAgg), where a plain quantile takes it as a descending one.
func negativeFraction(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Unary:
		_, num := x.X.(*ast.Literal)
		return x.Op == "-" && num
	case *ast.List:
		for _, e := range x.Elems {
			if negativeFraction(e) {
				return true
			}
		}
	}
	return false
}
