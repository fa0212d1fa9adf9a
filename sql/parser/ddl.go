package parser

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// create parses the CREATE statements.
func (p *parser) create() ast.Stmt {
	s := p.start()
	p.expectWord("CREATE")
	orReplace := p.acceptWords("OR", "REPLACE")
	word := func(ws ...string) ast.Span { // the span of the first of ws written here, accepted
		for _, w := range ws {
			if p.isWord(w) {
				t := p.advance()
				return ast.Span{Start: t.start, End: t.end}
			}
		}
		return ast.Span{}
	}
	tempAt := word("TEMP", "TEMPORARY")
	temp := tempAt != ast.Span{}
	if !temp {
		p.acceptWord("PERSISTENT")
	}
	recursive := p.acceptWord("RECURSIVE")
	var uniqueAt ast.Span
	if !recursive {
		uniqueAt = word("UNIQUE")
	}
	unique := uniqueAt != ast.Span{}
	if recursive && !p.isWord("VIEW") {
		p.fail("expected VIEW")
	}
	switch {
	case !unique && p.acceptWord("TABLE"):
		return p.createTable(s, orReplace, tempAt)
	case !unique && p.acceptWord("VIEW"):
		v := &ast.CreateView{OrReplace: orReplace, Temp: temp, Recursive: recursive}
		v.IfNotExists = p.acceptWords("IF", "NOT", "EXISTS")
		v.Name = p.qualifiedName("a view name")
		if p.isOp("(") {
			v.Columns = p.parenIdents("a column name")
		}
		p.expectWord("AS")
		v.Query = p.query()
		v.Span = p.span(s)
		return v
	case !unique && p.acceptWord("SEQUENCE"):
		q := &ast.CreateSequence{OrReplace: orReplace, Temp: temp}
		q.IfNotExists = p.acceptWords("IF", "NOT", "EXISTS")
		q.Name = p.qualifiedName("a sequence name")
		q.Options = p.sequenceOptions()
		q.Span = p.span(s)
		return q
	case !unique && p.acceptWord("SCHEMA"):
		sc := &ast.CreateSchema{OrReplace: orReplace}
		sc.IfNotExists = p.acceptWords("IF", "NOT", "EXISTS")
		sc.Name = p.qualifiedName("a schema name")
		sc.Span = p.span(s)
		return sc
	case p.acceptWord("INDEX"):
		return p.createIndex(s, uniqueAt)
	case !unique && !orReplace && p.acceptWord("TRIGGER"):
		return p.createTrigger(s, temp)
	case !unique && (p.acceptWord("MACRO") || p.acceptWord("FUNCTION")):
		return p.createMacro(s, orReplace, temp)
	case !unique && p.acceptWord("TYPE"):
		ct := &ast.CreateType{Name: p.qualifiedName("a type name")}
		p.expectWord("AS")
		if p.isWord("ENUM") && p.isOpAt(1, "(") && p.startsQueryAt(2, false) {
			p.fail("ENUM from a query is not part of this grammar")
		}
		ct.Type = p.typeName()
		ct.Span = p.span(s)
		return ct
	}
	p.fail("expected TABLE, VIEW, SEQUENCE, SCHEMA, INDEX, MACRO, TYPE or TRIGGER")
	return nil
}

// createTable parses the rest of CREATE … TABLE.
func (p *parser) createTable(s int, orReplace bool, tempAt ast.Span) ast.Stmt {
	ct := &ast.CreateTable{OrReplace: orReplace, Temp: tempAt != ast.Span{}, TempAt: tempAt}
	ct.IfNotExists = p.acceptWords("IF", "NOT", "EXISTS")
	ct.Name = p.qualifiedName("a table name")
	if p.isOp("(") {
		// (a, b) AS query names the columns of a CTAS.
		if k := p.i + 1; isLabel(p.toks[k]) && (p.isOpAt(2, ",") || p.isOpAt(2, ")")) && p.asAfterParen() {
			ct.AsColumns = p.parenIdents("a column name")
		} else {
			p.advance()
			for !p.isOp(")") {
				if c := p.tableConstraint(); c != nil {
					ct.Constraints = append(ct.Constraints, c)
				} else {
					ct.Columns = append(ct.Columns, p.columnDef())
				}
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(")")
		}
	}
	if p.isWord("WITH") && p.isOpAt(1, "(") {
		p.advance()
		ct.Options = p.options()
	}
	if p.acceptWord("AS") {
		ct.As = p.query()
		if p.acceptWords("WITH", "NO", "DATA") {
			ct.WithNoData = true
		} else {
			p.acceptWords("WITH", "DATA")
		}
	} else if ct.Columns == nil {
		p.fail("expected a column list or AS")
	}
	ct.Span = p.span(s)
	return ct
}

// asAfterParen reports whether the parenthesized list at the current
// token is followed by AS (CREATE TABLE t (a, b) AS …).
func (p *parser) asAfterParen() bool {
	depth := 0
	for k := p.i; k < len(p.toks); k++ {
		t := p.toks[k]
		if t.kind == tEOF {
			return false
		}
		if t.kind == tOp && t.val == "(" {
			depth++
		}
		if t.kind == tOp && t.val == ")" {
			depth--
			if depth == 0 {
				n := p.toks[min(k+1, len(p.toks)-1)]
				return n.kind == tIdent && isKeyword(n.val, "AS")
			}
		}
	}
	return false
}

// tableConstraint parses a table constraint, or returns nil when the
// next element is a column.
func (p *parser) tableConstraint() *ast.Constraint {
	s := p.start()
	c := &ast.Constraint{}
	if p.isWord("CONSTRAINT") {
		p.advance()
		c.Name = p.label("a constraint name")
	}
	switch {
	case p.isWord("PRIMARY") && p.isWordAt(1, "KEY"):
		p.i += 2
		c.Kind = "PRIMARY KEY"
		c.Columns = p.parenIdents("a column name")
	case p.isWord("UNIQUE") && p.isOpAt(1, "("):
		p.advance()
		c.Kind = "UNIQUE"
		c.Columns = p.parenIdents("a column name")
	case p.isWord("CHECK") && p.isOpAt(1, "("):
		p.advance()
		p.advance()
		c.Kind = "CHECK"
		c.Expr = p.expr()
		p.expectOp(")")
	case p.isWord("FOREIGN") && p.isWordAt(1, "KEY"):
		p.i += 2
		c.Kind = "FOREIGN KEY"
		c.Columns = p.parenIdents("a column name")
		p.expectWord("REFERENCES")
		c.RefTable = p.qualifiedName("a table name")
		if p.isOp("(") {
			c.RefColumns = p.parenIdents("a column name")
		}
	default:
		if c.Name != nil {
			p.fail("expected PRIMARY KEY, UNIQUE, CHECK or FOREIGN KEY")
		}
		return nil
	}
	c.Span = p.span(s)
	return c
}

// columnDef parses name [type] [constraints].
func (p *parser) columnDef() *ast.ColumnDef {
	s := p.start()
	cd := &ast.ColumnDef{Name: p.colIDOrLabel("a column name")}
	if t := p.tok(); (t.kind == tIdent || t.kind == tQIdent) && !p.isConstraintStart() {
		cd.Type = p.typeName()
	}
	for {
		c := p.columnConstraint()
		if c == nil {
			break
		}
		cd.Constraints = append(cd.Constraints, c)
	}
	cd.Span = p.span(s)
	return cd
}

// isConstraintStart reports whether a column constraint starts here.
func (p *parser) isConstraintStart() bool {
	for _, w := range []string{"NOT", "NULL", "PRIMARY", "UNIQUE", "CHECK", "DEFAULT", "REFERENCES",
		"COLLATE", "GENERATED", "CONSTRAINT", "USING"} {
		if p.isWord(w) {
			return true
		}
	}
	return p.isWord("AS") && p.isOpAt(1, "(")
}

// columnConstraint parses one column constraint, or returns nil.
func (p *parser) columnConstraint() *ast.Constraint {
	s := p.start()
	c := &ast.Constraint{}
	if p.acceptWord("CONSTRAINT") {
		c.Name = p.label("a constraint name")
	}
	switch {
	case p.acceptWords("NOT", "NULL"):
		c.Kind = "NOT NULL"
	case p.acceptWord("NULL"):
		c.Kind = "NULL"
	case p.acceptWords("PRIMARY", "KEY"):
		c.Kind = "PRIMARY KEY"
	case p.acceptWord("UNIQUE"):
		c.Kind = "UNIQUE"
	case p.acceptWord("CHECK"):
		c.Kind = "CHECK"
		p.expectOp("(")
		c.Expr = p.expr()
		p.expectOp(")")
	case p.acceptWord("DEFAULT"):
		c.Kind = "DEFAULT"
		c.Expr = p.exprPrec(precIs)
	case p.acceptWord("REFERENCES"):
		c.Kind = "REFERENCES"
		c.RefTable = p.qualifiedName("a table name")
		if p.isOp("(") {
			c.RefColumns = p.parenIdents("a column name")
		}
	case p.acceptWord("COLLATE"):
		c.Kind = "COLLATE"
		c.Value = p.label("a collation").Name
	case p.acceptWord("USING"):
		c.Kind = "USING"
		c.Value = strings.ToLower(p.label("a storage flavour").Name)
	case p.isWord("GENERATED") || p.isWord("AS") && p.isOpAt(1, "("):
		if p.acceptWord("GENERATED") {
			p.expectWord("ALWAYS")
		}
		p.expectWord("AS")
		p.expectOp("(")
		c.Kind = "GENERATED"
		c.Expr = p.expr()
		p.expectOp(")")
		if p.acceptWord("VIRTUAL") {
			c.Value = "VIRTUAL"
		} else if p.acceptWord("STORED") {
			c.Value = "STORED"
		}
	default:
		if c.Name != nil {
			p.fail("expected a constraint")
		}
		return nil
	}
	c.Span = p.span(s)
	return c
}

// sequenceOptions parses CREATE SEQUENCE's options.
func (p *parser) sequenceOptions() []*ast.Option {
	var opts []*ast.Option
	for {
		s := p.start()
		var name string
		var v ast.Expr
		switch {
		case p.acceptWord("START"):
			p.acceptWord("WITH")
			name, v = "START", p.signedNumber()
		case p.acceptWord("INCREMENT"):
			p.acceptWord("BY")
			name, v = "INCREMENT", p.signedNumber()
		case p.acceptWord("MINVALUE"):
			name, v = "MINVALUE", p.signedNumber()
		case p.acceptWord("MAXVALUE"):
			name, v = "MAXVALUE", p.signedNumber()
		case p.acceptWords("NO", "MINVALUE"):
			name = "NO MINVALUE"
		case p.acceptWords("NO", "MAXVALUE"):
			name = "NO MAXVALUE"
		case p.acceptWords("NO", "CYCLE"):
			name = "NO CYCLE"
		case p.acceptWord("CYCLE"):
			name = "CYCLE"
		default:
			return opts
		}
		sp := p.span(s)
		opts = append(opts, &ast.Option{Span: sp, Name: &ast.Ident{Span: sp, Name: name}, Value: v})
	}
}

// signedNumber parses [-|+] number.
func (p *parser) signedNumber() ast.Expr {
	if t := p.tok(); t.kind != tNumber && !(t.kind == tOp && (t.val == "-" || t.val == "+")) {
		p.fail("expected a number")
	}
	return p.unary()
}

// createIndex parses the rest of CREATE [UNIQUE] INDEX.
func (p *parser) createIndex(s int, uniqueAt ast.Span) ast.Stmt {
	ci := &ast.CreateIndex{Unique: uniqueAt != ast.Span{}, UniqueAt: uniqueAt}
	ci.IfNotExists = p.acceptWords("IF", "NOT", "EXISTS")
	if !p.isWord("ON") {
		ci.Name = p.colIDOrLabel("an index name")
	}
	p.expectWord("ON")
	ci.Table = p.qualifiedName("a table name")
	if p.acceptWord("USING") {
		ci.Using = p.label("an index kind")
	}
	p.expectOp("(")
	ci.Keys = p.orderItems()
	p.expectOp(")")
	if ci.Using == nil && p.acceptWord("USING") {
		ci.Using = p.label("an index kind")
	}
	if p.isWord("WITH") && p.isOpAt(1, "(") {
		p.advance()
		ci.Options = p.options()
	}
	ci.Span = p.span(s)
	return ci
}

// createMacro parses the rest of CREATE MACRO|FUNCTION [IF NOT EXISTS]
// name(params) AS body, and further overloads after commas:
// , (params) AS body. A body is an expression or TABLE query; a
// parameter is name [type] [:= default].
func (p *parser) createMacro(s int, orReplace, temp bool) ast.Stmt {
	m := &ast.CreateMacro{OrReplace: orReplace, Temp: temp}
	m.IfNotExists = p.acceptWords("IF", "NOT", "EXISTS")
	m.Name = p.qualifiedName("a macro name")
	for {
		m.Overloads = append(m.Overloads, p.macroDef())
		if !p.isOp(",") || !p.isOpAt(1, "(") {
			break
		}
		p.advance()
	}
	m.Span = p.span(s)
	return m
}

// macroDef parses one overload: (params) AS expr | AS TABLE query.
func (p *parser) macroDef() *ast.MacroDef {
	s := p.start()
	d := &ast.MacroDef{}
	p.expectOp("(")
	for !p.isOp(")") {
		d.Params = append(d.Params, p.macroParam())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	p.expectWord("AS")
	if p.acceptWord("TABLE") {
		d.Table = p.query()
	} else {
		d.Body = p.expr()
	}
	d.Span = p.span(s)
	return d
}

// macroParam parses name [type] [:= default].
func (p *parser) macroParam() *ast.MacroParam {
	s := p.start()
	t := p.tok()
	if !isColID(t) {
		p.fail("a parameter name")
	}
	mp := &ast.MacroParam{Name: identOf(p.advance())}
	if t := p.tok(); (t.kind == tIdent || t.kind == tQIdent) && !p.isOp(":=") {
		mp.Type = p.typeName()
	}
	if p.acceptOp(":=") || p.acceptOp("=>") {
		mp.Default = p.expr()
	}
	mp.Span = p.span(s)
	return mp
}

// drop parses DROP kind [IF EXISTS] names [CASCADE|RESTRICT] and b2sql's
// DROP INDEX [IF EXISTS] ON t (col).
func (p *parser) drop() ast.Stmt {
	s := p.start()
	p.expectWord("DROP")
	d := &ast.Drop{}
	for _, k := range []string{"TABLE", "VIEW", "SEQUENCE", "SCHEMA", "INDEX", "MACRO", "FUNCTION", "TYPE", "TRIGGER"} {
		if p.acceptWord(k) {
			d.Kind = k
			break
		}
	}
	if d.Kind == "" {
		p.fail("expected TABLE, VIEW, SEQUENCE, SCHEMA, INDEX, MACRO, FUNCTION, TYPE or TRIGGER")
	}
	if d.Kind == "MACRO" && p.acceptWord("TABLE") {
		d.Kind = "MACRO TABLE"
	}
	d.IfExists = p.acceptWords("IF", "EXISTS")
	if d.Kind == "INDEX" && p.acceptWord("ON") {
		d.On = p.qualifiedName("a table name")
		d.Columns = p.parenIdents("a column name")
	} else {
		for {
			d.Names = append(d.Names, p.qualifiedName("a name"))
			if !p.acceptOp(",") {
				break
			}
		}
	}
	d.Cascade = p.acceptWord("CASCADE")
	if !d.Cascade {
		d.Restrict = p.acceptWord("RESTRICT")
	}
	d.Span = p.span(s)
	return d
}

// alter parses ALTER TABLE|VIEW [IF EXISTS] name action.
func (p *parser) alter() ast.Stmt {
	s := p.start()
	p.expectWord("ALTER")
	a := &ast.Alter{}
	switch {
	case p.acceptWord("TABLE"):
		a.Kind = "TABLE"
	case p.acceptWord("VIEW"):
		a.Kind = "VIEW"
	default:
		p.fail("expected TABLE or VIEW")
	}
	a.IfExists = p.acceptWords("IF", "EXISTS")
	a.Name = p.qualifiedName("a table name")
	as := p.start()
	act := &ast.AlterAction{}
	switch {
	case p.acceptWord("ADD"):
		if c := p.tableConstraint(); c != nil {
			act.Kind, act.Constraint = "ADD CONSTRAINT", c
			break
		}
		p.acceptWord("COLUMN")
		act.Kind = "ADD COLUMN"
		act.IfNotExists = p.acceptWords("IF", "NOT", "EXISTS")
		act.Column = p.columnDef()
	case p.acceptWord("DROP"):
		p.acceptWord("COLUMN")
		act.Kind = "DROP COLUMN"
		act.IfExists = p.acceptWords("IF", "EXISTS")
		act.Target = p.colIDOrLabel("a column name")
		act.Cascade = p.acceptWord("CASCADE")
	case p.acceptWord("RENAME"):
		if p.acceptWord("TO") {
			act.Kind = "RENAME"
			act.To = p.colIDOrLabel("a name")
			break
		}
		p.acceptWord("COLUMN")
		act.Kind = "RENAME COLUMN"
		act.Target = p.colIDOrLabel("a column name")
		p.expectWord("TO")
		act.To = p.colIDOrLabel("a column name")
	case p.acceptWord("ALTER"):
		p.acceptWord("COLUMN")
		act.Target = p.colIDOrLabel("a column name")
		switch {
		case p.acceptWords("SET", "DATA", "TYPE"), p.acceptWord("TYPE"):
			act.Kind = "ALTER TYPE"
			act.Type = p.typeName()
			if p.acceptWord("USING") {
				act.Using = p.expr()
			}
		case p.acceptWords("SET", "DEFAULT"):
			act.Kind = "SET DEFAULT"
			act.Using = p.expr()
		case p.acceptWords("DROP", "DEFAULT"):
			act.Kind = "DROP DEFAULT"
		case p.acceptWords("SET", "NOT", "NULL"):
			act.Kind = "SET NOT NULL"
		case p.acceptWords("DROP", "NOT", "NULL"):
			act.Kind = "DROP NOT NULL"
		default:
			p.fail("expected TYPE, SET or DROP")
		}
	default:
		p.fail("expected ADD, DROP, RENAME or ALTER")
	}
	act.Span = p.span(as)
	a.Action = act
	a.Span = p.span(s)
	return a
}
