package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// selItem is one output column of the select list after * expansion.
type selItem struct {
	src   sqlparser.Expr  // nil for a column from *
	star  *planner.Column // the column a * expanded to
	alias string          // AS name, "" if none
	name  string          // name shown to the user
	sp    span
	expr  planner.Expr // bound
}

func (b *binder) bindSelect() (*Bound, error) {
	sel := b.q.sel
	b.sel = b.q.selectSyntax() // for windows bound from the syntax tree
	b.groupSets = b.q.rw.groupSets
	input, err := b.bindFrom()
	if err != nil {
		return nil, err
	}
	items, err := b.expandSelect()
	if err != nil {
		return nil, err
	}
	b.items = items
	b.input = input
	if sel.Where != nil {
		if input, err = b.bindWhere(sel.Where.Expr); err != nil {
			return nil, err
		}
	}
	b.input = input

	var orderSrcs []sqlparser.SQLNode
	for _, o := range sel.OrderBy {
		orderSrcs = append(orderSrcs, o.Expr)
	}
	var selSrcs []sqlparser.SQLNode
	for _, it := range items {
		if it.src != nil {
			selSrcs = append(selSrcs, it.src)
		}
	}
	aggregating := len(sel.GroupBy) > 0 || b.q.rw.groupAll || b.q.rw.groupSets != nil || sel.Having != nil || hasAgg(selSrcs...) || hasAgg(orderSrcs...)
	if aggregating {
		b.noSubq = "GROUP BY"
		if err := b.bindGroupBy(items); err != nil {
			return nil, err
		}
		// Subqueries above the grouping join onto the grouped rows.
		b.noSubq, b.postAgg = "", true
	}

	b.win = &winState{}
	// The select list.
	for i := range items {
		it := &items[i]
		if it.star != nil {
			it.expr = &planner.ColRef{Col: *it.star}
			if aggregating {
				x, err := b.finalize(it.expr, ectx{sp: b.cl.sel})
				if err != nil {
					return nil, err
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
			return nil, err
		}
		if aggregating {
			if x, err = b.finalize(x, c); err != nil {
				return nil, err
			}
		}
		it.expr = x
	}

	var having planner.Expr
	if sel.Having != nil {
		c := ectx{sp: b.cl.having, clause: "HAVING", aggOK: true}
		win := b.win
		b.win = nil // windows come after HAVING
		x, err := b.bindClauseExpr(sel.Having.Expr, c)
		b.win = win
		if err != nil {
			return nil, err
		}
		if x, err = b.finalize(x, c); err != nil {
			return nil, err
		}
		if having, err = b.boolean(x, sel.Having.Expr, c, "HAVING"); err != nil {
			return nil, err
		}
	}

	qualify, err := b.bindQualify(aggregating)
	if err != nil {
		return nil, err
	}
	firstOnly, err := b.bindDistinctOn(items, aggregating) // DISTINCT ON, bind_distinct_on.go
	if err != nil {
		return nil, err
	}
	distinct := sel.QueryOpts.Distinct && firstOnly == nil

	// ORDER BY may add hidden columns to the projection, and aggregates.
	proj := &planner.Project{}
	names := make([]string, len(items))
	for i, it := range items {
		proj.Exprs = append(proj.Exprs, it.expr)
		proj.Out = append(proj.Out, b.newCol(it.name, "", it.expr.Type()))
		names[i] = it.name
	}
	keys, err := b.bindOrderBy(items, proj, aggregating, distinct)
	if err != nil {
		return nil, err
	}

	if aggregating {
		a := b.agg
		if input, err = b.orderAggInput(input); err != nil { // bind_agg_ordered.go
			return nil, err
		}
		out := append(append([]planner.Column(nil), a.groupCols...), a.aggCols...)
		if b.q.rw.groupSets != nil || len(a.groupings) > 0 {
			for _, g := range a.groupings {
				out = append(out, g.col)
			}
			input = b.groupingNode(input, out) // bind_grouping_sets.go
		} else {
			input = &planner.Aggregate{Input: input, Groups: a.groups, Aggs: a.aggs, Out: out}
		}
		for _, j := range b.post {
			j.Left = input
			input = j
		}
		if having != nil {
			input = &planner.Filter{Input: input, Cond: having}
		}
	}
	if !aggregating {
		input = b.input // with the joins of select-list subqueries
	}
	if len(b.win.funcs) > 0 {
		// Windows see the rows after grouping and HAVING.
		input = &planner.Window{Input: input, Funcs: b.win.funcs, Out: b.win.cols}
	}
	b.win = nil
	if qualify != nil {
		// QUALIFY filters the rows the windows were computed over.
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
	if sel.Limit != nil {
		count, offset, err := b.bindLimit(sel.Limit)
		if err != nil {
			return nil, err
		}
		root = &planner.Limit{Input: root, Count: count, Offset: offset}
	}
	if len(proj.Out) > len(items) {
		drop := &planner.Project{Input: root}
		for _, col := range proj.Out[:len(items)] {
			drop.Exprs = append(drop.Exprs, &planner.ColRef{Col: col})
			drop.Out = append(drop.Out, b.newCol(col.Name, "", col.Type))
		}
		root = drop
	}
	return &Bound{Root: root, Names: names}, nil
}

// expandSelect lists the select items, expanding * and t.*.
func (b *binder) expandSelect() ([]selItem, error) {
	var items []selItem
	// Item spans come from our tokens (top-level commas of the select
	// clause); vitess' own item positions are unreliable without spaces.
	sel := b.cl.sel
	for sel.lo < sel.hi && (b.q.toks[sel.lo].is("DISTINCT") || b.q.toks[sel.lo].is("ALL")) {
		sel.lo++
	}
	spans := b.q.items(sel)
	if len(spans) != len(b.q.sel.SelectExprs) {
		spans = nil
	}
	stars := 0
	for k, se := range b.q.sel.SelectExprs {
		switch se := se.(type) {
		case *sqlparser.StarExpr:
			exclude, err := b.starExclusions(stars)
			if err != nil {
				return nil, err
			}
			replace, err := b.starReplacements(stars) // bind_star_replace.go
			if err != nil {
				return nil, err
			}
			stars++
			qual := se.TableName.Name.String()
			if qual != "" {
				known := false
				for _, q := range b.quals {
					known = known || strings.EqualFold(q, qual)
				}
				if !known {
					at := b.q.findName("", qual, b.cl.sel)
					return nil, b.errAt(at, ErrUnknownTable, fmt.Sprintf("unknown table %q%s", qual, didYouMean(qual, b.quals)))
				}
			}
			if len(b.scope) == 0 && qual == "" {
				at := b.q.findToken(b.cl.sel, func(t token) bool { return t.isOp("*") })
				return nil, b.errAt(at, ErrUnknownColumn, "SELECT * with no FROM clause")
			}
			for _, col := range b.scope {
				if qual == "" && b.hidden[col.ID] {
					continue
				}
				if qual == "" || strings.EqualFold(col.Table, qual) {
					if _, ex := exclude[strings.ToLower(col.Name)]; ex {
						exclude[strings.ToLower(col.Name)] = false // matched
						continue
					}
					if r, ok := replace[strings.ToLower(col.Name)]; ok {
						items = append(items, selItem{src: r.expr, alias: col.Name, name: col.Name, sp: r.sp})
						delete(replace, strings.ToLower(col.Name))
						continue
					}
					col := col
					items = append(items, selItem{star: &col, name: col.Name, sp: b.cl.sel})
				}
			}
			if err := b.excludedAll(stars-1, exclude); err != nil {
				return nil, err
			}
			for _, r := range replace {
				return nil, b.errAt(b.q.findName("", r.name, r.sp), ErrUnknownColumn, fmt.Sprintf("column %q in REPLACE is not in the FROM clause", r.name))
			}
		case *sqlparser.AliasedExpr:
			sp := b.cl.sel
			if k < len(spans) {
				sp = spans[k]
			}
			it := selItem{src: se.Expr, alias: se.As.String(), sp: sp}
			if it.alias != "" && sp.hi > sp.lo {
				// The item's text without its alias, for error search.
				sp.hi--
				if sp.hi > sp.lo && b.q.toks[sp.hi-1].is("AS") {
					sp.hi--
				}
				it.sp = sp
			}
			switch {
			case it.alias != "":
				it.name = it.alias
			default:
				if col, ok := se.Expr.(*sqlparser.ColName); ok {
					it.name = col.Name.String()
				} else {
					it.name = b.itemText(sp)
				}
			}
			items = append(items, it)
		default:
			return nil, b.errAt(b.cl.sel.lo, ErrUnsupported, "this select item is not supported")
		}
	}
	if len(items) == 0 {
		return nil, b.errAt(b.cl.sel.lo, ErrUnknownColumn, "SELECT list is empty after resolving * expressions")
	}
	return items, nil
}

// itemText is the user's text of a select item without its alias, as the
// column name of an unnamed expression.
func (b *binder) itemText(sp span) string {
	if sp.hi <= sp.lo || sp.hi > len(b.q.toks) {
		return "?column?"
	}
	return strings.TrimSpace(b.q.src.Text[b.q.toks[sp.lo].off:b.q.toks[sp.hi-1].end])
}

// bindGroupBy binds the GROUP BY keys: ordinals and select aliases first
// resolve to select items, as in DuckDB (an input column of the same name
// wins over an alias).
func (b *binder) bindGroupBy(items []selItem) error {
	b.agg = &aggState{aggKeys: map[string]int{}}
	if b.q.rw.groupAll {
		for _, it := range items {
			if it.star != nil {
				b.addGroup(&planner.ColRef{Col: *it.star})
				continue
			}
			if hasAgg(it.src) {
				continue
			}
			x, err := b.bindClauseExpr(it.src, ectx{sp: it.sp, clause: "GROUP BY"})
			if err != nil {
				return err
			}
			b.addGroup(x)
		}
		return nil
	}
	for k, g := range b.q.sel.GroupBy {
		sp := b.cl.groupBy
		if k < len(b.cl.groupItems) {
			sp = b.cl.groupItems[k]
		}
		if k < len(b.q.rw.groupExprs) {
			sp = b.q.rw.groupExprs[k] // the keys of GROUPING SETS/ROLLUP/CUBE
		}
		c := ectx{sp: sp, clause: "GROUP BY"}
		src := g
		if n, ok := ordinal(g); ok {
			if n < 1 || n > len(items) {
				return b.errAt(sp.lo, ErrUnknownColumn, fmt.Sprintf("GROUP BY position %d is not in select list (1..%d)", n, len(items)))
			}
			it := items[n-1]
			if it.star != nil {
				b.addGroup(&planner.ColRef{Col: *it.star})
				continue
			}
			src, c.sp = it.src, it.sp
		} else if col, ok := g.(*sqlparser.ColName); ok && col.Qualifier.IsEmpty() && !b.inScope(col.Name.String()) {
			for _, it := range items {
				if it.alias != "" && strings.EqualFold(it.alias, col.Name.String()) {
					src, c.sp = it.src, it.sp
					break
				}
			}
		}
		if hasAgg(src) {
			return b.errAt(b.aggTok(c.sp), ErrGrouping, "aggregate functions are not allowed in GROUP BY")
		}
		x, err := b.bindClauseExpr(src, c)
		if err != nil {
			return err
		}
		b.addGroup(x)
	}
	return nil
}

func (b *binder) addGroup(x planner.Expr) {
	a := b.agg
	name := x.String()
	if r, ok := x.(*planner.ColRef); ok {
		name = r.Col.Name
	}
	a.groups = append(a.groups, x)
	a.groupCols = append(a.groupCols, b.newCol(name, "", x.Type()))
}

// aggTok finds the first aggregate function name in sp.
func (b *binder) aggTok(sp span) int {
	return b.q.findToken(sp, func(t token) bool {
		_, ok := aggFuncs[strings.ToLower(t.val)]
		return t.kind == tkIdent && ok
	})
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
func ordinal(e sqlparser.Expr) (int, bool) {
	if s, ok := e.(*syntaxSrc); ok {
		return astOrdinal(s.n)
	}
	v, ok := e.(*sqlparser.SQLVal)
	if !ok || v.Type != sqlparser.IntVal {
		return 0, false
	}
	n, err := strconv.Atoi(string(v.Val))
	if err != nil {
		return 1 << 30, true
	}
	return n, true
}

// bindOrderBy binds the sort keys over the projection's output, adding
// hidden columns for expressions that are not in the select list.
func (b *binder) bindOrderBy(items []selItem, proj *planner.Project, aggregating, distinct bool) ([]planner.SortKey, error) {
	b.expandOrderAll(len(items)) // bind_order_all.go
	var keys []planner.SortKey
	for k, o := range b.q.sel.OrderBy {
		sp := b.cl.orderBy
		if k < len(b.cl.orderItems) {
			sp = b.cl.orderItems[k]
		}
		key := planner.SortKey{Desc: o.Direction == sqlparser.DescScr, NullsFirst: b.q.rw.nulls[k]}
		col, err := b.orderTarget(o.Expr, items, proj, sp, aggregating, distinct)
		if err != nil {
			return nil, err
		}
		key.Expr = &planner.ColRef{Col: col}
		keys = append(keys, key)
	}
	return keys, nil
}

func (b *binder) orderTarget(e sqlparser.Expr, items []selItem, proj *planner.Project, sp span, aggregating, distinct bool) (planner.Column, error) {
	if n, ok := ordinal(e); ok {
		if n < 1 || n > len(items) {
			return planner.Column{}, b.errAt(sp.lo, ErrUnknownColumn, fmt.Sprintf("ORDER BY position %d is not in select list (1..%d)", n, len(items)))
		}
		return proj.Out[n-1], nil
	}
	if constantOrderKey(e) {
		return planner.Column{}, b.errAt(sp.lo, ErrSyntax, "ORDER BY non-integer literal has no effect")
	}
	// An output name wins over an input column, as in DuckDB.
	if name, ok := bareName(e); ok {
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
		if x, err = b.finalize(x, c); err != nil {
			return planner.Column{}, err
		}
	}
	for i, y := range proj.Exprs[:len(items)] {
		if y.String() == x.String() && y.Type() == x.Type() {
			return proj.Out[i], nil
		}
	}
	if distinct {
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

func isColName(e sqlparser.Expr) bool {
	if s, ok := e.(*syntaxSrc); ok {
		_, ok := s.n.(*ast.ColumnRef)
		return ok
	}
	_, ok := e.(*sqlparser.ColName)
	return ok
}

// bareName reports whether e is an unqualified column name, and which.
func bareName(e sqlparser.Expr) (string, bool) {
	if s, ok := e.(*syntaxSrc); ok {
		if c, ok := s.n.(*ast.ColumnRef); ok && len(c.Name) == 1 {
			return c.Name[0].Name, true
		}
		return "", false
	}
	if col, ok := e.(*sqlparser.ColName); ok && col.Qualifier.IsEmpty() {
		return col.Name.String(), true
	}
	return "", false
}

// bindLimit reads LIMIT and OFFSET, which must be non-negative integer
// constants.
func (b *binder) bindLimit(l *sqlparser.Limit) (count, offset int64, err error) {
	count = -1
	read := func(e sqlparser.Expr, sp span, what string) (int64, error) {
		v, ok := e.(*sqlparser.SQLVal)
		if ok && v.Type == sqlparser.IntVal {
			if n, err := strconv.ParseInt(string(v.Val), 10, 64); err == nil {
				return n, nil
			}
		}
		if ok && v.Type == sqlparser.ValArg {
			return b.paramLimit(v, sp, what)
		}
		return 0, b.errAt(sp.lo, ErrType, what+" must be a non-negative integer constant")
	}
	if l.Rowcount != nil {
		if count, err = read(l.Rowcount, b.cl.limit, "LIMIT"); err != nil {
			return 0, 0, err
		}
		if v, ok := l.Rowcount.(*sqlparser.SQLVal); ok && string(v.Val) == noLimit {
			count = -1
		}
	}
	if l.Offset != nil {
		sp := b.cl.offset
		if sp.hi <= sp.lo {
			sp = b.cl.limit
		}
		if offset, err = read(l.Offset, sp, "OFFSET"); err != nil {
			return 0, 0, err
		}
	}
	return count, offset, nil
}

// constantOrderKey reports a literal other than an integer as an ORDER BY
// key, which DuckDB refuses (it would sort nothing).
func constantOrderKey(e sqlparser.Expr) bool {
	switch v := e.(type) {
	case *syntaxSrc:
		l, ok := v.n.(*ast.Literal)
		if !ok {
			return false
		}
		isInt, _ := plainNumber(l.Val)
		return l.Kind != ast.LitNumber || !isInt
	case *sqlparser.NullVal, sqlparser.BoolVal:
		return true
	case *sqlparser.SQLVal:
		return v.Type != sqlparser.IntVal && v.Type != sqlparser.ValArg
	}
	return false
}
