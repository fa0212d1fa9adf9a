package sql

import (
	"errors"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindRecursive binds a WITH RECURSIVE entry that refers to itself:
// base UNION [ALL] step, where only step names the entry. The step is
// bound with the name standing for the previous iteration's rows (a
// WorkScan); its columns are cast to the base's types. at is the token of
// the reference; errors about the entry's shape point at its name.
func (b *binder) bindRecursive(def *cteDef, alias string, at int) (*fromItem, error) {
	bad := b.errSpan(def.at, ErrUnsupported, "WITH RECURSIVE needs the form base UNION [ALL] step, with only step referring to "+def.name)
	cb := b.child(def.nq.q, def.nq.params)
	cb.ctes = def.ctes
	cb.enclosing = def.owner
	t := def.nq.q.tree
	so, ok := t.Body.(*ast.SetOp)
	if !ok || so.Op != "UNION" || so.ByName || len(t.OrderBy) > 0 || t.Limit != nil || t.Offset != nil || astRefersTo(so.L, def.name) {
		return nil, bad
	}
	baseQ := func() nestedQuery { return cb.subQuery(leafQuery(so.L)) }
	stepQ := func() nestedQuery { return cb.subQuery(leafQuery(so.R)) }
	distinct := !so.All
	base, _, err := cb.bindNested(baseQ(), false)
	if err != nil {
		b.nextID = cb.nextID
		return nil, err
	}
	names := base.Names
	for i, c := range def.cols {
		if i < len(names) {
			names[i] = c
		}
	}
	work := &planner.WorkTable{}
	for i, c := range base.Root.Schema() {
		work.Cols = append(work.Cols, planner.Column{ID: c.ID, Name: names[i], Type: c.Type})
	}
	// The step sees the name as the work table.
	stepCTEs := map[string]*cteDef{}
	for k, v := range def.ctes {
		stepCTEs[k] = v
	}
	stepCTEs[strings.ToLower(def.name)] = &cteDef{name: def.name, work: work}
	cb.ctes = stepCTEs
	step, _, err := cb.bindNested(stepQ(), false)
	b.nextID = cb.nextID
	if err != nil {
		return nil, err
	}
	ss := step.Root.Schema()
	if len(ss) != len(work.Cols) {
		return nil, b.errSpan(def.at, ErrType, "the recursive step of "+def.name+" has a different number of columns than its base")
	}
	proj := &planner.Project{Input: step.Root}
	for i, c := range ss {
		var x planner.Expr = &planner.ColRef{Col: c}
		if c.Type != work.Cols[i].Type {
			y, err := b.coerce(x, work.Cols[i].Type, nil, ectx{sp: span{at, at + 1}})
			if err != nil {
				return nil, err
			}
			x = y
		}
		proj.Exprs = append(proj.Exprs, x)
		proj.Out = append(proj.Out, b.newCol(names[i], "", work.Cols[i].Type))
	}
	rc := &planner.RecursiveCTE{Base: base.Root, Step: proj, Work: work, Distinct: distinct}
	for i, c := range work.Cols {
		rc.Out = append(rc.Out, b.newCol(names[i], "", c.Type))
	}
	return b.relation(&Bound{Root: rc, Names: names}, alias, nil, nil)
}

// bindViewRef binds a reference to a view of the catalog (its SQL bound
// like a derived table, without the caller's WITH names); ok is false when
// name is not a view. at is the token of the reference.
func (b *binder) bindViewRef(name, alias string, at int) (*fromItem, bool, error) {
	vc, isVC := b.cat.(planner.ViewCatalog)
	if !isVC {
		return nil, false, nil
	}
	text, ok := vc.View(name)
	if !ok {
		return nil, false, nil
	}
	if b.viewDepth >= 32 {
		return nil, true, b.errAt(at, ErrUnsupported, fmt.Sprintf("view %q refers to itself", name))
	}
	fail := func(err error) (*fromItem, bool, error) {
		kind, msg := error(ErrUnsupported), err.Error()
		if e, ok := err.(*Error); ok {
			kind, msg = e.Kind, e.Msg
		}
		return nil, true, b.errAt(at, kind, fmt.Sprintf("in view %q: %s", name, msg))
	}
	st, err := Parse(Source{Text: text, Line: 1, Col: 1})
	if err != nil {
		return fail(err)
	}
	q, ok := st.(*Query)
	if !ok {
		return fail(fmt.Errorf("not a query"))
	}
	c := b.child(q, nil)
	c.ctes, c.viewDepth = nil, b.viewDepth+1
	bd, err := c.bindQuery()
	b.nextID = c.nextID
	if err != nil {
		return fail(err)
	}
	if alias == "" {
		alias = name
	}
	it, err := b.relation(bd, alias, nil, nil)
	return it, true, err
}

// bindValuesAST binds VALUES (…), … as bindValuesTable does, from the
// syntax tree.
func (b *binder) bindValuesAST(vs *ast.Values, alias string, cols []string) (*fromItem, error) {
	at := b.q.tokAt(vs.Start)
	c := ectx{sp: b.q.spanOf(vs), clause: "VALUES"}
	saved := b.saveScope()
	b.scope, b.quals, b.hidden = nil, nil, nil
	defer b.restoreScope(saved)
	rows := make([][]planner.Expr, 0, len(vs.Rows))
	srcs := make([][]callexpr.Expr, 0, len(vs.Rows))
	for _, r := range vs.Rows {
		if len(rows) > 0 && len(r) != len(rows[0]) {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("VALUES rows have %d and %d columns", len(rows[0]), len(r)))
		}
		row := make([]planner.Expr, len(r))
		src := make([]callexpr.Expr, len(r))
		for i, e := range r {
			var x planner.Expr
			var err error
			if d, ok := e.(*ast.Default); ok {
				x, err = b.defaultCell(d, i)
			} else {
				x, err = b.bindAST(e, c)
			}
			if err != nil {
				return nil, err
			}
			row[i], src[i] = x, astSrc(e)
		}
		rows = append(rows, row)
		srcs = append(srcs, src)
	}
	var targets []columnar.Type
	if b.q.tree != nil && b.q.tree.Body == ast.QueryBody(vs) {
		targets = b.q.targets // the INSERT's own VALUES (bind_insert_values.go)
	}
	return b.valuesRelation(rows, srcs, cols, alias, at, c, targets)
}

// valuesRelation makes the bound rows of a VALUES list, at token at, a
// relation named alias whose columns are cols (then col0, col1, …).
// The values of column col are cast to targets[col], when given.
func (b *binder) valuesRelation(rows [][]planner.Expr, srcs [][]callexpr.Expr, cols []string, alias string, at int, c ectx, targets []columnar.Type) (*fromItem, error) {
	if len(rows) == 0 || len(rows[0]) == 0 {
		return nil, b.errAt(at, ErrSyntax, "VALUES needs at least one row and column")
	}
	if len(cols) > len(rows[0]) {
		return nil, b.errAt(at, ErrType, fmt.Sprintf("VALUES has %d columns but %d names were given", len(rows[0]), len(cols)))
	}
	if alias == "" {
		alias = "valueslist"
	}
	n := &planner.Values{Rows: rows}
	names := make([]string, len(rows[0]))
	for col := range rows[0] {
		xs := make([]planner.Expr, len(rows))
		ss := make([]callexpr.Expr, len(rows))
		for r := range rows {
			xs[r], ss[r] = rows[r][col], srcs[r][col]
		}
		var t columnar.Type
		var err error
		if col < len(targets) {
			xs, t, err = b.castToTarget(xs, ss, targets[col], c) // bind_insert_values.go
		} else {
			xs, t, err = b.unify(xs, ss, c, false, "combine")
		}
		if err != nil {
			return nil, err
		}
		if t.ID == columnar.Null {
			t = columnar.TInt32
			for r := range xs {
				xs[r] = &planner.Const{Val: columnar.NullValue(t)}
			}
		}
		for r := range rows {
			rows[r][col] = xs[r]
		}
		names[col] = fmt.Sprintf("col%d", col)
		if col < len(cols) {
			names[col] = cols[col]
		}
		n.Out = append(n.Out, b.newCol(names[col], alias, t))
	}
	return b.relation(&Bound{Root: n, Names: names}, alias, nil, nil)
}

// bindText binds the query text (a statement of its own, positioned at
// line 1) with this binder's numbering and WITH names.
func (b *binder) bindText(text string) (*Bound, error) {
	st, err := Parse(Source{Text: text, Line: 1, Col: 1})
	if err != nil {
		return nil, err
	}
	q, ok := st.(*Query)
	if !ok {
		return nil, fmt.Errorf("expected a single SELECT statement")
	}
	c := b.child(q, nil)
	bd, err := c.bindQuery()
	b.nextID = c.nextID
	return bd, err
}

// bindInfoSchema binds information_schema.name, ok false when name is not
// one of its views.
func (b *binder) bindInfoSchema(name, alias string, at int) (*fromItem, bool, error) {
	text, ok := infoSchemaViews[strings.ToLower(name)]
	if !ok {
		return nil, false, nil
	}
	bd, err := b.bindText(text)
	if err != nil {
		return nil, true, b.errAt(at, ErrUnsupported, fmt.Sprintf("information_schema.%s: %v", name, err))
	}
	it, err := b.relation(bd, alias, nil, nil)
	return it, true, err
}

// derivedStmtText is the query a statement in FROM stands for: (SHOW ALL
// TABLES) and (SHOW DATABASES) their catalog queries, (SUMMARIZE x)
// SELECT * FROM summarize('x') (x a table, a path or a query, as the
// SUMMARIZE statement takes it).
func (b *binder) derivedStmtText(st ast.Stmt) (string, bool) {
	switch st := st.(type) {
	case *ast.Show:
		return showQueries[st.What], true // catalog_views.go
	case *ast.Describe:
		arg := st.Path
		switch {
		case st.Query != nil:
			sp := st.Query.Extent()
			arg = b.q.src.Text[sp.Start:sp.End]
		case st.Table != nil:
			arg = strings.Join(nameParts(st.Table), ".")
		}
		return "SELECT * FROM summarize(" + quoteSQL(arg) + ")", true
	}
	return "", false
}

// describeDerived binds (DESCRIBE x) in FROM (x a table, a path, a table
// function or a query) to DESCRIBE's rows (DescribeRow), as constants: a
// catalog table's columns with their NOT NULL and keys, the others'
// nullable and keyless, as the DESCRIBE statement shows them.
func (b *binder) describeDerived(d *ast.Describe, alias string, cols []string) (*fromItem, error) {
	from, key := "", ""
	switch {
	case d.Query != nil:
		sp := d.Query.Extent()
		from = "(" + b.q.src.Text[sp.Start:sp.End] + ") AS described"
	case d.Func != nil:
		from = b.q.src.Text[d.Func.Start:d.Func.End]
	case d.Table != nil:
		parts := nameParts(d.Table)
		if full := strings.Join(parts, "."); len(parts) > 1 && hasKnownExt(full) {
			from = quoteSQL(full) // DESCRIBE data.parquet: a path
			break
		}
		quoted := make([]string, len(parts))
		for i, p := range parts {
			quoted[i] = quoteIdent(p)
		}
		from = strings.Join(quoted, ".")
		key, _, _, _ = relKey(parts, pathOf(b.cat))
	default:
		from = quoteSQL(d.Path)
	}
	bd, err := b.bindText("SELECT * FROM " + from)
	if err != nil {
		kind, msg := error(ErrUnknownTable), err.Error()
		var e *Error
		if errors.As(err, &e) {
			kind, msg = e.Kind, e.Msg
		}
		return nil, b.errAt(b.q.tokAt(d.Start), kind, "DESCRIBE: "+msg)
	}
	var rel *RelationInfo
	if key != "" {
		for _, r := range b.relations() {
			if !r.View && strings.EqualFold(relationKey(r), key) {
				rel = &r
				break
			}
		}
	}
	var rows [][]columnar.Value
	for i, f := range bd.Root.Schema() {
		nullable, k := true, columnar.NullValue(columnar.TVarchar)
		if rel != nil && len(rel.Columns) == len(bd.Names) {
			c := rel.Columns[i]
			nullable = c.Nullable
			if c.Key != "" {
				k = columnar.StringValue(c.Key)
			}
		}
		rows = append(rows, DescribeRow(bd.Names[i], f.Type, nullable, k))
	}
	tcols := make([]tableColumn, len(describeNames))
	for i, n := range describeNames {
		tcols[i] = tableColumn{n, columnar.TVarchar}
	}
	return b.relation(b.constValues(alias, "describe", tcols, rows), alias, cols, nil)
}
