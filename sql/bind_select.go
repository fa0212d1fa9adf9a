package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindSelectAST binds a SELECT from the syntax tree, with the ORDER BY,
// LIMIT and OFFSET of q, the query it is the body of, into the plan
// bindSelect documents (Bind).
func (b *binder) bindSelectAST(sel *ast.Select, q *ast.Query) (*Bound, error) {
	b.sel = sel
	input, err := b.bindFromAST(sel.From)
	if err != nil {
		return nil, err
	}
	if sel.Sample != nil {
		// USING SAMPLE samples the FROM clause's rows, before WHERE (as
		// DuckDB does).
		if input, err = b.sampleNode(input, sel.Sample); err != nil {
			return nil, err
		}
	}
	items, err := b.expandSelectAST(sel)
	if err != nil {
		return nil, err
	}
	b.items = items
	b.input = input
	if sel.Where != nil {
		if input, err = b.bindWhereAST(sel.Where); err != nil {
			return nil, err
		}
	}
	b.input = input

	aggregating := sel.GroupBy != nil || sel.Having != nil
	for _, it := range sel.Items {
		aggregating = aggregating || astHasAgg(it.X)
	}
	for _, o := range q.OrderBy {
		aggregating = aggregating || astHasAgg(o.X)
	}
	if aggregating {
		if err := b.bindGroupByAST(items, sel.GroupBy); err != nil {
			return nil, err
		}
		b.postAgg = true
	}

	b.win = &winState{}
	if err := b.bindItems(items, aggregating); err != nil {
		return nil, err
	}
	if items, err = b.expandStructUnnests(items); err != nil { // bind_unnest_struct.go
		return nil, err
	}

	var having planner.Expr
	if sel.Having != nil {
		c := ectx{sp: b.q.spanOf(sel.Having), clause: "HAVING", aggOK: true}
		win := b.win
		b.win = nil // windows come after HAVING
		x, err := b.bindAST(sel.Having, c)
		b.win = win
		if err != nil {
			return nil, err
		}
		if x, err = b.finalize(x, astSrc(sel.Having), c); err != nil {
			return nil, err
		}
		if having, err = b.boolean(x, astSrc(sel.Having), c, "HAVING"); err != nil {
			return nil, err
		}
	}
	var qualify planner.Expr
	if sel.Qualify != nil {
		if qualify, err = b.qualify(astSrc(sel.Qualify), b.q.spanOf(sel.Qualify), aggregating); err != nil {
			return nil, err
		}
	}
	var firstOnly planner.Expr
	if len(sel.DistinctOn) > 0 {
		var on []callexpr.Expr
		for _, e := range sel.DistinctOn {
			// DISTINCT ON (COLUMNS('key.*')): one key per column (bind_columns.go).
			xs, _, has, err := b.expandColumns(e)
			if err != nil {
				return nil, err
			}
			if !has {
				xs = []ast.Expr{e}
			}
			for _, x := range xs {
				on = append(on, astSrc(x))
			}
		}
		var order []orderRef
		for _, o := range q.OrderBy {
			desc, nullsFirst := b.sortOrder(o)
			if o.X == nil { // ORDER BY ALL: every select item, by its position
				for i := range items {
					pos := &callexpr.SQLVal{At: o.Span, Type: callexpr.IntVal, Val: []byte(strconv.Itoa(i + 1))}
					order = append(order, orderRef{expr: pos, sp: b.q.spanOf(o), desc: desc, nullsFirst: nullsFirst})
				}
				continue
			}
			order = append(order, orderRef{expr: astSrc(o.X), sp: b.q.spanOf(o), desc: desc, nullsFirst: nullsFirst})
		}
		lo, _ := b.q.tokSpan(sel.DistinctOn[0])
		_, hi := b.q.tokSpan(sel.DistinctOn[len(sel.DistinctOn)-1])
		if firstOnly, err = b.distinctOn(on, order, span{lo, hi}, items, aggregating); err != nil {
			return nil, err
		}
	}
	distinct := sel.Distinct && firstOnly == nil

	proj := &planner.Project{}
	names := make([]string, len(items))
	for i, it := range items {
		proj.Exprs = append(proj.Exprs, it.expr)
		proj.Out = append(proj.Out, b.newCol(it.name, "", it.expr.Type()))
		names[i] = it.name
	}
	keys, err := b.bindOrderByAST(q.OrderBy, items, proj, aggregating, distinct)
	if err != nil {
		return nil, err
	}
	input, err = b.aggregateNode(input, aggregating, having)
	if err != nil {
		return nil, err
	}
	if len(b.win.funcs) > 0 {
		input = &planner.Window{Input: input, Funcs: b.win.funcs, Out: b.win.cols}
	}
	b.win = nil
	if qualify != nil {
		input = &planner.Filter{Input: input, Cond: qualify}
	}
	if firstOnly != nil {
		input = &planner.Filter{Input: input, Cond: firstOnly}
	}
	proj.Input = b.unnestNode(proj, input) // bind_unnest.go
	var root planner.Node = proj
	if distinct {
		root = &planner.Distinct{Input: root}
	}
	if len(keys) > 0 {
		root = &planner.Sort{Input: root, Keys: keys}
	}
	if root, err = b.limitAST(root, q); err != nil {
		return nil, err
	}
	b.ordered = &orderedRoot{root: root, keys: keys}
	return &Bound{Root: dropHidden(b, root, proj, len(items)), Names: names}, nil
}

// bindItems binds the select list (stars are their column).
func (b *binder) bindItems(items []selItem, aggregating bool) error {
	for i := range items {
		it := &items[i]
		if it.star != nil {
			it.expr = &planner.ColRef{Col: *it.star}
			if aggregating {
				x, err := b.finalize(it.expr, nil, ectx{sp: it.sp})
				if err != nil {
					return err
				}
				it.expr = x
			}
			continue
		}
		c := ectx{sp: it.sp, clause: "SELECT", aggOK: aggregating}
		if it.alias != "" {
			b.expanding[strings.ToLower(it.alias)] = true
		}
		x, err := b.bindClauseExpr(it.src, c)
		delete(b.expanding, strings.ToLower(it.alias))
		if err != nil {
			return err
		}
		if aggregating {
			if x, err = b.finalize(x, it.src, c); err != nil {
				return err
			}
		}
		it.expr = x
	}
	return nil
}

// aggregateNode puts the Aggregate (or grouping-sets union), the joins of
// subqueries above it and HAVING over input when the query aggregates,
// else the FROM plan with the joins of select-list subqueries.
func (b *binder) aggregateNode(input planner.Node, aggregating bool, having planner.Expr) (planner.Node, error) {
	if !aggregating {
		return b.input, nil
	}
	a := b.agg
	// b.input, not input: a subquery inside an aggregate's argument or
	// FILTER joined onto it (preAgg).
	input, err := b.orderAggInput(b.input) // bind_agg_ordered.go
	if err != nil {
		return nil, err
	}
	out := append(append([]planner.Column(nil), a.groupCols...), a.aggCols...)
	input, a.aggs = b.onceVolatileArgs(input, a.aggs) // bind_agg_volatile.go
	if b.groupSets != nil || len(a.groupings) > 0 {
		for _, g := range a.groupings {
			out = append(out, g.col)
		}
		input = b.groupingNode(input, out) // bind_grouping_sets.go
	} else {
		input = &planner.Aggregate{Input: input, Groups: a.groups, Aggs: a.aggs, Out: out}
	}
	for _, p := range b.postRows {
		p.Input = input
	}
	for _, j := range b.post {
		j.Left = input
		input = j
	}
	if having != nil {
		input = &planner.Filter{Input: input, Cond: having}
	}
	return input, nil
}

// dropHidden projects away the hidden ORDER BY columns of proj (the first
// n are the select list).
func dropHidden(b *binder, root planner.Node, proj *planner.Project, n int) planner.Node {
	if len(proj.Out) <= n {
		return root
	}
	drop := &planner.Project{Input: root}
	for _, col := range proj.Out[:n] {
		drop.Exprs = append(drop.Exprs, &planner.ColRef{Col: col})
		drop.Out = append(drop.Out, b.newCol(col.Name, "", col.Type))
	}
	return drop
}

// expandSelectAST lists the select items, expanding * and t.*.
func (b *binder) expandSelectAST(sel *ast.Select) ([]selItem, error) {
	var items []selItem
	for _, si := range sel.Items {
		if st, ok := si.X.(*ast.Star); ok {
			its, err := b.starItems(st)
			if err != nil {
				return nil, err
			}
			if si.Alias != nil && st.Like != nil {
				// * LIKE … AS alias names every column as COLUMNS does.
				for k := range its {
					a, err := columnsAlias(si.Alias.Name, starMatch(st.Like, its[k].name))
					if err != nil {
						return nil, b.errAt(b.q.tokAt(si.Alias.Start), ErrSyntax, err.Error())
					}
					its[k].alias, its[k].name = a, a
				}
			}
			items = append(items, its...)
			continue
		}
		xs, which, has, err := b.expandColumns(si.X)
		if err != nil {
			return nil, err
		}
		if has && which[0] != nil {
			// One item per column COLUMNS(…) selected, named after it.
			sp := b.q.spanOf(si)
			for k, x := range xs {
				it := selItem{src: astSrc(x), sp: sp, name: which[k][0].name}
				if si.Alias != nil {
					a, err := columnsAlias(si.Alias.Name, which[k][0])
					if err != nil {
						return nil, b.errAt(b.q.tokAt(si.Alias.Start), ErrSyntax, err.Error())
					}
					it.alias, it.name = a, a
				}
				items = append(items, it)
			}
			continue
		}
		x := si.X
		if has {
			x = xs[0] // *COLUMNS(…) unpacked into a call's arguments
		}
		lo, hi := b.q.tokSpan(si)
		if a := si.Alias; a != nil {
			if a.Start < si.X.Extent().Start { // alias: expr
				lo, hi = b.q.tokSpan(si.X)
			} else {
				hi = b.q.tokAt(a.Start)
				if hi > lo+1 && b.q.toks[hi-1].is("AS") {
					hi--
				}
			}
		}
		it := selItem{src: astSrc(x), sp: span{lo, hi}}
		switch {
		case si.Alias != nil:
			it.alias, it.name = si.Alias.Name, si.Alias.Name
		default:
			if col, ok := si.X.(*ast.ColumnRef); ok {
				it.name = col.Name.Last().Name
			} else {
				it.name = b.itemText(it.sp)
			}
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		return nil, b.errAt(b.q.tok(sel.Items[0].Span), ErrUnknownColumn, "SELECT list is empty after resolving * expressions")
	}
	return items, nil
}

// starItems expands [t.]* [EXCLUDE …] [REPLACE …] [RENAME …] into select
// items, in the order of the FROM columns. RENAME (a AS b) names a column
// b; a name RENAME lists that is not there is ignored, as in DuckDB.
func (b *binder) starItems(st *ast.Star) ([]selItem, error) {
	var items []selItem
	qual := ""
	if len(st.Qualifier) > 0 {
		qual = st.Qualifier[0].Name
		known := false
		for _, q := range b.quals {
			known = known || strings.EqualFold(q, qual)
		}
		if !known || len(st.Qualifier) > 1 {
			if items, ok, err := b.structStarItems(st); ok { // bind_struct_star.go
				return items, err
			}
		}
		if len(st.Qualifier) > 1 {
			return nil, b.errAt(b.q.tokAt(st.Start), ErrUnknownColumn, fmt.Sprintf("%s.* names no STRUCT column", b.q.src.Text[st.Qualifier.Span().Start:st.Qualifier.Span().End]))
		}
		if !known {
			return nil, b.errAt(b.q.tokAt(st.Start), ErrUnknownTable, fmt.Sprintf("unknown table %q%s", qual, didYouMean(qual, b.quals)))
		}
	}
	if len(b.scope) == 0 && qual == "" && (b.sel == nil || len(b.sel.From) == 0) {
		// A FROM of no columns (a WITH entry that writes without
		// RETURNING) leaves the list empty, refused below as DuckDB does.
		return nil, b.errAt(b.q.tokAt(st.Start), ErrUnknownColumn, "SELECT * with no FROM clause")
	}
	exclude := map[string]bool{} // name or qualifier.name, lower case
	for _, n := range st.Exclude {
		exclude[excludeKey(n)] = true
	}
	rename := map[string]string{} // as exclude's keys → the new name
	for _, r := range st.Rename {
		k := excludeKey(r.From)
		if _, ex := exclude[k]; ex {
			return nil, b.errAt(b.q.tokAt(r.Start), ErrSyntax, fmt.Sprintf("column %q cannot occur in both EXCLUDE and RENAME list", r.From.Last().Name))
		}
		rename[k] = r.To.Name
	}
	if st.Like != nil && (len(st.Replace) > 0 || len(st.Rename) > 0) {
		// As DuckDB: which columns a filter keeps is not to depend on
		// their new names or values.
		what := "Replace"
		if len(st.Replace) == 0 {
			what = "Rename"
		}
		return nil, b.errAt(b.q.tokAt(st.Like.Start), ErrSyntax, what+" list cannot be combined with a filtering operation")
	}
	replace := map[string]*ast.SelectItem{}
	for _, r := range st.Replace {
		if r.Alias == nil {
			return nil, b.errAt(b.q.tokAt(st.Replace[0].Start), ErrSyntax, "REPLACE expects a list of expr AS column")
		}
		replace[strings.ToLower(r.Alias.Name)] = r
	}
	for _, col := range b.scope {
		if qual == "" && b.hidden[col.ID]&hideBare != 0 || b.hidden[col.ID]&hideStar != 0 {
			continue
		}
		if qual == "" || strings.EqualFold(col.Table, qual) {
			if st.Like != nil {
				if ok, err := b.starMatches(st.Like, col.Name); err != nil || !ok {
					if err != nil {
						return nil, err
					}
					continue
				}
			}
			l := strings.ToLower(col.Name)
			if _, ex := exclude[l]; ex {
				exclude[l] = false // matched
				continue
			}
			if k := strings.ToLower(col.Table) + "." + l; exclude[k] || col.Table != "" && hasKey(exclude, k) {
				exclude[k] = false
				continue
			}
			if k := b.colSchema(col) + "." + strings.ToLower(col.Table) + "." + l; col.Table != "" && hasKey(exclude, k) {
				exclude[k] = false
				continue
			}
			if r, ok := replace[l]; ok {
				items = append(items, selItem{src: astSrc(r.X), alias: col.Name, name: col.Name, sp: b.q.spanOf(r.X)})
				delete(replace, l)
				continue
			}
			col := col
			it := selItem{star: &col, name: col.Name, sp: b.q.spanOf(st)}
			if to, ok := rename[l]; ok {
				it.alias, it.name = to, to
			} else if to, ok := rename[strings.ToLower(col.Table)+"."+l]; ok && col.Table != "" {
				it.alias, it.name = to, to
			}
			items = append(items, it)
		}
	}
	if st.Like != nil && len(items) == 0 {
		return nil, b.errAt(b.q.tokAt(st.Like.Start), ErrUnknownColumn, "no column matches the star's pattern")
	}
	for _, n := range st.Exclude {
		name := n.Last().Name
		if _, unread := b.unreadable[strings.ToLower(name)]; exclude[excludeKey(n)] && !unread {
			return nil, b.errAt(b.q.tokAt(n.Span().Start), ErrUnknownColumn, fmt.Sprintf("column %q in EXCLUDE is not in the FROM clause", name))
		}
	}
	for _, r := range st.Replace {
		if _, left := replace[strings.ToLower(r.Alias.Name)]; left {
			return nil, b.errAt(b.q.tokAt(r.Alias.Start), ErrUnknownColumn, fmt.Sprintf("column %q in REPLACE is not in the FROM clause", r.Alias.Name))
		}
	}
	return items, nil
}

// bindWhereAST binds WHERE's conjuncts as one Filter over b.input.
func (b *binder) bindWhereAST(where ast.Expr) (planner.Node, error) {
	c := ectx{sp: b.q.spanOf(where), clause: "WHERE"}
	// WHERE COLUMNS(…) > 0: every column's condition holds. Each conjunct
	// expands on its own, so conjuncts may hold different COLUMNS, as in
	// DuckDB (WHERE COLUMNS(['a', 'b']) > 0 AND COLUMNS(*) IS NOT NULL).
	var all []ast.Expr
	for _, e := range conjuncts(where, nil) {
		xs, _, has, err := b.expandColumns(e)
		if err != nil {
			return nil, err
		}
		if !has {
			xs = []ast.Expr{e}
		}
		all = append(all, xs...)
	}
	var conds []planner.Expr
	for _, e := range all {
		cond, done, err := b.astSemiConjunct(e, c)
		if err != nil {
			return nil, err
		}
		if cond != nil {
			conds = append(conds, cond)
		}
		if done {
			continue
		}
		x, err := b.bindAST(e, c)
		if err != nil {
			return nil, err
		}
		if x, err = b.boolean(x, astSrc(e), c, "WHERE"); err != nil {
			return nil, err
		}
		conds = append(conds, x)
	}
	if len(conds) == 0 {
		return b.input, nil
	}
	f := &planner.Filter{Input: b.input, Cond: planner.JoinAnd(conds)}
	b.where = f
	return f, nil
}

// conjuncts appends the AND-ed parts of e to out.
func conjuncts(e ast.Expr, out []ast.Expr) []ast.Expr {
	if x, ok := e.(*ast.Binary); ok && x.Op == "AND" {
		return conjuncts(x.R, conjuncts(x.L, out))
	}
	return append(out, e)
}

// astHasAgg reports whether e calls an aggregate function outside a
// window and outside nested queries.
func astHasAgg(e ast.Expr) bool { return astAggCall(e) != nil }

// astAggCall is the first aggregate call in e (not under OVER), or nil.
func astAggCall(e ast.Expr) *ast.Func {
	var found *ast.Func
	ast.Inspect(e, func(x ast.Expr) bool {
		if f, ok := x.(*ast.Func); ok && f.Over == nil && len(f.Name) == 1 && (isAggName(strings.ToLower(f.Name[0].Name)) || isAggMacro(strings.ToLower(f.Name[0].Name)) ||
			len(f.WithinGroup) > 0) { // percentile_cont(f) WITHIN GROUP (…): bind_agg_order_rewrite.go
			found = f
		}
		return found == nil
	})
	return found
}

// astOrdinal reports whether e is an integer literal (a position in the
// select list), negative ones included: DuckDB reads ORDER BY -1 as a
// position out of range.
func astOrdinal(e ast.Expr) (int, bool) {
	if u, ok := e.(*ast.Unary); ok && u.Op == "-" {
		if n, ok := astOrdinal(u.X); ok {
			return -n, true
		}
		return 0, false
	}
	l, ok := e.(*ast.Literal)
	if !ok || l.Kind != ast.LitNumber {
		return 0, false
	}
	if isInt, ok := plainNumber(l.Val); !ok || !isInt {
		return 0, false
	}
	n, err := strconv.Atoi(l.Val)
	if err != nil {
		return 1 << 30, true
	}
	return n, true
}

// bindGroupByAST binds the GROUP BY keys as bindGroupBy does.
func (b *binder) bindGroupByAST(items []selItem, g *ast.GroupBy) error {
	b.agg = &aggState{aggKeys: map[string]int{}}
	if g == nil {
		return nil
	}
	if g.All {
		for _, it := range items {
			if it.star != nil {
				b.addGroup(&planner.ColRef{Col: *it.star})
				continue
			}
			if astHasAgg(it.src.(*syntaxSrc).n) {
				continue
			}
			// GROUP BY ALL keys are the select items, which may use the
			// aliases of items before them, as in DuckDB.
			x, err := b.bindClauseExpr(it.src, ectx{sp: it.sp, clause: "GROUP BY ALL"})
			if err != nil {
				return err
			}
			b.addGroupSyntax(x, it.src.(*syntaxSrc).n)
		}
		return nil
	}
	keys, sets, err := b.astGroupingSets(g.Items)
	if err != nil {
		return err
	}
	b.groupSets = sets
	for _, e := range keys {
		c := ectx{sp: b.q.spanOf(e), clause: "GROUP BY"}
		var src ast.Expr = e
		if n, ok := astOrdinal(e); ok {
			if n < 1 || n > len(items) {
				return b.errAt(c.sp.lo, ErrUnknownColumn, fmt.Sprintf("GROUP BY position %d is not in select list (1..%d)", n, len(items)))
			}
			it := items[n-1]
			if it.star != nil {
				b.addGroup(&planner.ColRef{Col: *it.star})
				continue
			}
			src, c.sp = it.src.(*syntaxSrc).n, it.sp
		} else if col, ok := e.(*ast.ColumnRef); ok && len(col.Name) == 1 && !b.inScope(col.Name[0].Name) {
			for _, it := range items {
				if it.alias != "" && strings.EqualFold(it.alias, col.Name[0].Name) {
					src, c.sp = it.src.(*syntaxSrc).n, it.sp
					break
				}
			}
		}
		if f := astAggCall(src); f != nil {
			return b.errSpan(f.Name[0].Span, ErrGrouping, "aggregate functions are not allowed in GROUP BY")
		}
		x, err := b.bindAST(src, c)
		if err != nil {
			return err
		}
		b.addGroupSyntax(x, src)
	}
	return nil
}

// bindOrderByAST binds the sort keys over the projection's output as
// bindOrderBy does; ORDER BY ALL sorts by every select column.
func (b *binder) bindOrderByAST(order []*ast.OrderItem, items []selItem, proj *planner.Project, aggregating, distinct bool) ([]planner.SortKey, error) {
	var keys []planner.SortKey
	for _, o := range order {
		desc, nullsFirst := b.sortOrder(o)
		if o.X == nil { // ALL
			for i := range items {
				keys = append(keys, planner.SortKey{Expr: &planner.ColRef{Col: proj.Out[i]}, Desc: desc, NullsFirst: nullsFirst})
			}
			continue
		}
		sp := b.q.spanOf(o)
		xs, _, has, err := b.expandColumns(o.X) // ORDER BY COLUMNS(…): a key per column
		if err != nil {
			return nil, err
		}
		if !has {
			xs = []ast.Expr{o.X}
		}
		for _, x := range xs {
			if b.skipLiteralKey(astSrc(x)) {
				continue
			}
			b.collateOrderKey(x) // bind_collate.go
			col, err := b.orderTarget(astSrc(x), items, proj, sp, aggregating, distinct)
			if err != nil {
				return nil, err
			}
			keys = append(keys, planner.SortKey{Expr: &planner.ColRef{Col: col}, Desc: desc, NullsFirst: nullsFirst})
		}
	}
	return keys, nil
}

// limitAST puts q's LIMIT and OFFSET over root.
func (b *binder) limitAST(root planner.Node, q *ast.Query) (planner.Node, error) {
	if q.Limit == nil && q.Offset == nil {
		return root, nil
	}
	count, offset := int64(-1), int64(0)
	var computed [2]ast.Expr // LIMIT, OFFSET that are not constants
	read := func(e ast.Expr, what string) (int64, error) {
		if n, ok := astOrdinal(e); ok && n >= 0 && n < 1<<30 {
			return int64(n), nil
		}
		if l, ok := e.(*ast.Literal); ok && l.Kind == ast.LitNumber {
			if n, err := strconv.ParseInt(l.Val, 10, 64); err == nil {
				return n, nil
			}
		}
		if p, ok := e.(*ast.Param); ok {
			return b.paramLimit(p, what)
		}
		if !astHasSubquery(e) { // bind_group_subquery.go
			// A constant expression (2 - 1, 2.5, CAST(…)): its value rounded
			// to an integer as DuckDB casts it; NULL is no LIMIT (OFFSET 0).
			v, null, err := b.constNumber(e, what) // bind_sample.go
			switch {
			case err == nil && null && what == "LIMIT":
				return -1, nil
			case err == nil && null:
				return 0, nil
			case err == nil && math.Round(v) < 0:
				return 0, b.errAt(b.q.tok(e.Extent()), ErrType, "LIMIT/OFFSET cannot be negative")
			case err == nil && math.Round(v) < math.MaxInt64:
				return int64(math.Round(v)), nil
			}
		}
		if what == "LIMIT" {
			computed[0] = e
		} else {
			computed[1] = e
		}
		return 0, nil
	}
	var err error
	var percent *float64
	byPercent := false // LIMIT p% with p computed (a subquery, random())
	if l := q.Limit; l != nil && l.Count != nil && l.Percent {
		var computedPct bool
		if percent, computedPct, err = b.limitPercent(l); err != nil {
			return nil, err
		}
		if computedPct {
			computed[0], byPercent = l.Count, true
		}
	} else if l != nil && l.Count != nil {
		if count, err = read(l.Count, "LIMIT"); err != nil {
			return nil, err
		}
	}
	if q.Offset != nil {
		if offset, err = read(q.Offset, "OFFSET"); err != nil {
			return nil, err
		}
	}
	if computed != [2]ast.Expr{} {
		return b.limitBy(root, q, computed, count, offset, percent, byPercent) // bind_limit_by.go
	}
	if percent != nil {
		return &planner.LimitPercent{Input: root, Percent: *percent, Offset: offset}, nil
	}
	return &planner.Limit{Input: root, Count: count, Offset: offset}, nil
}

// limitPercent reads LIMIT p% (or p PERCENT): a constant number from 0 to
// 100, as DuckDB takes it; nil for NULL (no limit). computed reports a p
// that is not a constant (a subquery, random()), computed when the query
// runs (limitBy).
func (b *binder) limitPercent(l *ast.Limit) (p *float64, computed bool, err error) {
	if astHasSubquery(l.Count) { // bind_group_subquery.go
		return nil, true, nil
	}
	v, null, volatile, err := b.foldNumber(l.Count, "LIMIT … %") // bind_sample.go
	switch {
	case err != nil:
		return nil, false, err
	case volatile:
		return nil, true, nil
	case null:
		return nil, false, nil
	case v < 0:
		return nil, false, b.errAt(b.q.tokAt(l.Count.Extent().Start), ErrType, fmt.Sprintf("Percentage value(%f) can't be negative", v))
	case !(v <= 100): // NaN too
		return nil, false, b.errAt(b.q.tokAt(l.Count.Extent().Start), ErrType, "limit percent out of range, should be between 0% and 100%")
	}
	return &v, false, nil
}

// orderBindable reports whether every ORDER BY key has a bind case.
func orderBindable(os []*ast.OrderItem) bool {
	for _, o := range os {
		if o.X == nil || !astBindable(o.X) {
			return false
		}
	}
	return true
}

// excludeKey is an EXCLUDE name as the star's columns are matched with it:
// name, or qualifier.name, lower case.
func excludeKey(n ast.Name) string {
	k := strings.ToLower(n.Last().Name)
	if len(n) > 1 {
		k = strings.ToLower(n[len(n)-2].Name) + "." + k
	}
	if len(n) > 2 { // s.t.col: the schema too (colSchemas)
		k = strings.ToLower(n[len(n)-3].Name) + "." + k
	}
	return k
}

func hasKey(m map[string]bool, k string) bool {
	_, ok := m[k]
	return ok
}

// itemText is the user's text of a select item without its alias, as the
// column name of an unnamed expression.
func (b *binder) itemText(sp span) string {
	if sp.hi <= sp.lo || sp.hi > len(b.q.toks) {
		return "?column?"
	}
	return strings.TrimSpace(b.q.src.Text[b.q.toks[sp.lo].off:b.q.toks[sp.hi-1].end])
}

func (b *binder) inScope(name string) bool {
	for _, col := range b.scope {
		if strings.EqualFold(col.Name, name) {
			return true
		}
	}
	return false
}

// ordinal reports whether e is a positive integer literal (a position in
// the select list).
func ordinal(e callexpr.Expr) (int, bool) {
	if s, ok := e.(*syntaxSrc); ok {
		return astOrdinal(s.n)
	}
	v, ok := e.(*callexpr.SQLVal)
	if !ok || v.Type != callexpr.IntVal {
		return 0, false
	}
	n, err := strconv.Atoi(string(v.Val))
	if err != nil {
		return 1 << 30, true
	}
	return n, true
}

func (b *binder) orderTarget(e callexpr.Expr, items []selItem, proj *planner.Project, sp span, aggregating, distinct bool) (planner.Column, error) {
	if n, ok := ordinal(e); ok {
		if n < 1 || n > len(items) {
			return planner.Column{}, b.errAt(sp.lo, ErrUnknownColumn, fmt.Sprintf("ORDER BY position %d is not in select list (1..%d)", n, len(items)))
		}
		return proj.Out[n-1], nil
	}
	if constantOrderKey(e) {
		return planner.Column{}, b.errAt(sp.lo, ErrSyntax, "ORDER BY non-integer literal has no effect")
	}
	// An output name wins over an input column, as in DuckDB; an explicit
	// alias over a column's own name (SELECT i, i % 2 AS i … ORDER BY i
	// orders by the alias), and of several equal aliases the last, as
	// DuckDB's alias map keeps it.
	if name, ok := bareName(e); ok {
		for i := len(items) - 1; i >= 0; i-- {
			if it := items[i]; it.alias != "" && strings.EqualFold(it.alias, name) {
				return proj.Out[i], nil
			}
		}
		for i, it := range items {
			if strings.EqualFold(it.name, name) && (it.alias != "" || it.star != nil || isColName(it.src)) {
				return proj.Out[i], nil
			}
		}
	}
	c := ectx{sp: b.q.orderExprSpan(sp), clause: "ORDER BY", aggOK: aggregating}
	x, err := b.bindClauseExpr(e, c)
	if err != nil {
		return planner.Column{}, err
	}
	if aggregating {
		if x, err = b.finalize(x, e, c); err != nil {
			return planner.Column{}, err
		}
	}
	for i, y := range proj.Exprs[:len(items)] {
		if y.String() == x.String() && y.Type() == x.Type() {
			return proj.Out[i], nil
		}
	}
	if distinct && !readsOnlyItems(x, proj.Exprs[:len(items)]) {
		return planner.Column{}, b.errAt(sp.lo, ErrGrouping, "for SELECT DISTINCT, ORDER BY expressions must appear in the select list")
	}
	for i := len(items); i < len(proj.Exprs); i++ {
		if proj.Exprs[i].String() == x.String() && proj.Exprs[i].Type() == x.Type() {
			return proj.Out[i], nil
		}
	}
	col := b.newCol(x.String(), "", x.Type())
	proj.Exprs = append(proj.Exprs, x)
	proj.Out = append(proj.Out, col)
	return col, nil
}

// readsOnlyItems reports whether x, an ORDER BY key of a SELECT
// DISTINCT, is computed from the select list alone: every column it reads
// is a select item of its own, and it calls nothing volatile. Such a key
// is one value per distinct row, so it may be a hidden column under the
// DISTINCT (SELECT DISTINCT g … ORDER BY lower(g), as DuckDB allows).
func readsOnlyItems(x planner.Expr, items []planner.Expr) bool {
	if hasVolatileCall(x) {
		return false
	}
	selected := map[planner.ColID]bool{}
	for _, it := range items {
		if r, ok := it.(*planner.ColRef); ok {
			selected[r.Col.ID] = true
		}
	}
	only, any := true, false
	planner.WalkExpr(x, func(e planner.Expr) {
		if r, ok := e.(*planner.ColRef); ok {
			any = true
			only = only && selected[r.Col.ID]
		}
	})
	return only && any
}

func isColName(e callexpr.Expr) bool {
	if s, ok := e.(*syntaxSrc); ok {
		_, ok := s.n.(*ast.ColumnRef)
		return ok
	}
	_, ok := e.(*callexpr.ColName)
	return ok
}

// bareName reports whether e is an unqualified column name, and which.
func bareName(e callexpr.Expr) (string, bool) {
	if s, ok := e.(*syntaxSrc); ok {
		if c, ok := s.n.(*ast.ColumnRef); ok && len(c.Name) == 1 {
			return c.Name[0].Name, true
		}
		return "", false
	}
	if col, ok := e.(*callexpr.ColName); ok && col.Qualifier.IsEmpty() {
		return col.Name.String(), true
	}
	return "", false
}

// skipLiteralKey reports whether the ORDER BY or DISTINCT ON key e is
// left out: a literal other than an integer, which orders nothing, under
// order_by_non_integer_literal = true (without it such a key is an error,
// as in DuckDB).
func (b *binder) skipLiteralKey(e callexpr.Expr) bool {
	return constantOrderKey(e) && b.settingOn("order_by_non_integer_literal", false)
}

// constantOrderKey reports a literal other than an integer as an ORDER BY
// key, which DuckDB refuses (it would sort nothing).
func constantOrderKey(e callexpr.Expr) bool {
	switch v := e.(type) {
	case *syntaxSrc:
		l, ok := v.n.(*ast.Literal)
		if !ok {
			return false
		}
		isInt, _ := plainNumber(l.Val)
		return l.Kind != ast.LitNumber || !isInt
	case *callexpr.NullVal, callexpr.BoolVal:
		return true
	case *callexpr.SQLVal:
		return v.Type != callexpr.IntVal && v.Type != callexpr.ValArg
	}
	return false
}
