package parser

import "github.com/b2sql/b2sql/sql/ast"

// Statements b2sql parses (so that the binder refuses them with a
// positioned reason, sql/stmt.go) but does not run: MERGE, COMMENT ON and
// SQLite's CREATE TRIGGER.

// merge parses MERGE INTO t [[AS] a] USING source ON cond WHEN … [RETURNING …].
func (p *parser) merge(s int) *ast.Merge {
	p.expectWord("MERGE")
	p.expectWord("INTO")
	m := &ast.Merge{Table: p.qualifiedName("a table name")}
	m.Alias = p.alias(true)
	p.expectWord("USING")
	m.Source = p.tableRef()
	p.expectWord("ON")
	m.On = p.expr()
	for p.isWord("WHEN") {
		m.Whens = append(m.Whens, p.mergeWhen())
	}
	if m.Whens == nil {
		p.fail("expected WHEN")
	}
	if p.acceptWord("RETURNING") {
		m.Returning = p.selectItems()
	}
	m.Span = p.span(s)
	return m
}

// mergeWhen parses WHEN [NOT] MATCHED [BY SOURCE | BY TARGET] [AND cond] THEN action.
func (p *parser) mergeWhen() *ast.MergeWhen {
	s := p.start()
	p.expectWord("WHEN")
	wh := &ast.MergeWhen{Matched: !p.acceptWord("NOT")}
	p.expectWord("MATCHED")
	if p.acceptWord("BY") {
		switch {
		case p.acceptWord("SOURCE"):
			wh.By = "SOURCE"
		case p.acceptWord("TARGET"):
			wh.By = "TARGET"
		default:
			p.fail("expected SOURCE or TARGET")
		}
	}
	if p.acceptWord("AND") {
		wh.Cond = p.expr()
	}
	p.expectWord("THEN")
	switch {
	case p.acceptWord("UPDATE"):
		wh.Action = "UPDATE"
		if p.acceptWord("SET") {
			if p.acceptOp("*") {
				wh.Star = true
			} else {
				wh.Set = p.assignments()
			}
		}
	case p.acceptWord("DELETE"):
		wh.Action = "DELETE"
	case p.acceptWord("INSERT"):
		wh.Action = "INSERT"
		switch {
		case p.acceptOp("*"):
			wh.Star = true
		case p.acceptWords("DEFAULT", "VALUES"):
			wh.DefaultValues = true
		default:
			if p.isOp("(") {
				wh.Columns = p.parenIdents("a column name")
			}
			if p.acceptWord("VALUES") {
				p.expectOp("(")
				wh.Values = p.exprList()
				p.expectOp(")")
			}
		}
	case p.acceptWords("DO", "NOTHING"):
		wh.Action = "DO NOTHING"
	case p.acceptWord("ERROR"):
		wh.Action = "ERROR"
		if !p.isWord("WHEN") && !p.isWord("RETURNING") && !p.isOp(";") && p.tok().kind != tEOF {
			wh.Values = []ast.Expr{p.expr()}
		}
	default:
		p.fail("expected UPDATE, DELETE, INSERT, DO NOTHING or ERROR")
	}
	wh.Span = p.span(s)
	return wh
}

// exprList parses e [, e]….
func (p *parser) exprList() []ast.Expr {
	var es []ast.Expr
	for {
		es = append(es, p.expr())
		if !p.acceptOp(",") {
			return es
		}
	}
}

// commentKinds are what COMMENT ON names, in DuckDB's grammar.
var commentKinds = []string{"TABLE", "VIEW", "COLUMN", "INDEX", "SEQUENCE", "SCHEMA", "MACRO", "FUNCTION", "TYPE", "DATABASE"}

// comment parses COMMENT ON kind name IS 'text' | NULL.
func (p *parser) comment(s int) *ast.Comment {
	p.expectWord("COMMENT")
	p.expectWord("ON")
	c := &ast.Comment{}
	for _, k := range commentKinds {
		if p.acceptWord(k) {
			c.Kind = k
			break
		}
	}
	if c.Kind == "" {
		p.fail("expected TABLE, VIEW, COLUMN, INDEX, SEQUENCE, SCHEMA, MACRO, FUNCTION, TYPE or DATABASE")
	}
	if c.Kind == "MACRO" && p.acceptWord("TABLE") {
		c.Kind = "MACRO TABLE"
	}
	c.Name = p.qualifiedName("a name")
	p.expectWord("IS")
	c.Text = p.expr()
	c.Span = p.span(s)
	return c
}

// createTrigger parses the rest of SQLite's CREATE [TEMP] TRIGGER, after
// TRIGGER.
func (p *parser) createTrigger(s int, temp bool) *ast.CreateTrigger {
	tr := &ast.CreateTrigger{Temp: temp}
	tr.IfNotExists = p.acceptWords("IF", "NOT", "EXISTS")
	tr.Name = p.qualifiedName("a trigger name")
	switch {
	case p.acceptWord("BEFORE"):
		tr.Time = "BEFORE"
	case p.acceptWord("AFTER"):
		tr.Time = "AFTER"
	case p.acceptWords("INSTEAD", "OF"):
		tr.Time = "INSTEAD OF"
	}
	switch {
	case p.acceptWord("DELETE"):
		tr.Event = "DELETE"
	case p.acceptWord("INSERT"):
		tr.Event = "INSERT"
	case p.acceptWord("UPDATE"):
		tr.Event = "UPDATE"
		if p.acceptWord("OF") {
			for {
				tr.Columns = append(tr.Columns, p.label("a column name"))
				if !p.acceptOp(",") {
					break
				}
			}
		}
	default:
		p.fail("expected DELETE, INSERT or UPDATE")
	}
	p.expectWord("ON")
	tr.Table = p.qualifiedName("a table name")
	tr.ForEachRow = p.acceptWords("FOR", "EACH", "ROW")
	if p.acceptWord("WHEN") {
		tr.When = p.expr()
	}
	p.expectWord("BEGIN")
	for !p.acceptWord("END") {
		tr.Body = append(tr.Body, p.statement())
		p.expectOp(";")
	}
	if tr.Body == nil {
		p.failAt(p.toks[p.i-1], "expected a statement")
	}
	tr.Span = p.span(s)
	return tr
}
