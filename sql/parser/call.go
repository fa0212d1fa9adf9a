package parser

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// call parses the argument list and trailing clauses of a call of name,
// which started at s; the current token is "(".
func (p *parser) call(name ast.Name, s int) *ast.Func {
	p.expectOp("(")
	f := &ast.Func{Name: name}
	if len(name) == 1 && !name[0].Quoted {
		if p.specialCall(f, strings.ToUpper(name[0].Name)) {
			f.Span = p.span(s)
			return f
		}
	}
	if p.isOp("*") && p.isOpAt(1, ")") {
		p.advance()
		f.Star = true
	} else if p.isWord("ORDER") && p.isWordAt(1, "BY") {
		p.i += 2
		f.OrderBy = p.orderItems()
	} else if !p.isOp(")") {
		if p.acceptWord("DISTINCT") {
			f.Distinct = true
		} else {
			p.acceptWord("ALL")
		}
		for {
			f.Args = append(f.Args, p.arg())
			if !p.acceptOp(",") {
				break
			}
		}
		if p.acceptWords("ORDER", "BY") {
			f.OrderBy = p.orderItems()
		}
		if st, ok := f.Args[0].(*ast.Star); ok && len(f.Args) == 1 && st.Qualifier == nil && st.Exclude == nil &&
			st.Replace == nil && st.Rename == nil && st.Like == nil {
			f.Args, f.Star = nil, true // f(* ORDER BY …) is f(*)
		}
		if p.acceptWord("SEPARATOR") {
			// MySQL's group_concat(x SEPARATOR s) is group_concat(x, s).
			f.Args = append(f.Args, p.expr())
		}
		p.nulls(f)
	}
	p.expectOp(")")
	if p.acceptWords("WITHIN", "GROUP") {
		p.expectOp("(")
		p.expectWord("ORDER")
		p.expectWord("BY")
		f.WithinGroup = p.orderItems()
		p.expectOp(")")
	}
	if p.isWord("FILTER") && p.isOpAt(1, "(") {
		p.advance()
		p.advance()
		p.acceptWord("WHERE")
		f.Filter = p.expr()
		p.expectOp(")")
	}
	p.nulls(f)
	f.ExportState = p.acceptWord("EXPORT_STATE")
	if p.acceptWord("OVER") {
		f.Over = p.over()
	} else if f.Nulls != ast.NullsDefault {
		what := "IGNORE"
		if f.Nulls == ast.RespectNulls {
			what = "RESPECT"
		}
		p.failMsg(f.NullsAt.Start, what+" NULLS is only valid in a window function call")
	}
	f.Span = p.span(s)
	return f
}

// nulls parses IGNORE NULLS / RESPECT NULLS.
func (p *parser) nulls(f *ast.Func) {
	if p.isWord("IGNORE") || p.isWord("RESPECT") {
		f.NullsAt = ast.Span{Start: p.start(), End: p.tok().end}
	}
	switch {
	case p.acceptWords("IGNORE", "NULLS"):
		f.Nulls = ast.IgnoreNulls
	case p.acceptWords("RESPECT", "NULLS"):
		f.Nulls = ast.RespectNulls
	}
}

// arg parses one argument: an expression or name := value.
func (p *parser) arg() ast.Expr {
	if t := p.tok(); (t.kind == tIdent || t.kind == tQIdent) && (p.isOpAt(1, ":=") || p.isOpAt(1, "=>")) {
		s := p.start()
		name := identOf(p.advance())
		p.advance()
		v := p.expr()
		return &ast.NamedArg{Span: p.span(s), Name: name, Value: v}
	}
	return p.expr()
}

// word makes a string literal node of a keyword argument (EXTRACT's field).
func word(t token) *ast.Literal {
	return &ast.Literal{Span: ast.Span{Start: t.start, End: t.end}, Kind: ast.LitString, Val: strings.ToLower(t.val)}
}

// specialCall parses the SQL-standard call syntaxes into f (reporting
// whether it did): EXTRACT(f FROM x), POSITION(a IN b), SUBSTRING(x FROM
// a FOR b), TRIM([BOTH|LEADING|TRAILING] [c] FROM x), OVERLAY(x PLACING y
// FROM a [FOR b]).
func (p *parser) specialCall(f *ast.Func, name string) bool {
	setName := func(n string) { f.Name = ast.Name{&ast.Ident{Span: f.Name[0].Span, Name: n}} }
	switch name {
	case "EXTRACT":
		if t := p.tok(); (t.kind == tIdent || t.kind == tString) && p.isWordAt(1, "FROM") {
			p.advance()
			p.advance()
			x := p.expr()
			p.expectOp(")")
			setName("date_part")
			f.Args = []ast.Expr{word(t), x}
			if t.kind == tString {
				f.Args[0].(*ast.Literal).Val = t.val
			}
			return true
		}
	case "POSITION":
		// POSITION is a keyword whose only call form is POSITION(a IN
		// b): DuckDB refuses position(a, b) as a syntax error.
		a := p.exprPrec(precLike + 1)
		p.expectWord("IN")
		b := p.expr()
		p.expectOp(")")
		setName("position")
		f.Args = []ast.Expr{b, a}
		return true
	case "SUBSTRING":
		save := p.i
		x := p.expr()
		if !p.isWord("FROM") && !p.isWord("FOR") {
			p.i = save
			return false
		}
		setName("substring")
		f.Args = []ast.Expr{x}
		if p.acceptWord("FROM") {
			f.Args = append(f.Args, p.expr())
		} else {
			f.Args = append(f.Args, &ast.Literal{Span: ast.Span{Start: p.start(), End: p.start()}, Kind: ast.LitNumber, Val: "1"})
		}
		if p.acceptWord("FOR") {
			f.Args = append(f.Args, p.expr())
		}
		p.expectOp(")")
		return true
	case "TRIM":
		fn := "trim"
		switch {
		case p.acceptWord("BOTH"):
		case p.acceptWord("LEADING"):
			fn = "ltrim"
		case p.acceptWord("TRAILING"):
			fn = "rtrim"
		default:
			save := p.i
			if p.isWord("FROM") {
				break
			}
			c := p.expr()
			if !p.acceptWord("FROM") {
				p.i = save
				return false
			}
			x := p.expr()
			p.expectOp(")")
			setName(fn)
			f.Args = []ast.Expr{x, c}
			return true
		}
		var c ast.Expr
		if !p.isWord("FROM") {
			c = p.expr()
		}
		if p.acceptWord("FROM") || c == nil {
			x := p.expr()
			f.Args = []ast.Expr{x}
			if c != nil {
				f.Args = append(f.Args, c)
			}
		} else {
			f.Args = []ast.Expr{c}
		}
		p.expectOp(")")
		setName(fn)
		return true
	case "OVERLAY":
		save := p.i
		x := p.expr()
		if !p.acceptWord("PLACING") {
			p.i = save
			return false
		}
		y := p.expr()
		p.expectWord("FROM")
		from := p.expr()
		f.Args = []ast.Expr{x, y, from}
		if p.acceptWord("FOR") {
			f.Args = append(f.Args, p.expr())
		}
		p.expectOp(")")
		setName("overlay")
		return true
	}
	return false
}

// over parses what follows OVER: a window name or ( spec ).
func (p *parser) over() *ast.Window {
	if !p.isOp("(") {
		id := p.colID("a window name or \"(\"")
		return &ast.Window{Span: id.Span, Base: id}
	}
	return p.windowSpec()
}

// windowSpec parses ( [base] [PARTITION BY …] [ORDER BY …] [frame] ).
func (p *parser) windowSpec() *ast.Window {
	s := p.start()
	p.expectOp("(")
	w := &ast.Window{}
	if t := p.tok(); isColID(t) && !p.isWord("PARTITION") && !p.isWord("ORDER") && !p.isWord("ROWS") &&
		!p.isWord("RANGE") && !p.isWord("GROUPS") {
		w.Base = identOf(p.advance())
	}
	if p.acceptWords("PARTITION", "BY") {
		for {
			w.PartitionBy = append(w.PartitionBy, p.expr())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if p.acceptWords("ORDER", "BY") {
		w.OrderBy = p.orderItems()
	}
	if p.isWord("ROWS") || p.isWord("RANGE") || p.isWord("GROUPS") {
		w.Frame = p.frame()
	}
	p.expectOp(")")
	w.Span = p.span(s)
	return w
}

// frame parses ROWS|RANGE|GROUPS bounds [EXCLUDE …].
func (p *parser) frame() *ast.Frame {
	s := p.start()
	f := &ast.Frame{Unit: strings.ToUpper(p.advance().val)}
	if p.acceptWord("BETWEEN") {
		f.Start = p.bound()
		p.expectWord("AND")
		f.End = p.bound()
	} else {
		f.Start = p.bound()
	}
	if p.acceptWord("EXCLUDE") {
		switch {
		case p.acceptWords("CURRENT", "ROW"):
			f.Exclude = "CURRENT ROW"
		case p.acceptWord("GROUP"):
			f.Exclude = "GROUP"
		case p.acceptWord("TIES"):
			f.Exclude = "TIES"
		case p.acceptWords("NO", "OTHERS"):
			f.Exclude = "NO OTHERS"
		default:
			p.fail("expected EXCLUDE CURRENT ROW, GROUP, TIES or NO OTHERS")
		}
	}
	f.Span = p.span(s)
	return f
}

// bound parses one frame bound.
func (p *parser) bound() *ast.Bound {
	s := p.start()
	b := &ast.Bound{}
	switch {
	case p.acceptWords("UNBOUNDED", "PRECEDING"):
		b.Kind = "UNBOUNDED PRECEDING"
	case p.acceptWords("UNBOUNDED", "FOLLOWING"):
		b.Kind = "UNBOUNDED FOLLOWING"
	case p.acceptWords("CURRENT", "ROW"):
		b.Kind = "CURRENT ROW"
	default:
		b.Offset = p.exprPrec(precNot + 1)
		switch {
		case p.acceptWord("PRECEDING"):
			b.Kind = "PRECEDING"
		case p.acceptWord("FOLLOWING"):
			b.Kind = "FOLLOWING"
		default:
			p.fail("expected PRECEDING or FOLLOWING")
		}
	}
	b.Span = p.span(s)
	return b
}

// acceptBareStar takes a * that stands alone, DuckDB's spelling of ALL in
// GROUP BY * and ORDER BY * (not * EXCLUDE (…) and the like).
func (p *parser) acceptBareStar() bool {
	if !p.isOp("*") {
		return false
	}
	for _, w := range []string{"EXCLUDE", "REPLACE", "RENAME", "LIKE", "ILIKE", "SIMILAR", "GLOB", "NOT"} {
		if p.isWordAt(1, w) {
			return false
		}
	}
	p.i++
	return true
}

// orderItems parses ORDER BY's list (after ORDER BY; ALL or * for every
// output column).
func (p *parser) orderItems() []*ast.OrderItem {
	var items []*ast.OrderItem
	for {
		s := p.start()
		it := &ast.OrderItem{}
		if !p.acceptWord("ALL") && !p.acceptBareStar() {
			it.X = p.expr()
		}
		if p.acceptWord("DESC") {
			it.Desc = true
		} else if p.acceptWord("ASC") {
			it.Asc = true
		}
		if p.acceptWord("NULLS") {
			switch {
			case p.acceptWord("FIRST"):
				it.Nulls = "FIRST"
			case p.acceptWord("LAST"):
				it.Nulls = "LAST"
			default:
				p.fail("expected FIRST or LAST")
			}
		}
		it.Span = p.span(s)
		items = append(items, it)
		if !p.acceptOp(",") {
			return items
		}
	}
}
