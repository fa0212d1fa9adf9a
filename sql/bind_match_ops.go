package sql

import "github.com/b2sql/b2sql/sql/ast"

// DuckDB's matching operators, which its transformer turns into calls:
// x ~ p is regexp_matches(x, p) (a partial match, DuckDB's default since
// its regex_match_operator_semantics setting; 'full' makes it
// regexp_full_match, as DuckDB 1.5 had it), x ~* p the same with the
// option 'i'; x SIMILAR TO p is always regexp_full_match(x, p); x ^@ p is
// starts_with(x, p), x ~~ p is LIKE, x ~~* p ILIKE; !~, !~*, !~~, !~~* and
// NOT SIMILAR TO negate them. matchCall gives the syntax tree of the call
// (spanning the operator expression, so that errors point at it), which
// then binds as written that way.

var matchOps = map[string]struct {
	fn  string // the function, "~" for the regex operators, or LIKE/ILIKE for an ast.Like
	not bool
	ci  bool // case-insensitive: the regex option 'i'
}{
	"~": {"~", false, false}, "!~": {"~", true, false}, "~*": {"~", false, true}, "!~*": {"~", true, true},
	"^@": {"starts_with", false, false},
	"~~": {"LIKE", false, false}, "!~~": {"LIKE", true, false}, "~~*": {"ILIKE", false, false}, "!~~*": {"ILIKE", true, false},
}

// regexFull reports whether the session's regex_match_operator_semantics
// is 'full'.
func (b *binder) regexFull() bool {
	if sr, ok := b.cat.(SettingsReader); ok {
		if v, err := sr.CurrentSetting("regex_match_operator_semantics"); err == nil && !v.Null {
			return v.S == "full"
		}
	}
	return false
}

// matchCall returns the call a matching operator stands for, with x ~ p a
// full match when full; ok is false for other expressions. SIMILAR TO with
// ESCAPE stays as it is (DuckDB refuses a custom escape in SIMILAR TO too).
func matchCall(e ast.Expr, full bool) (ast.Expr, bool) {
	var l, r ast.Expr
	var sp ast.Span
	var op string
	var not bool
	switch e := e.(type) {
	case *ast.Binary:
		if _, ok := matchOps[e.Op]; !ok {
			return nil, false
		}
		op, l, r, sp = e.Op, e.L, e.R, e.Span
	case *ast.Like:
		if e.Op != "SIMILAR TO" || e.Escape != nil {
			return nil, false
		}
		op, not, l, r, sp = "SIMILAR TO", e.Not, e.X, e.Pattern, e.Span
	default:
		return nil, false
	}
	return matchExpr(op, not, l, r, sp, full), true
}

// matchExpr is the call of matching operator op (a key of matchOps, or
// SIMILAR TO, negated when not) over l and r.
func matchExpr(op string, not bool, l, r ast.Expr, sp ast.Span, full bool) ast.Expr {
	m := matchOps[op]
	fn, args := m.fn, []ast.Expr{l, r}
	not = not != m.not
	switch {
	case op == "SIMILAR TO":
		fn = "regexp_full_match"
	case fn == "LIKE" || fn == "ILIKE":
		return &ast.Like{Span: sp, Op: fn, Not: not, X: l, Pattern: r}
	case fn == "~" && full:
		fn = "regexp_full_match"
	case fn == "~":
		fn = "regexp_matches"
	}
	if m.ci {
		args = append(args, &ast.Literal{Span: sp, Kind: ast.LitString, Val: "i"})
	}
	var x ast.Expr = &ast.Func{Span: sp, Name: ast.Name{{Span: sp, Name: fn}}, Args: args}
	if not {
		x = &ast.Unary{Span: sp, Op: "NOT", X: x}
	}
	return x
}
