package sql

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// INSERT, UPDATE and DELETE from the syntax tree. The rows they write or
// address come from queries made of the statement's own nodes (UPDATE's
// values and condition become a select list over the table, DELETE's
// condition a one-column one), so binding, typing and every error are
// those of SELECT, positioned in the statement as written.

// tokens returns the tokens of b's statement: the parser's, or lexed
// once for a statement built without them.
func (b *stmtBuilder) tokens() ([]token, error) {
	if b.toks == nil {
		toks, err := lex(b.src)
		if err != nil {
			return nil, err
		}
		b.toks = withoutSemicolon(toks)
	}
	return b.toks, nil
}

// withoutSemicolon drops a statement's final ';'.
func withoutSemicolon(toks []token) []token {
	if n := len(toks); n > 0 && toks[n-1].isOp(";") {
		return toks[:n-1]
	}
	return toks
}

// query returns the Query of tree, a query inside b's statement: the
// statement's text with the tokens of tree's span, whose ? markers are
// numbered from the query's first.
func (b *stmtBuilder) query(tree *ast.Query) (*Query, error) {
	toks, err := b.tokens()
	if err != nil {
		return nil, err
	}
	q := &Query{src: b.src, toks: toks, tree: tree}
	lo, hi := q.tokSpan(tree)
	q.toks = toks[lo:hi]
	return q, nil
}

// selectQuery is SELECT items FROM from (nil: no FROM) [WHERE where] made
// of nodes of b's statement; the query spans sp (the statement, so that
// its ? markers are numbered in the statement's order).
func (b *stmtBuilder) selectQuery(sp ast.Span, items []ast.Expr, from ast.TableRef, where ast.Expr) (*Query, error) {
	var froms []ast.TableRef
	if from != nil {
		froms = []ast.TableRef{from}
	}
	return b.selectFrom(sp, items, froms, where)
}

// selectFrom is selectQuery over a FROM list.
func (b *stmtBuilder) selectFrom(sp ast.Span, items []ast.Expr, from []ast.TableRef, where ast.Expr) (*Query, error) {
	sel := &ast.Select{Span: sp, Where: where, From: from}
	for _, x := range items {
		sel.Items = append(sel.Items, &ast.SelectItem{Span: x.Extent(), X: x})
	}
	return b.query(b.withCTEs(&ast.Query{Span: sp, Body: sel}))
}

// withCTEs gives q, a query made for b's statement, the statement's WITH
// (WITH c AS (…) INSERT/UPDATE/DELETE …): q's span grows to hold it, so
// its CTEs bind over their own tokens. A WITH of q itself (INSERT INTO t
// WITH …) follows the statement's, so its names shadow the statement's.
func (b *stmtBuilder) withCTEs(q *ast.Query) *ast.Query {
	if b.with == nil {
		return q
	}
	c := *q
	w := *b.with
	if q.With != nil {
		w.CTEs = append(slices.Clone(w.CTEs), q.With.CTEs...)
		w.Recursive = w.Recursive || q.With.Recursive
	}
	c.With = &w
	c.Span.Start = min(c.Span.Start, w.Start)
	return &c
}

// target is the table a statement writes, as a FROM element (with its
// alias) for the queries made of the statement.
func (b *stmtBuilder) target(n ast.Name, alias *ast.Ident) (string, Pos, ast.TableRef, error) {
	name, pos, err := b.tableName(n)
	if err != nil {
		return "", Pos{}, nil, err
	}
	t := &ast.Table{Span: n.Span(), Name: n} // named after its last part (bindTableAST)
	if alias != nil {
		t.Alias = &ast.Alias{Span: alias.Span, Name: alias}
		t.Span.End = alias.End
	}
	return name, pos, t, nil
}

// baseTarget refuses UPDATE or DELETE (what) of a name the statement's
// WITH defines, as DuckDB 1.5.6 does: the WITH entry, not the table, is
// what the name means, and it has no rows to change. (INSERT INTO such a
// name writes the table: DuckDB's INSERT looks its target up among the
// tables only.)
func (b *stmtBuilder) baseTarget(n ast.Name, what string) error {
	if b.with == nil || len(n) != 1 {
		return nil
	}
	for _, c := range b.with.CTEs {
		if strings.EqualFold(c.Name.Name, n[0].Name) {
			return b.errAt(n[0], ErrUnsupported, "Can only "+what+" base table (WITH names "+strconv.Quote(c.Name.Name)+")")
		}
	}
	return nil
}

// condition is a WHERE made a select item (UPDATE's, DELETE's, DO
// UPDATE's): cast to BOOLEAN as the binder casts a WHERE clause
// (binder.boolean), so that WHERE i keeps the rows where i <> 0.
func condition(e ast.Expr) ast.Expr {
	sp := e.Extent()
	return &ast.Cast{Span: sp, X: e, Type: &ast.TypeName{Span: ast.Span{Start: sp.End, End: sp.End}, Name: "BOOLEAN"}}
}

// unsupportedClause refuses a clause b2sql does not run, at its node.
func (b *stmtBuilder) unsupportedClause(n ast.Node, what string) error {
	return b.errAt(n, ErrUnsupported, what+" is not supported")
}

func (b *stmtBuilder) insert(s *ast.Insert) (Statement, error) {
	b.with = s.With
	switch {
	case s.OnConflict != nil && s.OnConflict.TargetWhere != nil:
		return nil, b.errAt(s.OnConflict.TargetWhere, ErrUnsupported, "ON CONFLICT (…) WHERE is not supported (it names a partial index; b2sql has none)")
	case s.OnConflict != nil && s.Or != "":
		return nil, b.errAt(s.OnConflict, ErrSyntax, "ON CONFLICT cannot be combined with INSERT OR "+s.Or)
	case s.ByName && len(s.Columns) > 0:
		return nil, b.errAt(s.Columns[0], ErrSyntax, "INSERT BY NAME cannot be combined with a column list")
	}
	ins := &Insert{Replace: s.Or == "REPLACE", Ignore: s.Or == "IGNORE" || s.OnConflict != nil, ByName: s.ByName}
	var err error
	if s.OnConflict != nil && !s.OnConflict.DoNothing {
		ins.Ignore = false
		if ins.Update, err = b.conflictUpdate(s); err != nil {
			return nil, err
		}
	}
	if s.OnConflict != nil {
		for _, c := range s.OnConflict.Columns {
			ins.Conflict = append(ins.Conflict, c.Name)
		}
		ins.ConflictPos = b.pos(s.OnConflict.Start)
		if len(s.OnConflict.Columns) > 0 {
			ins.ConflictPos = b.pos(s.OnConflict.Columns[0].Start)
		}
	}
	if ins.Table, ins.Catalog, ins.TablePos, err = b.qualifiedName(s.Table); err != nil {
		return nil, err
	}
	for _, c := range s.Columns {
		ins.Cols = append(ins.Cols, c.Name)
		ins.ColsPos = append(ins.ColsPos, b.pos(c.Start))
	}
	if ins.Options, err = b.withOptions(s.Options); err != nil {
		return nil, err
	}
	if ins.Returning, err = b.returning(s.Span, s.Table, s.Alias, s.Returning); err != nil {
		return nil, err
	}
	if s.DefaultValues {
		ins.DefaultValues = true
		return ins, nil
	}
	if ins.Query, err = b.query(b.withCTEs(s.Query)); err != nil {
		return nil, err
	}
	var upd *Query
	if ins.Update != nil {
		upd = ins.Update.Query
	}
	shareParams(ins.Query, upd, ins.Returning)
	return ins, nil
}

// withOptions reads a WITH (name [=] value, …) list: names lower case,
// values lower case unless they were string literals.
func (b *stmtBuilder) withOptions(opts []*ast.Option) ([]Option, error) {
	var out []Option
	for _, o := range opts {
		if o.Value == nil {
			return nil, b.syntax(o.Name)
		}
		var val string
		switch v := o.Value.(type) {
		case *ast.Literal:
			val = v.Val
			if v.Kind != ast.LitString {
				val = strings.ToLower(val)
			}
		case *ast.ColumnRef:
			if len(v.Name) != 1 {
				return nil, b.syntax(v)
			}
			val = strings.ToLower(v.Name[0].Name)
		default:
			return nil, b.syntax(o.Value)
		}
		out = append(out, Option{Name: strings.ToLower(o.Name.Name), Value: val, Pos: b.pos(o.Value.Extent().Start)})
	}
	return out, nil
}

// update builds UPDATE t [AS x] SET col = expr, … [WHERE cond]: its Query
// is SELECT expr, … [, cond] FROM t [AS x]. With FROM others, it is
// SELECT expr, … FROM t [AS x], others [WHERE cond]: every row it yields
// is a change (Joined: a row of t matched more than once changes once).
func (b *stmtBuilder) update(s *ast.Update) (Statement, error) {
	b.with = s.With
	if err := b.baseTarget(s.Table, "update"); err != nil {
		return nil, err
	}
	name, pos, from, err := b.target(s.Table, s.Alias)
	if err != nil {
		return nil, err
	}
	u := &Update{Table: name, TablePos: pos, Catalog: nameCatalog(s.Table)}
	if u.Returning, err = b.returning(s.Span, s.Table, s.Alias, s.Returning); err != nil {
		return nil, err
	}
	items := make([]ast.Expr, 0, len(s.Set)+1)
	for _, a := range s.Set {
		col := a.Column.Last()
		if len(a.Column) > 1 {
			return nil, b.errAt(a.Column[0], ErrUnsupported, fmt.Sprintf("SET names a column of %q: write %q alone", name, col.Name))
		}
		value := a.Value
		_, def := value.(*ast.Default)
		if def {
			// The row's value is the column's DEFAULT, which the table
			// holds: the query yields a NULL in its place.
			value = &ast.Literal{Span: value.Extent(), Kind: ast.LitNull, Val: "NULL"}
		}
		u.Sets = append(u.Sets, col.Name)
		u.SetsPos = append(u.SetsPos, b.pos(col.Start))
		u.SetDefault = append(u.SetDefault, def)
		items = append(items, value)
	}
	if len(s.From) > 0 {
		u.Joined = true
		u.Query, err = b.selectFrom(s.Span, items, append([]ast.TableRef{from}, s.From...), s.Where)
		shareParams(u.Query, u.Returning)
		return u, err
	}
	if s.Where != nil {
		u.HasWhere = true
		items = append(items, condition(s.Where))
	}
	u.Query, err = b.selectQuery(s.Span, items, from, nil)
	shareParams(u.Query, u.Returning)
	return u, err
}

// deleteFrom builds DELETE FROM t [AS x] [WHERE cond]: Where is SELECT
// (cond) FROM t [AS x]. With USING others, Where is SELECT true FROM t
// [AS x], others [WHERE cond]: a row of t goes when it matches.
func (b *stmtBuilder) deleteFrom(s *ast.Delete) (Statement, error) {
	b.with = s.With
	if err := b.baseTarget(s.Table, "delete from"); err != nil {
		return nil, err
	}
	name, pos, from, err := b.target(s.Table, s.Alias)
	if err != nil {
		return nil, err
	}
	d := &Delete{Table: name, TablePos: pos, Catalog: nameCatalog(s.Table)}
	if d.Returning, err = b.returning(s.Span, s.Table, s.Alias, s.Returning); err != nil {
		return nil, err
	}
	if len(s.Using) > 0 {
		yes := &ast.Literal{Span: s.Using[0].Extent(), Kind: ast.LitBool, Val: "true"}
		d.Where, err = b.selectFrom(s.Span, []ast.Expr{yes}, append([]ast.TableRef{from}, s.Using...), s.Where)
		shareParams(d.Where, d.Returning)
		return d, err
	}
	switch {
	case s.Where != nil:
		d.Where, err = b.selectQuery(s.Span, []ast.Expr{condition(s.Where)}, from, nil)
	case d.Returning != nil:
		// Every row goes, and RETURNING needs them read.
		yes := &ast.Literal{Span: s.Table.Last().Span, Kind: ast.LitBool, Val: "true"}
		d.Where, err = b.selectQuery(s.Span, []ast.Expr{yes}, from, nil)
	}
	shareParams(d.Where, d.Returning)
	return d, err
}

// returning builds RETURNING items (nil: none) as SELECT items FROM t
// [AS x] over the target table: internal/dml binds it against the rows the
// statement wrote (new versions; DELETE: the rows removed) standing in for
// t, so that names, *, expressions and errors are those of SELECT.
func (b *stmtBuilder) returning(sp ast.Span, table ast.Name, alias *ast.Ident, items []*ast.SelectItem) (*Query, error) {
	if len(items) == 0 {
		return nil, nil
	}
	for _, it := range items {
		// DuckDB's RETURNING is per row: no aggregates, windows or
		// subqueries.
		var bad ast.Node
		what := ""
		ast.Inspect(it.X, func(x ast.Expr) bool {
			switch x := x.(type) {
			case *ast.Subquery, *ast.InQuery, *ast.Quantified:
				if bad == nil {
					bad, what = x, "subqueries are"
				}
			case *ast.Func:
				if bad == nil && x.Over != nil {
					bad, what = x, "window functions are"
				} else if bad == nil && len(x.Name) == 1 && isAggName(strings.ToLower(x.Name[0].Name)) {
					bad, what = x, "aggregate functions are"
				}
			}
			return bad == nil
		})
		if bad != nil {
			return nil, b.errAt(bad, ErrUnsupported, what+" not supported in RETURNING")
		}
	}
	_, _, from, err := b.target(table, alias)
	if err != nil {
		return nil, err
	}
	sel := &ast.Select{Span: sp, Items: items, From: []ast.TableRef{from}}
	return b.query(&ast.Query{Span: sp, Body: sel})
}
