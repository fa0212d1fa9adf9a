package parser

import (
	"github.com/b2sql/b2sql/sql/ast"
)

// insert parses INSERT [OR REPLACE|IGNORE] INTO … and REPLACE INTO ….
func (p *parser) insert(s int) *ast.Insert {
	in := &ast.Insert{}
	if p.acceptWord("REPLACE") {
		in.Or = "REPLACE"
	} else {
		p.expectWord("INSERT")
		if p.acceptWord("OR") {
			switch {
			case p.acceptWord("REPLACE"):
				in.Or = "REPLACE"
			case p.acceptWord("IGNORE"):
				in.Or = "IGNORE"
			default:
				p.fail("expected REPLACE or IGNORE")
			}
		}
	}
	p.expectWord("INTO")
	in.Table = p.qualifiedName("a table name")
	if p.acceptWord("AS") {
		in.Alias = p.label("an alias")
	}
	switch {
	case p.acceptWords("BY", "NAME"):
		in.ByName = true
	case p.acceptWords("BY", "POSITION"):
		in.ByPosition = true
	}
	if p.isOp("(") && !p.startsQueryAt(1, true) {
		in.Columns = p.parenIdents("a column name")
	}
	if p.acceptWords("DEFAULT", "VALUES") {
		in.DefaultValues = true
	} else {
		in.Query = p.query()
	}
	if p.acceptWords("ON", "CONFLICT") {
		in.OnConflict = p.onConflict()
	}
	if p.acceptWord("RETURNING") {
		in.Returning = p.selectItems()
	}
	if p.isWord("WITH") && p.isOpAt(1, "(") {
		p.advance()
		in.Options = p.options()
	}
	in.Span = p.span(s)
	return in
}

// onConflict parses what follows ON CONFLICT.
func (p *parser) onConflict() *ast.OnConflict {
	s := p.toks[p.i-2].start
	oc := &ast.OnConflict{}
	if p.isOp("(") {
		oc.Columns = p.parenIdents("a column name")
		if p.acceptWord("WHERE") {
			oc.TargetWhere = p.expr()
		}
	}
	p.expectWord("DO")
	if p.acceptWord("NOTHING") {
		oc.DoNothing = true
	} else {
		p.expectWord("UPDATE")
		p.expectWord("SET")
		oc.Set = p.assignments()
		if p.acceptWord("WHERE") {
			oc.Where = p.expr()
		}
	}
	oc.Span = p.span(s)
	return oc
}

// assignments parses col = value, ….
func (p *parser) assignments() []*ast.Assign {
	var as []*ast.Assign
	for {
		s := p.start()
		col := p.qualifiedName("a column name")
		p.expectOp("=")
		v := p.expr()
		as = append(as, &ast.Assign{Span: p.span(s), Column: col, Value: v})
		if !p.acceptOp(",") || p.listEnds() {
			return as
		}
	}
}

// update parses UPDATE t [[AS] x] SET … [FROM …] [WHERE …] [RETURNING …].
func (p *parser) update(s int) *ast.Update {
	p.expectWord("UPDATE")
	u := &ast.Update{Table: p.qualifiedName("a table name")}
	u.Alias = p.alias(true)
	p.expectWord("SET")
	u.Set = p.assignments()
	if p.acceptWord("FROM") {
		u.From = p.fromList()
	}
	if p.acceptWord("WHERE") {
		u.Where = p.expr()
	}
	if p.acceptWord("RETURNING") {
		u.Returning = p.selectItems()
	}
	u.Span = p.span(s)
	return u
}

// deleteStmt parses DELETE FROM t [[AS] x] [USING …] [WHERE …] [RETURNING …].
func (p *parser) deleteStmt(s int) *ast.Delete {
	p.expectWord("DELETE")
	p.expectWord("FROM")
	d := &ast.Delete{Table: p.qualifiedName("a table name")}
	d.Alias = p.alias(true)
	if p.acceptWord("USING") {
		d.Using = p.fromList()
	}
	if p.acceptWord("WHERE") {
		d.Where = p.expr()
	}
	if p.acceptWord("RETURNING") {
		d.Returning = p.selectItems()
	}
	d.Span = p.span(s)
	return d
}

// copyStmt parses COPY t [(cols)] TO|FROM target [options], COPY
// (query) TO target [options] and COPY FROM DATABASE a TO b.
func (p *parser) copyStmt() ast.Stmt {
	s := p.start()
	p.expectWord("COPY")
	c := &ast.Copy{}
	if p.acceptWords("FROM", "DATABASE") {
		c.Database = p.qualifiedName("a database name")
		p.expectWord("TO")
		c.Table = p.qualifiedName("a database name")
		if p.isOp("(") {
			c.Options = p.options()
		}
		c.Span = p.span(s)
		return c
	}
	if p.isOp("(") {
		p.advance()
		c.Query = p.query()
		p.expectOp(")")
	} else {
		c.Table = p.qualifiedName("a table name")
		if p.isOp("(") {
			c.Columns = p.parenIdents("a column name")
		}
	}
	switch {
	case p.acceptWord("TO"):
	case c.Query == nil && p.acceptWord("FROM"):
		c.From = true
	default:
		p.fail("expected TO or FROM")
	}
	c.Target = p.exprPrec(precOp)
	p.acceptWord("WITH")
	switch {
	case p.isOp("("):
		c.Options = p.options()
	default:
		for p.tok().kind == tIdent && p.tok().cat != catReserved || p.isWord("DELIMITER") {
			c.Options = append(c.Options, p.option(false))
		}
	}
	c.Span = p.span(s)
	return c
}
