package sql

import (
	"fmt"
	"regexp"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// * LIKE|ILIKE|GLOB|SIMILAR TO pattern and * ~ pattern (or another
// matching operator): the star's columns whose names match, as DuckDB
// filters them (COLUMNS(list_filter(names, c -> c op pattern)); GLOB is
// its ~~~). SIMILAR
// TO on a star is a partial match, as DuckDB 1.5 reads it (a COLUMNS
// regular expression); ~ follows regex_match_operator_semantics. DuckDB
// 1.5 ignores the negation of a regex operator on a star (* !~ 'b' gives
// every column), so !~, !~* and NOT SIMILAR TO are refused here rather
// than answered one way or the other.

// starMatches reports whether the column named name matches the star's
// pattern l.
func (b *binder) starMatches(l *ast.Like, name string) (bool, error) {
	at := b.q.tokAt(l.Start)
	col := &ast.Literal{Span: l.Span, Kind: ast.LitString, Val: name}
	var x ast.Expr
	switch m, isOp := matchOps[l.Op]; {
	case l.Op == "SIMILAR TO" && l.Not || isOp && m.fn == "~" && m.not:
		op := l.Op
		if l.Not {
			op = "NOT " + op
		}
		return false, b.errAt(at, ErrUnsupported, fmt.Sprintf("* %s (a negated regular expression on a star) is not supported: DuckDB 1.5 ignores the negation", op))
	case l.Op == "GLOB" && l.Not:
		return false, b.errAt(at, ErrSyntax, "* NOT GLOB is not valid (DuckDB's grammar has no negated GLOB on a star)")
	case l.Op == "GLOB":
		// b2sql has no GLOB operator over rows (DuckDB 1.5 has none
		// either, only ~~~): the constant pattern is matched here.
		v, err := b.bindAST(l.Pattern, ectx{sp: b.q.spanOf(l.Pattern), clause: "SELECT"})
		if err != nil {
			return false, err
		}
		k, ok := planner.FoldExpr(v).(*planner.Const)
		if !ok || k.Val.Type.ID != columnar.Varchar && !k.Val.Null {
			return false, b.errAt(b.q.tok(l.Pattern.Extent()), ErrType, "a star's pattern must be a constant string")
		}
		return !k.Val.Null && globMatch(name, k.Val.S), nil // glob.go
	case l.Op == "SIMILAR TO":
		x = &ast.Func{Span: l.Span, Name: ast.Name{{Span: l.Span, Name: "regexp_matches"}}, Args: []ast.Expr{col, l.Pattern}}
	case isOp:
		x = matchExpr(l.Op, false, col, l.Pattern, l.Span, b.regexFull())
	default:
		x = &ast.Like{Span: l.Span, Op: l.Op, Not: l.Not, X: col, Pattern: l.Pattern, Escape: l.Escape}
	}
	return b.constTrue(x, ectx{sp: b.q.spanOf(l), clause: "SELECT"}, l.Pattern, "a star's pattern must be a constant string")
}

// starMatch is the match of column name for an alias of the star (\1 is
// the regex's first group): a regex operator's or SIMILAR TO's groups
// when the pattern is a string literal.
func starMatch(l *ast.Like, name string) columnsMatch {
	m := columnsMatch{name: name}
	lit, ok := l.Pattern.(*ast.Literal)
	op, isOp := matchOps[l.Op]
	if !ok || lit.Kind != ast.LitString || l.Op != "SIMILAR TO" && !(isOp && op.fn == "~") {
		return m
	}
	pat := lit.Val
	if op.ci {
		pat = "(?i)" + pat
	}
	if re, err := regexp.Compile(pat); err == nil {
		m.subs = re.FindStringSubmatch(name)
	}
	return m
}
