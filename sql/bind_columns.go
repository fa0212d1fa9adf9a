package sql

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// COLUMNS(…), as DuckDB expands it: an expression holding COLUMNS(arg)
// stands for one expression per column arg selects, in FROM order, each
// with COLUMNS(arg) replaced by that column (or by REPLACE's expression).
// arg is a * (with EXCLUDE, REPLACE, a qualifier), a regular expression
// (RE2, as DuckDB's: a column matches when the expression matches part
// of its name), a lambda over the column's name, or a list of names. In
// the select list each expansion is an item named after its column (an
// alias may use the regex's groups, \1); in WHERE the expansions are
// joined by AND, each conjunct on its own. *COLUMNS(arg) (or
// UNPACK(COLUMNS(arg))) as a function argument, an IN list's item or a
// list literal's element becomes one per column. Several COLUMNS in one expression must be the
// same (DuckDB refuses different ones).

// columnsMatch is one column COLUMNS(…) selected.
type columnsMatch struct {
	x    ast.Expr // the column (a reference) or its REPLACE expression
	name string
	subs []string // the regex's submatches in the name (nil for other args)
}

// columnsOf returns the COLUMNS nodes of e's clauses (not of nested
// queries).
func columnsOf(e ast.Expr) []*ast.Columns {
	var out []*ast.Columns
	ast.Inspect(e, func(x ast.Expr) bool {
		if c, ok := x.(*ast.Columns); ok {
			out = append(out, c)
			return false
		}
		return true
	})
	return out
}

// expandColumns returns the expansions of e when it holds COLUMNS
// (nil, false when it holds none), with the match each one is for (nil
// when e only unpacks, *COLUMNS, and so stays one expression).
func (b *binder) expandColumns(e ast.Expr) ([]ast.Expr, [][]columnsMatch, bool, error) {
	cs := columnsOf(e)
	if len(cs) == 0 {
		return nil, nil, false, nil
	}
	var lead *ast.Columns // the first COLUMNS that multiplies e
	matches := map[*ast.Columns][]columnsMatch{}
	for _, c := range cs {
		m, err := b.columnsMatches(c)
		if err != nil {
			return nil, nil, true, err
		}
		matches[c] = m
		if c.Unpack {
			continue
		}
		if lead == nil {
			lead = c
		} else if !ast.Equal(lead.Arg, c.Arg) {
			return nil, nil, true, b.errAt(b.q.tokAt(c.Start), ErrUnsupported, "different COLUMNS(…) in one expression are not supported")
		}
	}
	n := 1
	if lead != nil {
		n = len(matches[lead])
		if n == 0 {
			return nil, nil, true, b.errAt(b.q.tokAt(lead.Start), ErrUnknownColumn, "COLUMNS(…) selects an empty set of columns")
		}
	}
	var out []ast.Expr
	var which [][]columnsMatch
	for k := range n {
		var f func(ast.Expr) (ast.Expr, bool)
		f = func(x ast.Expr) (ast.Expr, bool) {
			switch x := x.(type) {
			case *ast.Columns:
				if x.Unpack {
					return nil, false // outside a call's arguments: refused when bound
				}
				return matches[x][k].x, true
			case *ast.Func:
				args, ok := unpackInto(x.Args, matches, f)
				if !ok {
					return nil, false
				}
				cp := *x
				cp.Args = args
				// The rest of the call (FILTER, ORDER BY, OVER) keeps its
				// COLUMNS replaced too.
				rest := rewriteFunc(&ast.Func{Span: cp.Span, Name: cp.Name, Filter: cp.Filter, OrderBy: cp.OrderBy, WithinGroup: cp.WithinGroup, Over: cp.Over}, f)
				cp.Filter, cp.OrderBy, cp.WithinGroup, cp.Over = rest.Filter, rest.OrderBy, rest.WithinGroup, rest.Over
				return &cp, true
			case *ast.InList: // x IN (*COLUMNS(*))
				list, ok := unpackInto(x.List, matches, f)
				if !ok || x.Expr {
					return nil, false
				}
				cp := *x
				cp.X, cp.List = ast.Rewrite(x.X, f), list
				return &cp, true
			case *ast.List: // [*COLUMNS(*)]
				elems, ok := unpackInto(x.Elems, matches, f)
				if !ok {
					return nil, false
				}
				return &ast.List{Span: x.Span, Elems: elems}, true
			}
			return nil, false
		}
		out = append(out, ast.Rewrite(e, f))
		if lead != nil {
			which = append(which, []columnsMatch{matches[lead][k]})
		} else {
			which = append(which, nil)
		}
	}
	return out, which, true, nil
}

// unpackInto returns xs with each *COLUMNS(…) among them replaced by its
// columns, and the others rewritten by f; ok is false when none unpacks.
func unpackInto(xs []ast.Expr, matches map[*ast.Columns][]columnsMatch, f func(ast.Expr) (ast.Expr, bool)) ([]ast.Expr, bool) {
	unpack := false
	for _, a := range xs {
		if c, ok := a.(*ast.Columns); ok && c.Unpack {
			unpack = true
		}
	}
	if !unpack {
		return nil, false
	}
	var out []ast.Expr
	for _, a := range xs {
		if c, ok := a.(*ast.Columns); ok && c.Unpack {
			for _, m := range matches[c] {
				out = append(out, m.x)
			}
			continue
		}
		out = append(out, ast.Rewrite(a, f))
	}
	return out, true
}

// columnsMatches returns the columns COLUMNS(arg) selects.
func (b *binder) columnsMatches(c *ast.Columns) ([]columnsMatch, error) {
	at := b.q.tokAt(c.Start)
	var out []columnsMatch
	switch arg := c.Arg.(type) {
	case *ast.Star:
		its, err := b.starItems(arg)
		if err != nil {
			return nil, err
		}
		for _, it := range its {
			x := ast.Expr(nil)
			if it.star != nil {
				x = columnRefAt(*it.star, c.Span)
			} else {
				x = it.src.(*syntaxSrc).n
			}
			out = append(out, columnsMatch{x: x, name: it.name})
		}
	case *ast.Literal:
		if arg.Kind != ast.LitString {
			return nil, b.errAt(at, ErrType, "COLUMNS expects *, a regular expression, a lambda or a list of column names")
		}
		re, err := regexp.Compile(arg.Val)
		if err != nil {
			return nil, b.errAt(b.q.tokAt(arg.Start), ErrSyntax, fmt.Sprintf("COLUMNS: bad regular expression %q: %v", arg.Val, err))
		}
		for _, col := range b.visibleScope() {
			if m := re.FindStringSubmatch(col.Name); m != nil {
				out = append(out, columnsMatch{x: columnRefAt(col, c.Span), name: col.Name, subs: m})
			}
		}
		if len(out) == 0 {
			return nil, b.errAt(at, ErrUnknownColumn, fmt.Sprintf("no column matches the regular expression %q", arg.Val))
		}
	case *ast.Lambda:
		if len(arg.Params) != 1 {
			return nil, b.errAt(b.q.tokAt(arg.Start), ErrSyntax, "a COLUMNS lambda takes one parameter, the column's name")
		}
		for _, col := range b.visibleScope() {
			ok, err := b.columnsLambda(arg, col.Name)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, columnsMatch{x: columnRefAt(col, c.Span), name: col.Name})
			}
		}
	case *ast.List:
		// The named columns, in FROM order (as DuckDB gives them).
		scope := b.visibleScope()
		want := make([]bool, len(scope))
		for _, e := range arg.Elems {
			l, ok := e.(*ast.Literal)
			if !ok || l.Kind != ast.LitString {
				return nil, b.errAt(b.q.tokAt(e.Extent().Start), ErrType, "COLUMNS' list holds column names as strings")
			}
			found := false
			for i, col := range scope {
				if strings.EqualFold(col.Name, l.Val) {
					want[i], found = true, true
					break
				}
			}
			if !found {
				return nil, b.errAt(b.q.tokAt(l.Start), ErrUnknownColumn, fmt.Sprintf("column %q is not in the FROM clause", l.Val))
			}
		}
		for i, col := range scope {
			if want[i] {
				out = append(out, columnsMatch{x: columnRefAt(col, c.Span), name: col.Name})
			}
		}
	default:
		return nil, b.errAt(at, ErrType, "COLUMNS expects *, a regular expression, a lambda or a list of column names")
	}
	return out, nil
}

// visibleScope is the FROM columns a bare name can reach and * lists, in
// order (without virtual columns).
func (b *binder) visibleScope() []planner.Column {
	var out []planner.Column
	for _, col := range b.scope {
		if b.hidden[col.ID] == 0 {
			out = append(out, col)
		}
	}
	return out
}

// columnsLambda evaluates COLUMNS' lambda for the column named name.
func (b *binder) columnsLambda(l *ast.Lambda, name string) (bool, error) {
	param := l.Params[0].Name
	body := ast.Rewrite(l.Body, func(x ast.Expr) (ast.Expr, bool) {
		if r, ok := x.(*ast.ColumnRef); ok && len(r.Name) == 1 && strings.EqualFold(r.Name[0].Name, param) {
			return &ast.Literal{Span: r.Span, Kind: ast.LitString, Val: name}, true
		}
		return nil, false
	})
	return b.constTrue(body, ectx{sp: b.q.spanOf(l), clause: "COLUMNS"}, l.Body, "a COLUMNS lambda must give a constant BOOLEAN for each column name")
}

// constTrue binds x, which must fold to a constant BOOLEAN (else an error
// msg at blame), and reports whether it is TRUE.
func (b *binder) constTrue(x ast.Expr, c ectx, blame ast.Expr, msg string) (bool, error) {
	v, err := b.bindAST(x, c)
	if err != nil {
		return false, err
	}
	k, ok := planner.FoldExpr(v).(*planner.Const)
	if !ok || k.Val.Type.ID != columnar.Bool && !k.Val.Null {
		return false, b.errAt(b.q.tokAt(blame.Extent().Start), ErrType, msg)
	}
	return !k.Val.Null && k.Val.I != 0, nil
}

// columnRefAt is a reference to col (qualified when it has a qualifier)
// placed at sp, where an error about it points.
func columnRefAt(col planner.Column, sp ast.Span) *ast.ColumnRef {
	name := ast.Name{{Span: sp, Name: col.Name, Quoted: true}}
	if col.Table != "" {
		name = append(ast.Name{{Span: sp, Name: col.Table, Quoted: true}}, name...)
	}
	return &ast.ColumnRef{Span: sp, Name: name}
}

// columnsAlias is a COLUMNS expansion's alias, as DuckDB rewrites it: \0
// is the column's name (with a regex, what it matched), \1…\9 the
// regex's groups (empty past the last one), \\ a backslash.
func columnsAlias(alias string, m columnsMatch) (string, error) {
	if !strings.Contains(alias, `\`) {
		return alias, nil
	}
	var sb strings.Builder
	for i := 0; i < len(alias); i++ {
		c := alias[i]
		if c != '\\' {
			sb.WriteByte(c)
			continue
		}
		i++
		switch {
		case i < len(alias) && alias[i] == '\\':
			sb.WriteByte('\\')
		case i < len(alias) && alias[i] >= '0' && alias[i] <= '9':
			g := int(alias[i] - '0')
			switch {
			case m.subs == nil && g == 0:
				sb.WriteString(m.name)
			case m.subs == nil:
				return "", fmt.Errorf("no regex is supplied to COLUMNS: its alias can use \\0 only")
			case g < len(m.subs):
				sb.WriteString(m.subs[g])
			}
		default:
			return "", fmt.Errorf("backslashes must either be escaped or followed by a number")
		}
	}
	return sb.String(), nil
}

// rewriteFunc rewrites the parts of call fn other than its arguments,
// which ast.Rewrite would hand to f again as the call itself.
func rewriteFunc(fn *ast.Func, f func(ast.Expr) (ast.Expr, bool)) *ast.Func {
	first := true
	return ast.Rewrite(fn, func(x ast.Expr) (ast.Expr, bool) {
		if first {
			first = false
			return nil, false
		}
		return f(x)
	}).(*ast.Func)
}
