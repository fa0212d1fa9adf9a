package parser

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// statement parses one statement.
func (p *parser) statement() ast.Stmt {
	p.enter()
	defer p.leave()
	s := p.start()
	t := p.tok()
	if t.kind == tOp && t.val == "(" {
		return p.query()
	}
	if t.kind != tIdent {
		p.fail("expected a statement")
	}
	switch strings.ToUpper(t.val) {
	case "SELECT", "VALUES", "FROM", "TABLE", "PIVOT", "UNPIVOT", "PIVOT_WIDER", "PIVOT_LONGER":
		return p.query()
	case "WITH":
		save := p.i
		w := p.with()
		switch {
		case p.isWord("INSERT"):
			st := p.insert(s)
			st.With = w
			return st
		case p.isWord("UPDATE"):
			st := p.update(s)
			st.With = w
			return st
		case p.isWord("DELETE"):
			st := p.deleteStmt(s)
			st.With = w
			return st
		case p.isWord("MERGE"):
			st := p.merge(s)
			st.With = w
			return st
		}
		p.i = save
		return p.query()
	case "INSERT", "REPLACE":
		return p.insert(s)
	case "UPDATE":
		return p.update(s)
	case "DELETE":
		return p.deleteStmt(s)
	case "MERGE":
		return p.merge(s)
	case "COMMENT":
		return p.comment(s)
	case "TRUNCATE":
		p.advance()
		p.acceptWord("TABLE")
		name := p.qualifiedName("a table name")
		return &ast.Truncate{Span: p.span(s), Table: name}
	case "CREATE":
		return p.create()
	case "DROP":
		return p.drop()
	case "ALTER":
		return p.alter()
	case "COPY":
		return p.copyStmt()
	case "EXPLAIN":
		p.advance()
		e := &ast.Explain{}
		e.Analyze = p.acceptWord("ANALYZE") || p.acceptWord("ANALYSE")
		if p.isOp("(") && !p.startsQueryAt(1, true) {
			e.Options = p.options()
		}
		e.Stmt = p.statement()
		e.Span = p.span(s)
		return e
	case "SET":
		return p.set()
	case "RESET":
		p.advance()
		r := &ast.Reset{Scope: p.scope()}
		if !p.acceptWord("ALL") {
			r.Name = p.settingName()
		}
		r.Span = p.span(s)
		return r
	case "SHOW":
		return p.show()
	case "DESCRIBE", "DESC", "SUMMARIZE":
		p.advance()
		d := p.describeTarget(s)
		d.Summarize = isKeyword(t.val, "SUMMARIZE")
		return d
	case "ATTACH":
		return p.attach()
	case "DETACH":
		p.advance()
		p.acceptWord("DATABASE")
		d := &ast.Detach{IfExists: p.acceptWords("IF", "EXISTS")}
		d.Name = p.colIDOrLabel("a database name")
		d.Span = p.span(s)
		return d
	case "USE":
		p.advance()
		return &ast.Use{Name: p.qualifiedName("a database name"), Span: p.span(s)}
	case "PRAGMA":
		return p.pragma()
	case "REINDEX":
		p.advance()
		r := &ast.Reindex{}
		if isColID(p.tok()) {
			r.Target = p.qualifiedName("a table or index name")
			if p.acceptOp("(") {
				r.Column = p.colIDOrLabel("a column name")
				p.expectOp(")")
			}
		}
		r.Span = p.span(s)
		return r
	case "PREPARE":
		p.advance()
		pr := &ast.Prepare{Name: p.colIDOrLabel("a statement name")}
		p.expectWord("AS")
		pr.Stmt = p.statement()
		pr.Span = p.span(s)
		return pr
	case "EXECUTE":
		p.advance()
		ex := &ast.Execute{Name: p.colIDOrLabel("a statement name")}
		if p.acceptOp("(") {
			for !p.isOp(")") {
				ex.Args = append(ex.Args, p.arg())
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(")")
		}
		ex.Span = p.span(s)
		return ex
	case "DEALLOCATE":
		p.advance()
		p.acceptWord("PREPARE")
		d := &ast.Deallocate{}
		if !p.acceptWord("ALL") {
			d.Name = p.colIDOrLabel("a statement name")
		}
		d.Span = p.span(s)
		return d
	case "BEGIN", "START":
		p.advance()
		if isKeyword(t.val, "START") {
			p.expectWord("TRANSACTION")
		} else if !p.acceptWord("TRANSACTION") {
			p.acceptWord("WORK")
		}
		ro := p.transactionMode()
		return &ast.Transaction{Span: p.span(s), Kind: "BEGIN", ReadOnly: ro}
	case "COMMIT", "END":
		p.advance()
		if !p.acceptWord("TRANSACTION") {
			p.acceptWord("WORK")
		}
		return &ast.Transaction{Span: p.span(s), Kind: "COMMIT"}
	case "ROLLBACK", "ABORT":
		p.advance()
		if !p.acceptWord("TRANSACTION") {
			p.acceptWord("WORK")
		}
		return &ast.Transaction{Span: p.span(s), Kind: "ROLLBACK"}
	case "CHECKPOINT", "VACUUM", "ANALYZE", "ANALYSE", "LOAD", "INSTALL", "FORCE", "CALL", "EXPORT", "IMPORT", "UPDATE_EXTENSIONS":
		return p.simple()
	}
	p.fail("expected a statement")
	return nil
}

// transactionMode reads BEGIN TRANSACTION's READ ONLY / READ WRITE and
// reports READ ONLY.
func (p *parser) transactionMode() bool {
	if p.acceptWord("READ") {
		if p.acceptWord("ONLY") {
			return true
		}
		p.expectWord("WRITE")
	}
	return false
}

// simple parses the statements of ast.Simple.
func (p *parser) simple() ast.Stmt {
	s := p.start()
	kw := strings.ToUpper(p.advance().val)
	st := &ast.Simple{Kind: kw}
	switch kw {
	case "ANALYSE":
		st.Kind = "ANALYZE"
	case "FORCE":
		switch {
		case p.acceptWord("CHECKPOINT"):
			st.Kind = "FORCE CHECKPOINT"
		case p.acceptWord("INSTALL"):
			st.Kind = "FORCE INSTALL"
			st.Name = p.extensionName()
		default:
			p.fail("expected CHECKPOINT or INSTALL")
		}
	case "LOAD", "INSTALL":
		st.Name = p.extensionName()
		if kw == "INSTALL" && p.acceptWord("FROM") {
			st.Arg = p.primary()
		}
	case "CALL":
		fs := p.start()
		name := p.qualifiedName("a function name")
		st.Func = p.call(name, fs)
	case "EXPORT", "IMPORT":
		p.expectWord("DATABASE")
		if kw == "EXPORT" && isColID(p.tok()) && p.peek(1).kind == tIdent && isKeyword(p.peek(1).val, "TO") {
			st.Name = p.qualifiedName("a database name")
			p.advance()
		}
		st.Arg = p.primary()
		if p.isOp("(") {
			st.Options = p.options()
		}
	default:
		if isColID(p.tok()) {
			st.Name = p.qualifiedName("a name")
		}
	}
	st.Span = p.span(s)
	return st
}

// extensionName parses an extension name or path string.
func (p *parser) extensionName() ast.Name {
	if t := p.tok(); t.kind == tString {
		p.advance()
		id := identOf(t)
		id.Quoted = true
		return ast.Name{id}
	}
	return ast.Name{p.colIDOrLabel("an extension name")}
}

// scope parses SESSION, GLOBAL, LOCAL or VARIABLE after SET/RESET.
func (p *parser) scope() string {
	for _, w := range []string{"SESSION", "GLOBAL", "LOCAL", "VARIABLE"} {
		if p.isWord(w) && isLabel(p.peek(1)) && !p.isOpAt(1, "=") {
			p.advance()
			return w
		}
	}
	return ""
}

// settingName parses a setting's name (dotted names allowed).
func (p *parser) settingName() ast.Name {
	n := ast.Name{p.colIDOrLabel("a setting name")}
	for p.isOp(".") && isLabel(p.peek(1)) {
		p.advance()
		n = append(n, identOf(p.advance()))
	}
	return n
}

// set parses SET [scope] name {= | TO} value[, …] | DEFAULT.
func (p *parser) set() ast.Stmt {
	s := p.start()
	p.advance()
	st := &ast.Set{Scope: p.scope()}
	st.Name = p.settingName()
	if !p.acceptOp("=") && !p.acceptWord("TO") {
		p.fail("expected \"=\" or TO")
	}
	if p.isWord("DEFAULT") && (p.peek(1).kind == tEOF || p.isOpAt(1, ";")) {
		p.advance()
		st.Default = true
	} else {
		for {
			if t := p.tok(); t.kind == tIdent && t.cat == catReserved && (p.peek(1).kind == tEOF || p.isOpAt(1, ";")) {
				// SET x = on: a reserved word as a bare value.
				p.advance()
				st.Values = append(st.Values, &ast.ColumnRef{Span: ast.Span{Start: t.start, End: t.end}, Name: ast.Name{identOf(t)}})
				break
			}
			st.Values = append(st.Values, p.expr())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	st.Span = p.span(s)
	return st
}

// show parses SHOW TABLES, SHOW ALL TABLES, SHOW DATABASES, SHOW
// COLUMNS FROM t, SHOW t and SHOW query.
func (p *parser) show() ast.Stmt {
	s := p.start()
	p.advance()
	switch {
	case p.isWord("TABLES") && !p.isOpAt(1, "."):
		p.advance()
		sh := &ast.Show{What: "TABLES"}
		if p.acceptWord("FROM") || p.acceptWord("IN") {
			sh.From = p.qualifiedName("a schema name")
		}
		sh.Span = p.span(s)
		return sh
	case p.acceptWords("ALL", "TABLES"):
		return &ast.Show{Span: p.span(s), What: "ALL TABLES"}
	case p.isWord("DATABASES") && p.peek(1).kind == tEOF || p.isWord("DATABASES") && p.isOpAt(1, ";"):
		p.advance()
		return &ast.Show{Span: p.span(s), What: "DATABASES"}
	case (p.isWord("COLUMNS") || p.isWord("FIELDS")) && (p.isWordAt(1, "FROM") || p.isWordAt(1, "IN")):
		p.i += 2
	}
	return p.describeTarget(s)
}

// describeTarget parses DESCRIBE's operand: a query, a path, a table
// function or a (dotted) table name.
func (p *parser) describeTarget(s int) *ast.Describe {
	d := &ast.Describe{}
	switch t := p.tok(); {
	case !p.isWord("TABLE") && p.startsQueryAt(0, true):
		d.Query = p.query()
	case t.kind == tString:
		p.advance()
		d.Path, d.PathAt = t.val, ast.Span{Start: t.start, End: t.end}
	default:
		p.acceptWord("TABLE")
		name := p.qualifiedName("a table name")
		if p.isOp("(") {
			d.Func = p.call(name, name[0].Start)
		} else {
			d.Table = name
		}
	}
	d.Span = p.span(s)
	return d
}

// attach parses ATTACH [OR REPLACE] [DATABASE] [IF NOT EXISTS] path [AS name] [(options)].
func (p *parser) attach() ast.Stmt {
	s := p.start()
	p.advance()
	a := &ast.Attach{OrReplace: p.acceptWords("OR", "REPLACE")}
	p.acceptWord("DATABASE")
	a.IfNotExists = p.acceptWords("IF", "NOT", "EXISTS")
	a.Path = p.exprPrec(precOp)
	if p.acceptWord("AS") {
		a.Alias = p.label("a database name")
	}
	if p.isOp("(") {
		a.Options = p.options()
	}
	a.Span = p.span(s)
	return a
}

// pragma parses PRAGMA name [(args) | = value].
func (p *parser) pragma() ast.Stmt {
	s := p.start()
	p.advance()
	pr := &ast.Pragma{Name: p.settingName()}
	switch {
	case p.acceptOp("("):
		pr.Call = true
		for !p.isOp(")") {
			pr.Args = append(pr.Args, p.arg())
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	case p.acceptOp("="):
		pr.Value = p.expr()
	}
	pr.Span = p.span(s)
	return pr
}

// options parses ( name [value], … ), the option list of COPY, ATTACH,
// WITH (…) and EXPORT: a value is an expression, a parenthesized list or
// missing (HEADER alone means true).
func (p *parser) options() []*ast.Option {
	p.expectOp("(")
	var opts []*ast.Option
	for !p.isOp(")") {
		opts = append(opts, p.option(true))
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return opts
}

// option parses one name [=] [value].
func (p *parser) option(inParens bool) *ast.Option {
	s := p.start()
	o := &ast.Option{Name: p.label("an option name")}
	p.acceptOp("=")
	switch t := p.tok(); {
	case t.kind == tOp && (t.val == "," || t.val == ")" || t.val == ";"), t.kind == tEOF:
	case !inParens && t.kind == tIdent && p.peek(1).kind == tIdent && t.cat == catNone && isOptionWord(t.val):
		// bare COPY options: FORMAT csv HEADER …
	default:
		o.Value = p.expr()
	}
	o.Span = p.span(s)
	return o
}

// isOptionWord reports whether w names a COPY option without a value in
// the bare (unparenthesized) option syntax.
func isOptionWord(w string) bool {
	return isKeyword(w, "HEADER") || isKeyword(w, "CSV") || isKeyword(w, "BINARY")
}
