package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// An aggregate over the elements of one list, written as a subquery over
// its unnest, needs no join either (bind_subquery_list.go):
//
//	(SELECT e FROM unnest(l) t(v) [WHERE w])
//	(SELECT e FROM (SELECT unnest(l)) t(v) [WHERE w])
//
// where e combines constants and aggregates over v, is e with each
// aggregate agg(a) computed on the list: list_aggregate(list_transform(l',
// v -> a), 'agg') with l' = list_filter(l, v -> w) (count(*) is the
// length of l', 0 for a NULL list, as count of no rows). l may read the
// outer query's columns, so such a correlated subquery binds too.

// unnestAggSubquery returns the rewrite of the scalar subquery q; ok is
// false when q is not of that shape.
func unnestAggSubquery(q *ast.Query) (ast.Expr, bool) {
	if q == nil || q.With != nil || len(q.OrderBy) > 0 || q.Limit != nil || q.Offset != nil {
		return nil, false
	}
	s, ok := q.Body.(*ast.Select)
	if !ok || len(s.Items) != 1 || len(s.From) != 1 || s.GroupBy != nil || s.Having != nil ||
		len(s.Windows) > 0 || s.Qualify != nil || s.Distinct || len(s.DistinctOn) > 0 {
		return nil, false
	}
	l, v, ok := unnestSource(s.From[0])
	if !ok {
		return nil, false
	}
	sp := q.Span
	call := func(name string, args ...ast.Expr) *ast.Func {
		return &ast.Func{Span: sp, Name: ast.Name{{Span: sp, Name: name}}, Args: args}
	}
	lambda := func(body ast.Expr) ast.Expr {
		return &ast.Lambda{Span: sp, Params: []*ast.Ident{{Span: sp, Name: v}}, Body: body}
	}
	if s.Where != nil {
		if !astReadsOnly(s.Where, v) || astHasAgg(s.Where) {
			return nil, false
		}
		l = call("list_filter", l, lambda(s.Where))
	}
	x := s.Items[0].X
	if !astHasAgg(x) {
		return nil, false
	}
	out, ok := replaceAggs(x, func(f *ast.Func) (ast.Expr, bool) {
		name := strings.ToLower(f.Name[0].Name)
		if f.Filter != nil || len(f.OrderBy)+len(f.WithinGroup) > 0 || f.Over != nil {
			return nil, false
		}
		if f.Star && name == "count" {
			return call("coalesce", call("len", l), &ast.Literal{Span: sp, Kind: ast.LitNumber, Val: "0"}), true
		}
		if len(f.Args) != 1 || !astReadsOnly(f.Args[0], v) || astHasAgg(f.Args[0]) {
			return nil, false
		}
		arg := l
		if ref, ok := f.Args[0].(*ast.ColumnRef); !ok || len(ref.Name) != 1 || !strings.EqualFold(ref.Name[0].Name, v) {
			arg = call("list_transform", l, lambda(f.Args[0]))
		}
		if f.Distinct {
			arg = call("list_distinct", arg)
		}
		agg := ast.Expr(call("list_aggregate", arg, &ast.Literal{Span: sp, Kind: ast.LitString, Val: name}))
		if name == "count" {
			agg = call("coalesce", agg, &ast.Literal{Span: sp, Kind: ast.LitNumber, Val: "0"})
		}
		return agg, true
	})
	return out, ok // outside its aggregates x reads no column: replaceAggs rebuilds no ColumnRef
}

// unnestSource reads unnest(l) t(v) or (SELECT unnest(l)) t(v): the list
// and the name of its element column.
func unnestSource(r ast.TableRef) (l ast.Expr, v string, ok bool) {
	switch r := r.(type) {
	case *ast.TableFunc:
		if r.Lateral || r.Sample != nil || r.Alias == nil || len(r.Alias.Columns) != 1 {
			return nil, "", false
		}
		l, ok = unnestArg(r.Func)
		return l, r.Alias.Columns[0].Name, ok
	case *ast.Derived:
		if r.Stmt != nil || r.Sample != nil || r.Alias == nil || len(r.Alias.Columns) != 1 {
			return nil, "", false
		}
		l, ok = unnestQuery(r.Query)
		return l, r.Alias.Columns[0].Name, ok
	}
	return nil, "", false
}

// astReadsOnly reports whether the columns e reads outside lambdas are all
// the bare name v (lambdas bind their own names).
func astReadsOnly(e ast.Expr, v string) bool {
	only := true
	ast.Inspect(e, func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.Lambda:
			return false
		case *ast.ColumnRef:
			if len(x.Name) != 1 || v == "" || !strings.EqualFold(x.Name[0].Name, v) {
				only = false
			}
		case *ast.Subquery, *ast.InQuery, *ast.Quantified, *ast.Star, *ast.Columns:
			only = false
		}
		return only
	})
	return only
}

// replaceAggs rebuilds e with each aggregate call replaced by what with
// gives; ok is false when with refuses one, or e holds an expression this
// walk does not rebuild.
func replaceAggs(e ast.Expr, with func(*ast.Func) (ast.Expr, bool)) (ast.Expr, bool) {
	switch x := e.(type) {
	case *ast.Func:
		if astAggCall(x) == x {
			return with(x)
		}
		if x.Over != nil || x.Filter != nil || len(x.OrderBy)+len(x.WithinGroup) > 0 || x.Star {
			return nil, false
		}
		cp := *x
		cp.Args = make([]ast.Expr, len(x.Args))
		for i, a := range x.Args {
			var ok bool
			if cp.Args[i], ok = replaceAggs(a, with); !ok {
				return nil, false
			}
		}
		return &cp, true
	case *ast.Binary:
		l, ok1 := replaceAggs(x.L, with)
		r, ok2 := replaceAggs(x.R, with)
		return &ast.Binary{Span: x.Span, Op: x.Op, L: l, R: r}, ok1 && ok2
	case *ast.Unary:
		y, ok := replaceAggs(x.X, with)
		return &ast.Unary{Span: x.Span, Op: x.Op, X: y}, ok
	case *ast.Cast:
		y, ok := replaceAggs(x.X, with)
		cp := *x
		cp.X = y
		return &cp, ok
	case *ast.Literal:
		return x, true
	}
	return nil, false
}
