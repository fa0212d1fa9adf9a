package sql

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// A query binds from its syntax tree: Bind refuses a query with a part
// that has no case here (queryBindable, bind_check.go) before binding
// any of it. Nested queries (derived tables) are subtrees of the same
// tree, bound by child binders over their own span of the statement's
// tokens: nothing is parsed again.

// wholeQuery is the Query of a statement that is a query: all of its
// tokens, as the parser lexed them.
func (b *stmtBuilder) wholeQuery(tree *ast.Query) (*Query, error) {
	toks, err := b.tokens()
	if err != nil {
		return nil, err
	}
	return &Query{src: b.src, toks: toks, tree: tree}, nil
}

// subQuery is the Query of n, a query nested in b's: the same text, the
// tokens of n's span.
func (b *binder) subQuery(n *ast.Query) nestedQuery {
	lo, hi := b.q.tokSpan(n)
	q := &Query{src: b.q.src, toks: b.q.toks[lo:hi], tree: n, ptab: b.q.params()}
	return nestedQuery{q: q, params: b.params}
}

// bindQueryAST binds the binder's query from its syntax tree.
func (b *binder) bindQueryAST() (*Bound, error) {
	q := b.q.tree
	if err := b.checkQueryAST(q); err != nil { // bind_check_ast.go
		return nil, err
	}
	if q.With != nil {
		if err := b.bindWithAST(q.With); err != nil {
			return nil, err
		}
	}
	if sel, ok := q.Body.(*ast.Select); ok {
		return b.bindSelectAST(sel, q)
	}
	return b.bindBodyAST(q.Body, q) // bind_setop_ast.go
}

// bindWithAST records the WITH entries as bindWith does.
func (b *binder) bindWithAST(w *ast.With) error {
	ctes := map[string]*cteDef{}
	for k, v := range b.ctes {
		ctes[k] = v
	}
	for _, c := range w.CTEs {
		name := c.Name.Name
		mode := planner.CTEAuto
		switch c.Materialized {
		case "MATERIALIZED":
			mode = planner.CTEMaterialized
		case "NOT MATERIALIZED":
			mode = planner.CTENotMaterialized
		}
		def := &cteDef{name: name, cols: nameList(c.Columns), nq: b.subQuery(c.Query), ctes: ctes,
			cte: &planner.CTE{Name: name, Mode: mode}, at: c.Name.Span, owner: b}
		if w.Recursive && astRefersTo(c.Query, name) {
			def.recursive = true
		}
		next := make(map[string]*cteDef, len(ctes)+1)
		for k, v := range ctes {
			next[k] = v
		}
		next[strings.ToLower(name)] = def
		if def.recursive {
			def.ctes = next
		}
		ctes = next
	}
	b.ctes = ctes
	return nil
}

func nameList(ids []*ast.Ident) []string {
	if len(ids) == 0 {
		return nil
	}
	out := make([]string, len(ids))
	for i, c := range ids {
		out[i] = c.Name
	}
	return out
}

// astRefersTo reports whether a query under n names the table name
// (unqualified) in a FROM clause.
func astRefersTo(n any, name string) bool {
	found := false
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		if found {
			return
		}
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if v.IsNil() {
				return
			}
			if t, ok := v.Interface().(*ast.Table); ok {
				found = len(t.Name) == 1 && strings.EqualFold(t.Name[0].Name, name)
				return
			}
			walk(v.Elem())
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		}
	}
	walk(reflect.ValueOf(n))
	return found
}

// queryBindable reports whether every part of q has a bind case in the
// syntax-tree binder.
func queryBindable(q *ast.Query) bool {
	if w := q.With; w != nil {
		for _, c := range w.CTEs {
			if c.Query == nil || len(c.UsingKey) > 0 || !queryBindable(c.Query) {
				return false
			}
		}
	}
	for _, o := range q.OrderBy {
		if o.X != nil && !astBindable(o.X) {
			return false
		}
	}
	return bodyBindable(q.Body)
}

func bodyBindable(body ast.QueryBody) bool {
	switch body := body.(type) {
	case *ast.Select:
		return selectBindable(body)
	case *ast.SetOp:
		return bodyBindable(body.L) && bodyBindable(body.R)
	case *ast.Query:
		return queryBindable(body)
	case *ast.Values:
		for _, r := range body.Rows {
			if !allBindable(r...) {
				return false
			}
		}
		return true
	}
	return false
}

func selectBindable(sel *ast.Select) bool {
	if sel.Qualify != nil && !astBindable(sel.Qualify) || !allBindable(sel.DistinctOn...) {
		return false
	}
	for _, w := range sel.Windows {
		if !windowBindable(w.Window) {
			return false
		}
	}
	for _, it := range sel.Items {
		if st, ok := it.X.(*ast.Star); ok {
			if !starBindable(st) {
				return false
			}
			continue
		}
		if !astBindable(it.X) {
			return false
		}
	}
	for _, t := range sel.From {
		if !tableRefBindable(t) {
			return false
		}
	}
	if sel.Where != nil && !astBindable(sel.Where) || sel.Having != nil && !astBindable(sel.Having) {
		return false
	}
	if g := sel.GroupBy; g != nil {
		for _, it := range g.Items {
			if !groupItemBindable(it) {
				return false
			}
		}
	}
	return true
}

func starBindable(st *ast.Star) bool {
	if len(st.Qualifier) > 3 || st.Like != nil && !astBindable(st.Like.Pattern) {
		return false
	}
	for _, r := range st.Replace {
		if !astBindable(r.X) {
			return false
		}
	}
	return true
}

func tableRefBindable(t ast.TableRef) bool {
	switch t := t.(type) {
	case *ast.Table:
		return !t.NotIndexed && t.IndexedBy == nil && len(t.Name) <= 3
	case *ast.Join:
		switch t.Kind {
		case "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "SEMI", "ANTI", "POSITIONAL":
		default:
			return false
		}
		return (t.On == nil || astBindable(t.On)) && tableRefBindable(t.L) && tableRefBindable(t.R)
	case *ast.TableFunc:
		return tableFuncBindable(t)
	case *ast.Derived:
		if sh, ok := t.Stmt.(*ast.Show); ok {
			_, known := showQueries[sh.What]
			return known && sh.From == nil // (SHOW ALL TABLES), (SHOW DATABASES): catalog_views.go
		}
		if d, ok := t.Stmt.(*ast.Describe); ok {
			return !d.Summarize || d.Func == nil // (DESCRIBE …), (SUMMARIZE t | 'path' | query)
		}
		return t.Query != nil && queryBindable(t.Query)
	case *ast.Pivot:
		return tableRefBindable(t.Source) // the rest is judged when bound (bind_pivot.go)
	}
	return false
}

// joinCondOf is the ON condition or USING list of join t.
func joinCondOf(b *binder, t *ast.Join) joinCond {
	cond := joinCond{using: t.Using, right: t.R}
	if on := t.On; on != nil {
		cond.onSubquery = astHasSubquery(on)
		cond.on = func(c ectx) (planner.Expr, error) {
			c.sp = b.q.spanOf(on)
			x, err := b.bindAST(on, c)
			if err == nil {
				x, err = b.boolean(x, astSrc(on), c, "ON")
			}
			return x, err
		}
	}
	return cond
}

// nameParts is a name's parts as written.
func nameParts(n ast.Name) []string {
	out := make([]string, len(n))
	for i, p := range n {
		out[i] = p.Name
	}
	return out
}

// bindFromAST binds the FROM list as bindFromList does.
func (b *binder) bindFromAST(from []ast.TableRef) (planner.Node, error) {
	if len(from) == 0 {
		return &planner.Values{Rows: [][]planner.Expr{{}}}, nil
	}
	var acc *fromItem
	unnamed := 0
	for _, t := range from {
		if tf, ok := t.(*ast.TableFunc); ok && acc != nil && isUnnestCall(tf) {
			// FROM t, unnest(t.l): unnest after a FROM element reads its
			// columns (DuckDB's implicit LATERAL, bind_unnest.go).
			var err error
			if acc, err = b.lateralUnnest(acc, tf); err != nil {
				return nil, err
			}
			continue
		}
		if d, ok := t.(*ast.Derived); ok && acc != nil && d.Query != nil {
			// FROM t, [LATERAL] (q): q may read t (bind_lateral.go).
			var err error
			if acc, err = b.lateralDerived(acc, d, planner.JoinCross, joinCond{right: d}, &unnamed); err != nil {
				return nil, err
			}
			continue
		}
		it, err := b.bindTableRefAST(t, &unnamed)
		if tf, ok := t.(*ast.TableFunc); ok && err != nil && acc != nil && isSeriesCall(tf) {
			// FROM t, range(t.n): the bounds read t (bind_lateral_series.go).
			if lat, lerr := b.lateralSeries(acc, tf); lerr == nil {
				acc = lat
				continue
			}
		}
		if err != nil {
			return nil, err
		}
		if q := b.q.qualifiedOnly; q != "" && len(it.quals) == 1 && strings.EqualFold(it.quals[0], q) {
			for _, c := range it.cols {
				it.hidden[c.ID] |= hideBare
			}
		}
		if acc == nil {
			acc = it
			continue
		}
		if acc, err = b.joinItems(acc, it, planner.JoinCross, joinCond{right: t}, false); err != nil {
			return nil, err
		}
	}
	b.scope, b.quals, b.hidden = acc.cols, acc.quals, acc.hidden
	return acc.node, nil
}

// isTrue reports whether e is the literal TRUE (JOIN LATERAL … ON true).
func isTrue(e ast.Expr) bool {
	l, ok := e.(*ast.Literal)
	return ok && l.Kind == ast.LitBool && strings.EqualFold(l.Val, "true")
}

// bindTableRefAST binds one FROM element; unnamed counts the derived
// tables without an alias (unnamed_subquery, unnamed_subquery2, … as
// DuckDB names them).
func (b *binder) bindTableRefAST(t ast.TableRef, unnamed *int) (*fromItem, error) {
	if sm, bare := withoutSample(t); sm != nil {
		// TABLESAMPLE: the table's rows are sampled before anything joins
		// or filters them.
		it, err := b.bindTableRefAST(bare, unnamed)
		if err != nil {
			return nil, err
		}
		if it.node, err = b.sampleNode(it.node, sm); err != nil {
			return nil, err
		}
		return it, nil
	}
	switch t := t.(type) {
	case *ast.Join:
		if t.Alias != nil {
			return b.aliasedJoin(t, unnamed) // bind_join_alias.go
		}
		left, err := b.bindTableRefAST(t.L, unnamed)
		if err != nil {
			return nil, err
		}
		if tf, ok := t.R.(*ast.TableFunc); ok && isUnnestCall(tf) && (t.Kind == "CROSS" || t.Kind == "INNER" && t.On == nil && len(t.Using) == 0) && !t.Natural {
			return b.lateralUnnest(left, tf) // t CROSS JOIN [LATERAL] unnest(t.l)
		}
		if d, ok := t.R.(*ast.Derived); ok && d.Lateral && d.Query != nil {
			kind := map[string]planner.JoinKind{"INNER": planner.JoinInner, "CROSS": planner.JoinCross, "LEFT": planner.JoinLeft}[t.Kind]
			if t.Kind == "INNER" && t.On == nil && len(t.Using) == 0 {
				kind = planner.JoinCross
			}
			if kind == 0 && t.Kind != "INNER" || t.Natural {
				return nil, b.errAt(b.q.tokAt(d.Start), ErrUnsupported, "LATERAL subquery in a "+t.Kind+" join is not supported")
			}
			cond := joinCondOf(b, t)
			if isTrue(t.On) {
				cond = joinCond{right: t.R} // ON true: the usual LEFT JOIN LATERAL
			}
			return b.lateralDerived(left, d, kind, cond, unnamed)
		}
		right, err := b.bindTableRefAST(t.R, unnamed)
		if tf, ok := t.R.(*ast.TableFunc); ok && err != nil && isSeriesCall(tf) && (t.Kind == "CROSS" || t.Kind == "INNER" && (t.On == nil || isTrue(t.On)) && len(t.Using) == 0) && !t.Natural {
			// t CROSS JOIN [LATERAL] range(t.n), t JOIN LATERAL range(t.n) ON true (bind_lateral_series.go).
			if lat, lerr := b.lateralSeries(left, tf); lerr == nil {
				return lat, nil
			}
		}
		if err != nil {
			return nil, err
		}
		switch {
		case t.Kind == "POSITIONAL":
			return b.bindPositionalJoin(left, right, t.R) // bind_join_asof.go
		case t.Asof:
			return b.bindAsofJoin(t, left, right)
		}
		kind := planner.JoinInner
		switch t.Kind {
		case "LEFT":
			kind = planner.JoinLeft
		case "RIGHT":
			kind = planner.JoinRight
		case "FULL":
			kind = planner.JoinFull
		case "SEMI", "ANTI":
			// The right side only filters the left one: its columns are
			// in scope in ON, not after.
			kind := planner.JoinSemi
			if t.Kind == "ANTI" {
				kind = planner.JoinAnti
			}
			it, err := b.joinItems(left, right, kind, joinCondOf(b, t), t.Natural)
			if err != nil {
				return nil, err
			}
			it.cols, it.quals, it.hidden = left.cols, left.quals, left.hidden
			return it, nil
		}
		cond := joinCondOf(b, t)
		if kind == planner.JoinInner && !t.Natural && t.On == nil && len(t.Using) == 0 {
			kind = planner.JoinCross
		}
		return b.joinItems(left, right, kind, cond, t.Natural)
	case *ast.Derived:
		alias := derivedAlias(t, unnamed)
		if d, ok := t.Stmt.(*ast.Describe); ok && !d.Summarize {
			return b.describeDerived(d, alias, aliasColumns(t.Alias)) // bind_derived.go
		}
		if text, ok := b.derivedStmtText(t.Stmt); ok {
			bd, err := b.bindText(text) // bind_derived.go
			if err != nil {
				return nil, err
			}
			return b.relation(bd, alias, aliasColumns(t.Alias), b.errAtRef(t))
		}
		if v, ok := t.Query.Body.(*ast.Values); ok && t.Query.With == nil && len(t.Query.OrderBy) == 0 && t.Query.Limit == nil && t.Query.Offset == nil {
			return b.bindValuesAST(v, alias, aliasColumns(t.Alias))
		}
		bd, _, err := b.bindNested(b.subQuery(t.Query), false)
		if err != nil {
			return nil, err
		}
		return b.relation(bd, alias, aliasColumns(t.Alias), b.errAtRef(t))
	case *ast.TableFunc:
		if d, ok := repeatDerived(t); ok { // bind_tablefunc_repeat.go
			if err := b.checkRepeatCount(t); err != nil {
				return nil, err
			}
			return b.bindTableRefAST(d, unnamed)
		}
		it, err := b.bindTableFuncAST(t)
		if err != nil {
			if cit, ok := b.correlatedSeries(t); ok { // bind_lateral_series.go
				return cit, nil
			}
		}
		return it, err
	case *ast.Pivot:
		return b.bindPivotAST(t, unnamed) // bind_pivot.go
	case *ast.Table:
		it, err := b.bindTableAST(t)
		if err != nil || t.Alias == nil || len(t.Alias.Columns) == 0 {
			return it, err
		}
		// t AS x(a, b) renames the first columns, as for a derived table.
		cols := aliasColumns(t.Alias)
		if n := visibleCols(it); len(cols) > n {
			name := t.Path
			if t.Name != nil {
				name = t.Name.Last().Name
			}
			return nil, b.errAt(b.q.tokAt(t.Alias.Columns[n].Start), ErrType,
				fmt.Sprintf("table %q has %d columns available but %d columns specified", name, n, len(cols)))
		}
		renamed := append([]planner.Column(nil), it.cols...)
		for i, n := range cols {
			renamed[i].Name = n
		}
		it.cols = renamed
		return it, nil
	}
	return nil, b.errAt(b.q.tokAt(t.Extent().Start), ErrUnsupported, "this FROM clause is not supported")
}

// bindQuery binds the binder's query: a SELECT, possibly with a WITH list,
// or a set operation.
func (b *binder) bindQuery() (*Bound, error) {
	bd, err := b.bindQueryAST()
	if err != nil || !b.arrayOf {
		return bd, err
	}
	return b.arrayOfRows(bd), nil
}

// bindNested binds a nested query; with outer set, its names may resolve
// to this query's columns (correlation), which the caller must handle.
func (b *binder) bindNested(nq nestedQuery, outer bool) (*Bound, *binder, error) {
	c := b.child(nq.q, nq.params)
	if outer {
		c.outer = b
		c.outerRefs = map[planner.ColID]bool{}
	} else {
		c.enclosing = b
	}
	c.arrayOf = nq.array
	bd, err := c.bindQuery()
	b.nextID = c.nextID
	return bd, c, err
}

// matchParen returns the index of the ")" closing toks[i], or -1.
func matchParen(toks []token, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch {
		case toks[j].isOp("("):
			depth++
		case toks[j].isOp(")"):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// relation puts a bound query in scope under alias, its columns renamed by
// cols where given; fail reports an error at the alias.
func (b *binder) relation(bd *Bound, alias string, cols []string, fail func(kind error, msg string) error) (*fromItem, error) {
	if len(cols) > len(bd.Names) {
		return nil, fail(ErrUnsupported, fmt.Sprintf("%q has %d columns but %d column names were given", alias, len(bd.Names), len(cols)))
	}
	schema := bd.Root.Schema()
	it := &fromItem{node: bd.Root, quals: []string{alias}, hidden: map[planner.ColID]hide{}}
	names := make([]string, len(schema))
	for i := range schema {
		names[i] = bd.Names[i]
		if i < len(cols) {
			names[i] = cols[i]
		}
	}
	dedupNames(names)
	for i, c := range schema {
		it.cols = append(it.cols, planner.Column{ID: c.ID, Name: names[i], Table: alias, Type: c.Type})
	}
	return it, nil
}

// dedupNames renames repeated column names of a relation as DuckDB does
// (QueryResult::DeduplicateColumns): a name met again, ignoring case,
// becomes name_1, name_2, …, skipping names already taken, so that
// SELECT * FROM (SELECT 1 AS a, 2 AS a, 3 AS a_1) has a, a_1, a_1_1. The
// names are renamed in place and returned.
func dedupNames(names []string) []string {
	seen := make(map[string]int, len(names))
	for i, n := range names {
		low := strings.ToLower(n)
		if _, dup := seen[low]; !dup {
			seen[low]++
			continue
		}
		for {
			cand := n + "_" + strconv.Itoa(seen[low])
			if _, taken := seen[strings.ToLower(cand)]; !taken {
				names[i] = cand
				seen[strings.ToLower(cand)]++
				break
			}
			seen[low]++
		}
	}
	return names
}

// bindCTERef binds a reference to a WITH name; ok is false when the name
// is not a WITH entry in scope. at is the token of the reference.
func (b *binder) bindCTERef(name, alias string, at int) (*fromItem, bool, error) {
	def, ok := b.ctes[strings.ToLower(name)]
	if !ok {
		return nil, false, nil
	}
	if alias == "" {
		alias = def.name
	}
	if def.work != nil {
		ws := &planner.WorkScan{Work: def.work}
		for _, c := range def.work.Cols {
			ws.Out = append(ws.Out, b.newCol(c.Name, alias, c.Type))
		}
		names := make([]string, len(ws.Out))
		for i, c := range ws.Out {
			names[i] = c.Name
		}
		it, err := b.relation(&Bound{Root: ws, Names: names}, alias, nil, nil)
		return it, true, err
	}
	if def.recursive {
		it, err := b.bindRecursive(def, alias, at)
		return it, true, err
	}
	c := b.child(def.nq.q, def.nq.params)
	c.ctes = def.ctes
	c.enclosing = def.owner
	bd, err := c.bindQuery()
	b.nextID = c.nextID
	if err != nil {
		return nil, true, err
	}
	if c.readsEnclosing {
		// Reading the outer query, the entry is a correlated derived table
		// at each reference: its rows differ per outer row, so they are
		// not computed once.
		it, err := b.relation(bd, alias, def.cols, b.errSpanAt(def.at))
		return it, true, err
	}
	// The planner inlines the reference or reads the entry computed once.
	bd.Root = &planner.CTERef{CTE: def.cte, Input: bd.Root}
	it, err := b.relation(bd, alias, def.cols, b.errSpanAt(def.at))
	return it, true, err
}

// bindTableAST binds a table, view, WITH name or path in FROM.
func (b *binder) bindTableAST(t *ast.Table) (*fromItem, error) {
	alias := aliasName(t.Alias)
	if t.Path == "" && len(t.Name) == 0 { // FROM ''
		return nil, b.errAt(b.q.tokAt(t.Start), ErrUnknownTable, "table with name \"\" does not exist (an empty string names no file)")
	}
	if t.Path != "" {
		if call := b.q.copyFrom; call != nil {
			n, err := b.bindFileCall(call, "", nil, b.q.tokAt(t.Start), b.q.tokAt(t.Start))
			if err != nil {
				return nil, err
			}
			return itemOf(n, n.(*planner.Scan).Alias), nil
		}
		n, err := b.bindTable(t.Path, true, alias, b.q.tokAt(t.Start))
		if err != nil {
			return nil, err
		}
		return itemOf(n, n.Alias), nil
	}
	at := b.q.tok(t.Extent())
	parts := nameParts(t.Name)
	if full := strings.Join(parts, "."); len(parts) > 1 && hasKnownExt(full) {
		// FROM data.parquet: a dotted bare name with a file's extension
		// is a path.
		n, err := b.bindTable(full, false, alias, at)
		if err != nil {
			return nil, err
		}
		return itemOf(n, n.Alias), nil
	}
	key, schema, bad, msg := relKey(parts, pathOf(b.cat)) // schema.go
	if bad >= 0 {
		return nil, b.errSpan(t.Name[bad].Span, ErrUnknownTable, msg)
	}
	if sc, ok := b.cat.(SchemaCatalog); ok && len(parts) == 3 && relCatalog(parts) == "" && !sc.HasSchema(schema) {
		return nil, b.errSpan(t.Name[0].Span, ErrUnknownTable, fmt.Sprintf("database %q does not exist (ATTACH ':memory:' AS %s makes one)", parts[0], parts[0]))
	}
	if msg := CatalogMismatch(b.cat, relCatalog(parts), key); msg != "" {
		return nil, b.errSpan(t.Name.Span(), ErrUnknownTable, msg)
	}
	if len(parts) == 1 {
		if it, ok, err := b.bindCTERef(parts[0], alias, at); ok || err != nil {
			return it, err
		}
		key, schema = tempFirst(b.cat, parts, key, schema)
	}
	named := cmp.Or(alias, parts[len(parts)-1]) // s.t is t unless aliased
	if it, ok, err := b.bindViewRef(key, named, at); ok || err != nil {
		if err == nil && alias == "" && schema != "" {
			b.schemaColumns(it.cols, schema)
		}
		return it, err
	}
	if strings.EqualFold(schema, "information_schema") {
		if it, ok, err := b.bindInfoSchema(parts[len(parts)-1], named, at); ok { // catalog_views.go
			return it, err
		}
	}
	var n *planner.Scan
	var err error
	if schema != "" {
		n, err = b.bindSchemaTable(key, schema, named, at)
	} else { // a path-like name is named after its file (bindTable)
		n, err = b.bindTable(key, false, alias, at)
	}
	if err != nil {
		return nil, err
	}
	it := itemOf(n, n.Alias)
	if gt, ok := n.Table.(GeneratedTable); ok && len(gt.Generated()) > 0 {
		g, err := b.generatedNode(n, gt.Generated()) // bind_generated.go
		if err != nil {
			return nil, err
		}
		hidden := it.hidden // the scan's virtual columns (rowid) pass through with their IDs
		it = itemOf(g, n.Alias)
		maps.Copy(it.hidden, hidden)
	}
	if alias == "" && schema != "" {
		b.schemaColumns(it.cols, schema)
	}
	return it, nil
}
