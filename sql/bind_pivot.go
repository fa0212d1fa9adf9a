package sql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// PIVOT and UNPIVOT, DuckDB's (PIVOT t ON c [IN (…)] USING agg GROUP BY
// g; UNPIVOT t ON a, b INTO NAME n VALUE v) and the SQL standard's
// (t PIVOT (agg FOR c IN (…)); t UNPIVOT (v FOR n IN (a, b))), bound as
// DuckDB rewrites them, into a query made of the statement's own nodes:
//
//   - PIVOT is SELECT g…, agg FILTER (WHERE c IS NOT DISTINCT FROM v) AS
//     "v", … FROM t GROUP BY g…: one column per value of c (per
//     combination of values with several ON columns, and per aggregate
//     with several: "v_alias"). Without GROUP BY the groups are t's
//     columns that neither ON nor USING reads; without USING the
//     aggregate is count(*); without IN the values are c's distinct
//     values in t, read when the statement is bound (as DuckDB does).
//   - UNPIVOT is SELECT kept…, unnest(['a', 'b']) AS n, unnest([a, b]) AS
//     v FROM t, then WHERE v IS NOT NULL unless INCLUDE NULLS.

// bindPivotAST binds a PIVOT or UNPIVOT table reference.
func (b *binder) bindPivotAST(pv *ast.Pivot, unnamed *int) (*fromItem, error) {
	// The source's columns decide the rewrite: bind it once to read them.
	src, err := b.bindTableRefAST(pv.Source, unnamed)
	if err != nil {
		return nil, err
	}
	var q *ast.Query
	if pv.Unpivot {
		q, err = b.unpivotQuery(pv, src)
	} else {
		q, err = b.pivotQuery(pv, src)
	}
	if err != nil {
		return nil, err
	}
	bd, _, err := b.bindNested(b.subQuery(q), false)
	if err != nil {
		return nil, err
	}
	alias := "pivot"
	if pv.Unpivot {
		alias = "unpivot"
	}
	var cols []string
	if pv.Alias != nil {
		alias = pv.Alias.Name.Name
		cols = aliasColumns(pv.Alias)
	}
	return b.relation(bd, alias, cols, b.errAtRef(pv))
}

// The rewrite's nodes sit on the PIVOT (sp), where errors about them
// point; names are quoted, as the columns they name are spelt.
func pivotIdent(sp ast.Span, name string) *ast.Ident {
	return &ast.Ident{Span: sp, Name: name, Quoted: true}
}

func pivotCol(sp ast.Span, name string) *ast.ColumnRef {
	return &ast.ColumnRef{Span: sp, Name: ast.Name{pivotIdent(sp, name)}}
}

func pivotString(sp ast.Span, s string) *ast.Literal {
	return &ast.Literal{Span: sp, Kind: ast.LitString, Val: s}
}

// unpivotQuery builds UNPIVOT's query.
func (b *binder) unpivotQuery(pv *ast.Pivot, src *fromItem) (*ast.Query, error) {
	sp := pv.Span
	if len(pv.On) == 0 {
		return nil, b.errAt(b.q.tokAt(sp.Start), ErrSyntax, "UNPIVOT needs ON and the columns to unpivot")
	}
	// The unpivoted columns, by name, with the name each is listed under.
	var names []string
	var values [][]ast.Expr // per entry: one expression per VALUE column
	used := map[string]bool{}
	saved := b.saveScope()
	b.scope, b.quals, b.hidden = src.cols, src.quals, src.hidden
	defer b.restoreScope(saved)
	for _, on := range pv.On {
		var group []ast.Expr
		if row, ok := on.X.(*ast.Row); ok {
			group = row.Elems
		} else {
			group = []ast.Expr{on.X}
		}
		if c, ok := on.X.(*ast.Columns); ok {
			ms, err := b.columnsMatches(c)
			if err != nil {
				return nil, err
			}
			for _, m := range ms {
				names = append(names, m.name)
				values = append(values, []ast.Expr{m.x})
				used[strings.ToLower(m.name)] = true
			}
			continue
		}
		var name []string
		for _, x := range group {
			ref, ok := x.(*ast.ColumnRef)
			if !ok {
				return nil, b.errAt(b.q.tokAt(x.Extent().Start), ErrUnsupported, "UNPIVOT takes columns (or COLUMNS(…))")
			}
			name = append(name, ref.Name.Last().Name)
			used[strings.ToLower(ref.Name.Last().Name)] = true
		}
		n := strings.Join(name, "_")
		if on.Alias != nil {
			n = on.Alias.Name
		}
		names = append(names, n)
		values = append(values, group)
	}
	if len(values[0]) != len(pv.Values) {
		return nil, b.errAt(b.q.tokAt(sp.Start), ErrType, fmt.Sprintf("UNPIVOT: %d VALUE columns for groups of %d columns", len(pv.Values), len(values[0])))
	}
	sel := &ast.Select{Span: sp, From: []ast.TableRef{pv.Source}}
	for _, c := range b.visibleScope() {
		if !used[strings.ToLower(c.Name)] {
			sel.Items = append(sel.Items, &ast.SelectItem{Span: sp, X: pivotCol(sp, c.Name)})
		}
	}
	unnest := func(xs []ast.Expr, as string) *ast.SelectItem {
		call := &ast.Func{Span: sp, Name: ast.Name{{Span: sp, Name: "unnest"}}, Args: []ast.Expr{&ast.List{Span: sp, Elems: xs}}}
		return &ast.SelectItem{Span: sp, X: call, Alias: pivotIdent(sp, as)}
	}
	var nameLits []ast.Expr
	for _, n := range names {
		nameLits = append(nameLits, pivotString(sp, n))
	}
	sel.Items = append(sel.Items, unnest(nameLits, pv.Name.Name))
	for k, v := range pv.Values {
		var xs []ast.Expr
		for _, g := range values {
			if len(g) != len(pv.Values) {
				return nil, b.errAt(b.q.tokAt(sp.Start), ErrType, "UNPIVOT: every group must have as many columns as VALUE names")
			}
			xs = append(xs, g[k])
		}
		sel.Items = append(sel.Items, unnest(xs, v.Name))
	}
	inner := &ast.Query{Span: sp, Body: sel}
	if pv.IncludeNulls {
		return inner, nil
	}
	// Rows whose values are all NULL go, as DuckDB drops them.
	var keep ast.Expr
	for _, v := range pv.Values {
		var c ast.Expr = &ast.Is{Span: sp, X: pivotCol(sp, v.Name), Not: true, What: "NULL"}
		if keep != nil {
			c = &ast.Binary{Span: sp, Op: "OR", L: keep, R: c}
		}
		keep = c
	}
	outer := &ast.Select{Span: sp, Items: []*ast.SelectItem{{Span: sp, X: &ast.Star{Span: sp}}},
		From: []ast.TableRef{&ast.Derived{Span: sp, Query: inner, Alias: &ast.Alias{Span: sp, Name: pivotIdent(sp, "unpivot")}}}, Where: keep}
	return &ast.Query{Span: sp, Body: outer}, nil
}

// pivotValue is one value of an ON column: its text (the column name it
// gives) and the condition selecting its rows.
type pivotValue struct {
	name string
	cond ast.Expr
}

// pivotQuery builds PIVOT's query.
func (b *binder) pivotQuery(pv *ast.Pivot, src *fromItem) (*ast.Query, error) {
	sp := pv.Span
	if len(pv.On) == 0 {
		return nil, b.errAt(b.q.tokAt(sp.Start), ErrSyntax, "PIVOT needs ON and the column whose values become columns")
	}
	using := pv.Using
	if len(using) == 0 {
		using = []*ast.SelectItem{{Span: sp, X: &ast.Func{Span: sp, Name: ast.Name{{Span: sp, Name: "count"}}, Star: true}}}
	}
	// Each ON column's values, then every combination of them.
	combos := [][]pivotValue{nil}
	for _, on := range pv.On {
		vals, err := b.pivotValues(pv, on)
		if err != nil {
			return nil, err
		}
		var next [][]pivotValue
		for _, c := range combos {
			for _, v := range vals {
				next = append(next, append(append([]pivotValue(nil), c...), v))
			}
		}
		combos = next
	}
	sel := &ast.Select{Span: sp, From: []ast.TableRef{pv.Source}, GroupBy: &ast.GroupBy{Span: sp}}
	groups := pv.GroupBy
	if groups == nil {
		// Every column neither ON nor USING reads.
		read := map[string]bool{}
		mark := func(e ast.Expr) {
			ast.WalkAll(e, func(n ast.Node) {
				if r, ok := n.(*ast.ColumnRef); ok {
					read[strings.ToLower(r.Name.Last().Name)] = true
				}
			})
		}
		for _, on := range pv.On {
			mark(on.X)
		}
		for _, u := range using {
			mark(u.X)
		}
		saved := b.saveScope()
		b.scope, b.quals, b.hidden = src.cols, src.quals, src.hidden
		scope := b.visibleScope()
		b.restoreScope(saved)
		for _, c := range scope {
			if !read[strings.ToLower(c.Name)] {
				groups = append(groups, pivotCol(sp, c.Name))
			}
		}
	}
	for _, g := range groups {
		sel.Items = append(sel.Items, &ast.SelectItem{Span: g.Extent(), X: g})
		sel.GroupBy.Items = append(sel.GroupBy.Items, g)
	}
	if len(groups) == 0 {
		sel.GroupBy = nil
	}
	for _, c := range combos {
		var names []string
		var cond ast.Expr
		for _, v := range c {
			names = append(names, v.name)
			if cond == nil {
				cond = v.cond
			} else {
				cond = &ast.Binary{Span: sp, Op: "AND", L: cond, R: v.cond}
			}
		}
		name := strings.Join(names, "_")
		for _, u := range using {
			fn, ok := u.X.(*ast.Func)
			if !ok {
				return nil, b.errAt(b.q.tokAt(u.Start), ErrUnsupported, "PIVOT's USING takes aggregate calls")
			}
			f := *fn
			if f.Filter != nil {
				f.Filter = &ast.Binary{Span: sp, Op: "AND", L: cond, R: f.Filter}
			} else {
				f.Filter = cond
			}
			col := name
			switch {
			case u.Alias != nil:
				col += "_" + u.Alias.Name
			case len(using) > 1:
				col += "_" + b.q.src.Text[fn.Start:fn.End]
			}
			sel.Items = append(sel.Items, &ast.SelectItem{Span: u.Span, X: &f, Alias: pivotIdent(sp, col)})
		}
	}
	return &ast.Query{Span: sp, Body: sel}, nil
}

// pivotValues returns the values of ON column on: its IN list, or the
// distinct values the source holds, in order.
func (b *binder) pivotValues(pv *ast.Pivot, on *ast.PivotOn) ([]pivotValue, error) {
	sp := on.Span
	text := func(x ast.Expr) *ast.Cast {
		return &ast.Cast{Span: sp, X: x, Type: &ast.TypeName{Span: sp, Name: "VARCHAR"}}
	}
	var out []pivotValue
	if on.InEnum != nil {
		return nil, b.errAt(b.q.tokAt(on.InEnum.Start), ErrUnsupported, "PIVOT … IN an ENUM type is not supported (b2sql has no ENUM)")
	}
	if len(on.In) > 0 {
		for _, it := range on.In {
			name := b.q.src.Text[it.X.Extent().Start:it.X.Extent().End]
			if l, ok := it.X.(*ast.Literal); ok {
				name = l.Val
			}
			if it.Alias != nil {
				name = it.Alias.Name
			}
			out = append(out, pivotValue{name: name, cond: &ast.DistinctFrom{Span: sp, L: on.X, R: it.X, Not: true}})
		}
		return out, nil
	}
	// SELECT DISTINCT CAST(x AS VARCHAR) FROM source ORDER BY 1, run now.
	sel := &ast.Select{Span: pv.Span, Distinct: true, Items: []*ast.SelectItem{{Span: sp, X: text(on.X)}}, From: []ast.TableRef{pv.Source}}
	q := &ast.Query{Span: pv.Span, Body: sel, OrderBy: []*ast.OrderItem{{Span: sp, X: &ast.Literal{Span: sp, Kind: ast.LitNumber, Val: "1"}}}}
	bd, _, err := b.bindNested(b.subQuery(q), false)
	if err != nil {
		return nil, err
	}
	vals, err := runForValues(bd.Root)
	if err != nil {
		return nil, b.errAt(b.q.tokAt(pv.Start), ErrUnsupported, fmt.Sprintf("PIVOT: reading the values of %s: %v", b.q.src.Text[on.X.Extent().Start:on.X.Extent().End], err))
	}
	for _, v := range vals {
		if v == nil {
			out = append(out, pivotValue{name: "NULL", cond: &ast.Is{Span: sp, X: on.X, What: "NULL"}})
			continue
		}
		out = append(out, pivotValue{name: *v, cond: &ast.DistinctFrom{Span: sp, L: text(on.X), R: pivotString(sp, *v), Not: true}})
	}
	return out, nil
}

// maxPivotColumns bounds the values a PIVOT without IN turns into
// columns (DuckDB's pivot_limit default).
const maxPivotColumns = 100000

// runForValues runs plan root, one VARCHAR column, and returns its values
// (nil for NULL): the binder reads PIVOT's values from the data, as
// DuckDB's PIVOT statement does before it binds the rest.
func runForValues(root planner.Node) ([]*string, error) {
	built, err := planner.Build(root, planner.BuildOptions{Threads: 1})
	if err != nil {
		return nil, err
	}
	op := built.Root
	ctx := context.Background()
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		return nil, err
	}
	var out []*string
	for {
		bt, err := op.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		v := bt.Cols[0]
		for k := 0; k < bt.Live(); k++ {
			r := bt.Row(k)
			if v.Const {
				r = 0
			}
			if v.IsNull(r) {
				out = append(out, nil)
				continue
			}
			s := v.Value(r).S
			out = append(out, &s)
		}
		if len(out) > maxPivotColumns {
			return nil, fmt.Errorf("more than %d values", maxPivotColumns)
		}
	}
}
