package parser

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// startsQueryAt reports whether the token at k starts a query; through
// also looks through opening parentheses ((SELECT …) UNION …).
func (p *parser) startsQueryAt(k int, through bool) bool {
	for {
		t := p.peek(k)
		if t.kind == tOp && t.val == "(" && through {
			k++
			continue
		}
		if t.kind != tIdent {
			return false
		}
		for _, w := range []string{"SELECT", "WITH", "VALUES", "FROM", "PIVOT", "UNPIVOT", "PIVOT_WIDER", "PIVOT_LONGER", "TABLE"} {
			if isKeyword(t.val, w) {
				return w != "TABLE" || isColID(p.peek(k+1))
			}
		}
		return false
	}
}

// query parses [WITH …] body [ORDER BY …] [LIMIT …] [OFFSET …].
func (p *parser) query() *ast.Query {
	p.enter()
	defer p.leave()
	s := p.start()
	var with *ast.With
	if p.isWord("WITH") {
		with = p.with()
	}
	q := &ast.Query{With: with, Body: p.setOps(0)}
	p.queryTail(q)
	q.Span = p.span(s)
	return q
}

// queryTail parses ORDER BY, LIMIT and OFFSET (in either order).
func (p *parser) queryTail(q *ast.Query) {
	if p.acceptWords("ORDER", "BY") {
		q.OrderBy = p.orderItems()
	}
	for {
		switch {
		case q.Limit == nil && p.isWord("LIMIT"):
			s := p.start()
			p.advance()
			l := &ast.Limit{}
			if !p.acceptWord("ALL") {
				p.inLimit = true
				l.Count = p.expr()
				p.inLimit = false
				if p.acceptOp("%") || p.acceptWord("PERCENT") {
					l.Percent = true
				}
			}
			l.Span = p.span(s)
			q.Limit = l
		case q.Offset == nil && p.acceptWord("OFFSET"):
			q.Offset = p.expr()
			if !p.acceptWord("ROWS") {
				p.acceptWord("ROW")
			}
		default:
			return
		}
	}
}

// with parses WITH [RECURSIVE] cte, ….
func (p *parser) with() *ast.With {
	s := p.start()
	p.expectWord("WITH")
	w := &ast.With{Recursive: p.acceptWord("RECURSIVE")}
	for {
		cs := p.start()
		c := &ast.CTE{}
		if t := p.tok(); t.kind == tString {
			p.advance()
			c.Name = identOf(t)
			c.Name.Quoted = true
		} else {
			c.Name = p.colID("a name for the WITH query")
		}
		if p.isOp("(") {
			c.Columns = p.parenIdents("a column name")
		}
		if p.acceptWords("USING", "KEY") {
			c.UsingKey = p.parenIdents("a column name")
		}
		p.expectWord("AS")
		switch {
		case p.acceptWord("MATERIALIZED"):
			c.Materialized = "MATERIALIZED"
		case p.acceptWords("NOT", "MATERIALIZED"):
			c.Materialized = "NOT MATERIALIZED"
		}
		p.expectOp("(")
		switch {
		case p.isWord("INSERT"):
			c.DML = p.insert(p.start())
		case p.isWord("UPDATE"):
			c.DML = p.update(p.start())
		case p.isWord("DELETE"):
			c.DML = p.deleteStmt(p.start())
		default:
			c.Query = p.query()
		}
		p.expectOp(")")
		c.Span = p.span(cs)
		for _, o := range w.CTEs {
			if strings.EqualFold(o.Name.Name, c.Name.Name) {
				p.failMsg(c.Name.Start, "duplicate CTE name "+quote(c.Name.Name))
			}
		}
		if q := c.Query; w.Recursive && q != nil {
			if _, ok := q.Body.(*ast.SetOp); ok {
				switch {
				case q.Limit != nil || q.Offset != nil:
					p.failMsg(c.Name.Start, "LIMIT or OFFSET in a recursive query is not allowed")
				case q.OrderBy != nil:
					p.failMsg(c.Name.Start, "ORDER BY in a recursive query is not allowed")
				}
			}
		}
		w.CTEs = append(w.CTEs, c)
		if !p.acceptOp(",") {
			break
		}
	}
	w.Span = p.span(s)
	return w
}

// setOpPrec is the binding power of UNION/EXCEPT (1) and INTERSECT (2).
func (p *parser) setOpPrec() int {
	switch {
	case p.isWord("UNION"), p.isWord("EXCEPT"):
		return 1
	case p.isWord("INTERSECT"):
		return 2
	}
	return 0
}

// setOps parses query terms joined by set operations binding at least min.
func (p *parser) setOps(min int) ast.QueryBody {
	s := p.start()
	left := p.queryTerm()
	for {
		prec := p.setOpPrec()
		if prec == 0 || prec < min {
			return left
		}
		t := p.advance()
		op := &ast.SetOp{Op: strings.ToUpper(t.val), OpAt: ast.Span{Start: t.start, End: t.end}, L: left}
		if p.acceptWord("ALL") {
			op.All = true
		} else {
			p.acceptWord("DISTINCT")
		}
		op.ByName = p.acceptWords("BY", "NAME")
		op.R = p.setOps(prec + 1)
		op.Span = p.span(s)
		left = op
	}
}

// queryTerm parses one SELECT, FROM-first query, VALUES, TABLE t, PIVOT
// statement or parenthesized query.
func (p *parser) queryTerm() ast.QueryBody {
	s := p.start()
	switch {
	case p.isWord("SELECT"):
		return p.selectBody()
	case p.isWord("FROM"):
		return p.fromFirst()
	case p.isWord("VALUES"):
		return p.values()
	case p.isOp("("):
		p.advance()
		q := p.query()
		p.expectOp(")")
		return q
	case p.isWord("TABLE"):
		p.advance()
		ts := p.start()
		name := p.qualifiedName("a table name")
		t := &ast.Table{Span: p.span(ts), Name: name}
		return &ast.Select{Span: p.span(s), Items: []*ast.SelectItem{starItem(s)}, From: []ast.TableRef{t}}
	case p.isWord("PIVOT"), p.isWord("UNPIVOT"), p.isWord("PIVOT_WIDER"), p.isWord("PIVOT_LONGER"):
		pv := p.pivotStatement()
		return &ast.Select{Span: p.span(s), Items: []*ast.SelectItem{starItem(s)}, From: []ast.TableRef{pv}}
	}
	p.fail("expected SELECT, FROM, VALUES or \"(\"")
	return nil
}

// starItem is the implied * of a bare FROM t, at offset s.
func starItem(s int) *ast.SelectItem {
	sp := ast.Span{Start: s, End: s}
	return &ast.SelectItem{Span: sp, X: &ast.Star{Span: sp}}
}

// values parses VALUES (…), (…).
func (p *parser) values() *ast.Values {
	s := p.start()
	p.expectWord("VALUES")
	v := &ast.Values{}
	for {
		rs := p.start()
		p.expectOp("(")
		var row []ast.Expr
		for !p.isOp(")") {
			row = append(row, p.expr())
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
		if len(v.Rows) > 0 && len(row) != len(v.Rows[0]) {
			p.failMsg(rs, fmt.Sprintf("VALUES rows have %d and %d columns", len(v.Rows[0]), len(row)))
		}
		v.Rows = append(v.Rows, row)
		if !p.acceptOp(",") || p.listEnds() {
			break
		}
	}
	v.Span = p.span(s)
	return v
}

// selectBody parses SELECT … [FROM …] and the clauses after it.
func (p *parser) selectBody() *ast.Select {
	s := p.start()
	p.expectWord("SELECT")
	sel := &ast.Select{}
	p.distinct(sel)
	sel.Items = p.selectItems()
	if p.acceptWord("FROM") {
		sel.From = p.fromList()
	}
	p.selectClauses(sel)
	sel.Span = p.span(s)
	return sel
}

// fromFirst parses FROM … [SELECT …] and the clauses after it.
func (p *parser) fromFirst() *ast.Select {
	s := p.start()
	p.expectWord("FROM")
	sel := &ast.Select{From: p.fromList()}
	if p.acceptWord("SELECT") {
		p.distinct(sel)
		sel.Items = p.selectItems()
	} else {
		sel.Items = []*ast.SelectItem{starItem(s)}
	}
	p.selectClauses(sel)
	sel.Span = p.span(s)
	return sel
}

// distinct parses [ALL | DISTINCT [ON (…)]].
func (p *parser) distinct(sel *ast.Select) {
	if p.acceptWord("ALL") {
		return
	}
	if !p.acceptWord("DISTINCT") {
		return
	}
	sel.Distinct = true
	if p.acceptWord("ON") {
		p.expectOp("(")
		for {
			sel.DistinctOn = append(sel.DistinctOn, p.expr())
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	}
}

// selectClauses parses WHERE, GROUP BY, HAVING, WINDOW, QUALIFY and
// USING SAMPLE.
func (p *parser) selectClauses(sel *ast.Select) {
	if p.acceptWord("WHERE") {
		sel.Where = p.expr()
	}
	if p.isWord("GROUP") && p.isWordAt(1, "BY") {
		sel.GroupBy = p.groupBy()
	}
	if p.acceptWord("HAVING") {
		sel.Having = p.expr()
	}
	if p.acceptWord("WINDOW") {
		for {
			s := p.start()
			name := p.colID("a window name")
			p.expectWord("AS")
			w := p.windowSpec()
			sel.Windows = append(sel.Windows, &ast.NamedWindow{Span: p.span(s), Name: name, Window: w})
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if p.acceptWord("QUALIFY") {
		sel.Qualify = p.expr()
	}
	if p.isWord("USING") && p.isWordAt(1, "SAMPLE") {
		s := p.start()
		p.i += 2
		sel.Sample = p.sample(s)
	}
}

// selectItems parses the select list (a trailing comma is allowed).
func (p *parser) selectItems() []*ast.SelectItem {
	var items []*ast.SelectItem
	for {
		items = append(items, p.selectItem())
		if !p.acceptOp(",") || p.listEnds() {
			return items
		}
	}
}

// selectItem parses expr [[AS] alias] or alias: expr.
func (p *parser) selectItem() *ast.SelectItem {
	s := p.start()
	if t := p.tok(); (t.kind == tQIdent || (t.kind == tIdent && t.cat != catReserved)) && p.isOpAt(1, ":") {
		alias := identOf(p.advance())
		p.advance()
		x := p.expr()
		return &ast.SelectItem{Span: p.span(s), X: x, Alias: alias}
	}
	it := &ast.SelectItem{X: p.expr()}
	it.Alias = p.alias(false)
	it.Span = p.span(s)
	return it
}

// alias parses [AS] name; without AS, only a name that is no keyword
// (or a ColId for tables, table true).
func (p *parser) alias(table bool) *ast.Ident {
	if p.acceptWord("AS") {
		if t := p.tok(); t.kind == tString {
			p.advance()
			id := identOf(t)
			id.Quoted = true
			return id
		}
		return p.label("an alias")
	}
	t := p.tok()
	if t.kind == tQIdent || (t.kind == tIdent && t.cat == catNone) ||
		(table && t.kind == tIdent && (t.cat == catUnreserved && !isKeyword(t.val, "SET") || t.cat == catColName || t.cat == catTypeFunc && tableAliasKeywords[strings.ToUpper(t.val)])) {
		p.advance()
		return identOf(t)
	}
	return nil
}

// tableAliasKeywords are the type/function keywords DuckDB takes as a
// table alias without AS (FROM (SHOW t) columns).
var tableAliasKeywords = map[string]bool{"COLUMNS": true, "MAP": true, "STRUCT": true, "BINARY": true,
	"COLLATION": true, "FREEZE": true, "GENERATED": true, "VERBOSE": true, "UNPACK": true,
	"AUTHORIZATION": true, "CONCURRENTLY": true, "TRY_CAST": true}

// groupBy parses GROUP BY ALL (or *) or GROUP BY items.
func (p *parser) groupBy() *ast.GroupBy {
	s := p.start()
	p.i += 2
	g := &ast.GroupBy{}
	if p.acceptWord("ALL") || p.acceptBareStar() {
		g.All = true
	} else {
		for {
			g.Items = append(g.Items, p.groupingItem())
			if !p.acceptOp(",") || p.listEnds() {
				break
			}
		}
		if p.isWord("WITH") && p.isWordAt(1, "ROLLUP") {
			// MySQL's GROUP BY a, b WITH ROLLUP is ROLLUP (a, b).
			p.i += 2
			g.Items = []ast.Expr{&ast.GroupingSet{Span: p.span(s), Kind: "ROLLUP", Items: g.Items}}
		}
	}
	g.Span = p.span(s)
	return g
}

// groupingItem parses an expression, (), ROLLUP/CUBE (…) or GROUPING SETS (…).
func (p *parser) groupingItem() ast.Expr {
	s := p.start()
	kind := ""
	switch {
	case p.isWord("ROLLUP") && p.isOpAt(1, "("):
		kind = "ROLLUP"
		p.advance()
	case p.isWord("CUBE") && p.isOpAt(1, "("):
		kind = "CUBE"
		p.advance()
	case p.isWord("GROUPING") && p.isWordAt(1, "SETS"):
		kind = "GROUPING SETS"
		p.i += 2
	default:
		if p.isOp("(") && p.isOpAt(1, ")") {
			p.i += 2
			return &ast.Row{Span: p.span(s)}
		}
		return p.expr()
	}
	p.expectOp("(")
	gs := &ast.GroupingSet{Kind: kind}
	for !p.isOp(")") {
		gs.Items = append(gs.Items, p.groupingItem())
		if !p.acceptOp(",") {
			break
		}
	}
	if len(gs.Items) == 0 {
		if kind == "GROUPING SETS" {
			p.failMsg(p.toks[p.i-1].start, "GROUPING SETS needs at least one set")
		}
		p.failMsg(p.toks[p.i-1].start, kind+" needs at least one expression")
	}
	p.expectOp(")")
	gs.Span = p.span(s)
	return gs
}

// sample parses a sample size and method after USING SAMPLE or
// TABLESAMPLE (s is where the clause started).
func (p *parser) sample(s int) *ast.Sample {
	sm := &ast.Sample{}
	if t := p.tok(); t.kind == tIdent && p.isOpAt(1, "(") {
		sm.Method = strings.ToLower(p.advance().val)
		p.advance()
		p.sampleSize(sm)
		p.expectOp(")")
	} else {
		p.sampleSize(sm)
		if p.acceptOp("(") {
			sm.Method = strings.ToLower(p.label("a sample method").Name)
			if p.acceptOp(",") {
				sm.Seed = p.primary()
			}
			p.expectOp(")")
		}
	}
	if p.acceptWord("REPEATABLE") {
		p.expectOp("(")
		sm.Seed = p.primary()
		p.expectOp(")")
	}
	sm.Span = p.span(s)
	return sm
}

func (p *parser) sampleSize(sm *ast.Sample) {
	if t := p.tok(); t.kind != tNumber && t.kind != tParam {
		p.fail("expected a sample size")
	}
	sm.Size = p.primary()
	switch {
	case p.acceptOp("%"), p.acceptWord("PERCENT"):
		sm.Percent = true
	case p.acceptWord("ROWS"):
		sm.Rows = true
	}
}

// fromList parses table references separated by commas.
func (p *parser) fromList() []ast.TableRef {
	var refs []ast.TableRef
	for {
		refs = append(refs, p.tableRef())
		if !p.acceptOp(",") || p.listEnds() {
			return refs
		}
	}
}

// tableRef parses a table reference and the joins that follow it.
func (p *parser) tableRef() ast.TableRef {
	s := p.start()
	return p.joins(p.tablePrimary(), s)
}

// startsJoin reports whether a join starts at the current token.
func (p *parser) startsJoin() bool {
	for _, w := range []string{"JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "SEMI", "ANTI", "POSITIONAL", "NATURAL", "ASOF"} {
		if p.isWord(w) {
			return true
		}
	}
	return false
}

// joins parses the joins after left (which started at s). A join whose
// right side is followed by another join before its ON takes that join
// as its right side, as in PostgreSQL: a JOIN b JOIN c ON x ON y is
// a JOIN (b JOIN c ON x) ON y.
func (p *parser) joins(left ast.TableRef, s int) ast.TableRef {
	for {
		j := &ast.Join{L: left}
		j.Natural = p.acceptWord("NATURAL")
		j.Asof = p.acceptWord("ASOF")
		switch {
		case p.acceptWord("INNER"):
			j.Kind = "INNER"
		case p.acceptWord("LEFT"):
			j.Kind = "LEFT"
			p.acceptWord("OUTER")
		case p.acceptWord("RIGHT"):
			j.Kind = "RIGHT"
			p.acceptWord("OUTER")
		case p.acceptWord("FULL"):
			j.Kind = "FULL"
			p.acceptWord("OUTER")
		case p.acceptWord("CROSS"):
			j.Kind = "CROSS"
		case p.acceptWord("SEMI"):
			j.Kind = "SEMI"
		case p.acceptWord("ANTI"):
			j.Kind = "ANTI"
		case p.acceptWord("POSITIONAL"):
			j.Kind = "POSITIONAL"
		}
		if !p.isWord("JOIN") {
			if j.Natural || j.Asof || j.Kind != "" {
				p.fail("expected JOIN")
			}
			return left
		}
		p.advance()
		if j.Kind == "" {
			j.Kind = "INNER"
		}
		rs := p.start()
		j.R = p.tablePrimary()
		if !j.Natural && j.Kind != "CROSS" && j.Kind != "POSITIONAL" {
			if p.startsJoin() {
				j.R = p.joins(j.R, rs)
			}
			switch {
			case p.acceptWord("ON"):
				j.On = p.expr()
			case p.acceptWord("USING"):
				j.Using = p.parenIdents("a column name")
			default:
				p.fail("expected ON or USING")
			}
		}
		j.Span = p.span(s)
		left = j
	}
}

// tablePrimary parses one table, path, table function, subquery,
// parenthesized join or PIVOT, with its alias, sample and standard
// PIVOT/UNPIVOT suffixes.
func (p *parser) tablePrimary() ast.TableRef {
	p.enter()
	defer p.leave()
	s := p.start()
	lateral := p.acceptWord("LATERAL")
	var ref ast.TableRef
	switch t := p.tok(); {
	case t.kind == tOp && t.val == "(" && (p.isWordAt(1, "PIVOT") || p.isWordAt(1, "UNPIVOT") ||
		p.isWordAt(1, "PIVOT_WIDER") || p.isWordAt(1, "PIVOT_LONGER")):
		p.advance()
		pv := p.pivotStatement()
		p.expectOp(")")
		pv.Alias = p.tableAlias()
		pv.Span = p.span(s)
		ref = pv
	case t.kind == tOp && t.val == "(" && (p.isWordAt(1, "DESCRIBE") || p.isWordAt(1, "SHOW") || p.isWordAt(1, "SUMMARIZE")):
		p.advance()
		d := &ast.Derived{Stmt: p.statement(), Lateral: lateral}
		p.expectOp(")")
		d.Alias = p.tableAlias()
		d.Sample = p.tableSample()
		d.Span = p.span(s)
		ref = d
	case t.kind == tOp && t.val == "(" && p.startsQueryAt(1, true) &&
		(!p.isOpAt(1, "(") || p.try(func() { ref = p.derived(s, lateral) })):
		if ref == nil {
			ref = p.derived(s, lateral)
		}
	case t.kind == tOp && t.val == "(":
		p.advance()
		ref = p.tableRef()
		p.expectOp(")")
		if a := p.tableAlias(); a != nil {
			j, ok := ref.(*ast.Join)
			if !ok || j.Alias != nil {
				p.failAt(p.toks[p.i-1], "only a parenthesized join takes an alias here")
			}
			j.Alias = a
			j.Span = p.span(s)
		}
	case t.kind == tIdent && isKeyword(t.val, "VALUES"):
		v := p.values()
		d := &ast.Derived{Query: &ast.Query{Span: v.Span, Body: v}, Lateral: lateral}
		d.Alias = p.tableAlias()
		d.Span = p.span(s)
		ref = d
	case t.kind == tString:
		p.advance()
		tb := &ast.Table{Path: t.val}
		tb.Alias = p.tableAlias()
		tb.Sample = p.tableSample()
		tb.Span = p.span(s)
		ref = tb
	default:
		var name ast.Name
		if (p.isWord("SUMMARIZE") || p.isWord("DESCRIBE")) && p.isOpAt(1, "(") {
			name = ast.Name{identOf(p.advance())}
		} else {
			name = p.qualifiedName("a table name")
		}
		if p.isOp("(") {
			f := p.call(name, s)
			namedTableArgs(f)
			tf := &ast.TableFunc{Func: f, Lateral: lateral}
			tf.Alias = p.tableAlias()
			tf.Sample = p.tableSample()
			tf.Span = p.span(s)
			ref = tf
		} else {
			tb := &ast.Table{Name: name}
			if !p.isWord("INDEXED") || !p.isWordAt(1, "BY") {
				tb.Alias = p.tableAlias()
			}
			p.indexHint(tb)
			tb.Sample = p.tableSample()
			tb.Span = p.span(s)
			ref = tb
		}
	}
	for p.isWord("PIVOT") || p.isWord("UNPIVOT") {
		ref = p.standardPivot(ref, s)
	}
	return ref
}

// indexHint parses SQLite's NOT INDEXED or INDEXED BY name after a table.
func (p *parser) indexHint(tb *ast.Table) {
	switch {
	case p.isWord("NOT") && p.isWordAt(1, "INDEXED"):
		p.advance()
		p.advance()
		tb.NotIndexed = true
	case p.isWord("INDEXED") && p.isWordAt(1, "BY"):
		p.advance()
		p.advance()
		tb.IndexedBy = p.label("an index name")
	}
}

// derived parses ( query ) [alias] [sample] in FROM.
func (p *parser) derived(s int, lateral bool) ast.TableRef {
	p.expectOp("(")
	q := p.query()
	p.expectOp(")")
	d := &ast.Derived{Query: q, Lateral: lateral}
	d.Alias = p.tableAlias()
	d.Sample = p.tableSample()
	d.Span = p.span(s)
	return d
}

// namedTableArgs turns name = value arguments of a table function into
// named arguments, as DuckDB does.
func namedTableArgs(f *ast.Func) {
	for i, a := range f.Args {
		b, ok := a.(*ast.Binary)
		if !ok || b.Op != "=" {
			continue
		}
		if c, ok := b.L.(*ast.ColumnRef); ok && len(c.Name) == 1 {
			f.Args[i] = &ast.NamedArg{Span: b.Span, Name: c.Name[0], Value: b.R}
		}
	}
}

// tableAlias parses [AS] name [(cols)] after a table reference.
func (p *parser) tableAlias() *ast.Alias {
	s := p.start()
	name := p.alias(true)
	if name == nil {
		return nil
	}
	a := &ast.Alias{Name: name}
	if p.isOp("(") {
		a.Columns = p.parenIdents("a column name")
	}
	a.Span = p.span(s)
	return a
}

// tableSample parses TABLESAMPLE … or USING SAMPLE … after a table.
func (p *parser) tableSample() *ast.Sample {
	s := p.start()
	if p.acceptWord("TABLESAMPLE") {
		return p.sample(s)
	}
	return nil
}

// pivotStatement parses DuckDB's PIVOT t ON … USING … GROUP BY … and
// UNPIVOT t ON … INTO NAME n VALUE v.
func (p *parser) pivotStatement() *ast.Pivot {
	s := p.start()
	kw := strings.ToUpper(p.advance().val)
	pv := &ast.Pivot{Unpivot: kw == "UNPIVOT" || kw == "PIVOT_LONGER"}
	if pv.Unpivot && p.acceptWords("INCLUDE", "NULLS") {
		pv.IncludeNulls = true
	}
	pv.Source = p.tablePrimary()
	if p.acceptWord("ON") {
		for {
			pv.On = append(pv.On, p.pivotOn(pv.Unpivot))
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if pv.Unpivot {
		p.expectWord("INTO")
		p.expectWord("NAME")
		pv.Name = p.colIDOrLabel("a column name")
		p.expectWord("VALUE")
		for {
			pv.Values = append(pv.Values, p.colIDOrLabel("a column name"))
			if !p.acceptOp(",") {
				break
			}
		}
	} else {
		if p.acceptWord("USING") {
			pv.Using = p.selectItems()
		}
		if p.isWord("GROUP") && p.isWordAt(1, "BY") {
			p.i += 2
			for {
				pv.GroupBy = append(pv.GroupBy, p.expr())
				if !p.acceptOp(",") {
					break
				}
			}
		}
	}
	pv.Span = p.span(s)
	return pv
}

// pivotOn parses one ON item: for PIVOT expr [IN (values) | IN enum],
// for UNPIVOT expr [AS alias].
func (p *parser) pivotOn(unpivot bool) *ast.PivotOn {
	s := p.start()
	on := &ast.PivotOn{X: p.exprPrec(precLike + 1)}
	if unpivot {
		if p.acceptWord("AS") {
			on.Alias = p.label("an alias")
		}
	} else if p.acceptWord("IN") {
		p.pivotIn(on)
	}
	on.Span = p.span(s)
	return on
}

// pivotIn parses the values after IN.
func (p *parser) pivotIn(on *ast.PivotOn) {
	if !p.acceptOp("(") {
		on.InEnum = p.colID("a list of values or an ENUM type")
		return
	}
	for !p.isOp(")") {
		s := p.start()
		it := &ast.SelectItem{X: p.expr()}
		if p.acceptWord("AS") {
			it.Alias = p.label("an alias")
		}
		it.Span = p.span(s)
		on.In = append(on.In, it)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
}

// standardPivot parses src PIVOT (aggs FOR col IN (…) … [GROUP BY …])
// [alias] or src UNPIVOT [INCLUDE NULLS] (value FOR name IN (…)) [alias].
func (p *parser) standardPivot(src ast.TableRef, s int) ast.TableRef {
	pv := &ast.Pivot{Source: src, Unpivot: isKeyword(p.advance().val, "UNPIVOT")}
	if pv.Unpivot && p.acceptWords("INCLUDE", "NULLS") {
		pv.IncludeNulls = true
	} else if pv.Unpivot {
		p.acceptWords("EXCLUDE", "NULLS")
	}
	p.expectOp("(")
	if pv.Unpivot {
		if p.acceptOp("(") {
			for {
				pv.Values = append(pv.Values, p.colIDOrLabel("a column name"))
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(")")
		} else {
			pv.Values = []*ast.Ident{p.colIDOrLabel("a column name")}
		}
		p.expectWord("FOR")
		pv.Name = p.colIDOrLabel("a column name")
		p.expectWord("IN")
		p.expectOp("(")
		for {
			pv.On = append(pv.On, p.pivotOn(true))
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	} else {
		for {
			is := p.start()
			it := &ast.SelectItem{X: p.expr()}
			it.Alias = p.alias(false)
			it.Span = p.span(is)
			pv.Using = append(pv.Using, it)
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectWord("FOR")
		for {
			os := p.start()
			on := &ast.PivotOn{X: p.exprPrec(precLike + 1)}
			p.expectWord("IN")
			p.pivotIn(on)
			on.Span = p.span(os)
			pv.On = append(pv.On, on)
			if p.isOp(")") || p.isWord("GROUP") {
				break
			}
		}
		if p.isWord("GROUP") && p.isWordAt(1, "BY") {
			p.i += 2
			for {
				pv.GroupBy = append(pv.GroupBy, p.expr())
				if !p.acceptOp(",") {
					break
				}
			}
		}
	}
	p.expectOp(")")
	pv.Alias = p.tableAlias()
	pv.Span = p.span(s)
	return pv
}
