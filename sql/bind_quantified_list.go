package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// x op ANY (list) and x op ALL (list): the comparison with every element
// of a list expression, with the NULLs of the subquery form
// (bind_subquery_quantified.go), which DuckDB reads it as (ANY (SELECT
// unnest(list))): ANY is TRUE when x op e for some e, ALL FALSE when not
// x op e for some e; otherwise NULL when some comparison is NULL, and
// FALSE (ANY) or TRUE (ALL) for an empty or NULL list. op is a
// comparison or a regex match operator (~, ~*, !~, !~*, which DuckDB
// takes here since its 2026 releases). The comparisons are one lambda
// over the list, m = list_transform(list, e -> x op e), and
//
//	ANY: CASE WHEN coalesce(len(list), 0) = 0 THEN FALSE
//	          WHEN list_aggregate(m, 'bool_or') THEN TRUE
//	          WHEN list_count(m) < len(m) THEN NULL ELSE FALSE END
//	ALL: CASE WHEN coalesce(len(list), 0) = 0 THEN TRUE
//	          WHEN NOT list_aggregate(m, 'bool_and') THEN FALSE
//	          WHEN list_count(m) < len(m) THEN NULL ELSE TRUE END
//
// (bool_or and bool_and skip NULLs: all NULL gives NULL, which goes on).

// quantifiedListOp reports whether op may stand before ANY/ALL (list).
func quantifiedListOp(op string) bool {
	if strictComparisons[op] || op == "!=" {
		return true
	}
	m, ok := matchOps[op]
	return ok && m.fn == "~"
}

// quantifiedList is the syntax tree of e (whose List is set) as the CASE
// above; full is the session's regex_match_operator_semantics.
func quantifiedList(e *ast.Quantified, full bool) ast.Expr {
	sp := e.Span
	param := lambdaParam(e.X)
	ref := &ast.ColumnRef{Span: sp, Name: ast.Name{{Span: sp, Name: param, Quoted: true}}}
	var cmp ast.Expr = &ast.Binary{Span: sp, Op: e.Op, L: e.X, R: ref}
	if _, ok := matchOps[e.Op]; ok {
		cmp = matchExpr(e.Op, false, e.X, ref, sp, full)
	}
	call := func(fn string, args ...ast.Expr) ast.Expr {
		return &ast.Func{Span: sp, Name: ast.Name{{Span: sp, Name: fn}}, Args: args}
	}
	lit := func(k ast.LitKind, v string) ast.Expr { return &ast.Literal{Span: sp, Kind: k, Val: v} }
	m := call("list_transform", e.List, &ast.Lambda{Span: sp, Params: []*ast.Ident{{Span: sp, Name: param, Quoted: true}}, Body: cmp})
	all := e.Quant == "ALL"
	empty, decided := "false", "true"
	decide := call("list_aggregate", m, lit(ast.LitString, "bool_or"))
	if all {
		empty, decided = "true", "false"
		decide = &ast.Unary{Span: sp, Op: "NOT", X: call("list_aggregate", m, lit(ast.LitString, "bool_and"))}
	}
	n := call("coalesce", call("len", e.List), lit(ast.LitNumber, "0"))
	return &ast.Case{Span: sp, Whens: []*ast.When{
		{Span: sp, Cond: &ast.Binary{Span: sp, Op: "=", L: n, R: lit(ast.LitNumber, "0")}, Then: lit(ast.LitBool, empty)},
		{Span: sp, Cond: decide, Then: lit(ast.LitBool, decided)},
		{Span: sp, Cond: &ast.Binary{Span: sp, Op: "<", L: call("list_count", m), R: call("len", m)}, Then: lit(ast.LitNull, "")},
	}, Else: lit(ast.LitBool, empty)}
}

// lambdaParam is a name for the lambda's parameter that no column
// reference in x spells, so that the parameter hides none of them.
func lambdaParam(x ast.Expr) string {
	used := map[string]bool{}
	ast.Inspect(x, func(e ast.Expr) bool {
		if r, ok := e.(*ast.ColumnRef); ok {
			for _, id := range r.Name {
				used[strings.ToLower(id.Name)] = true
			}
		}
		return true
	})
	name := "elem"
	for used[name] {
		name += "_"
	}
	return name
}
