package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// fromItem is a bound FROM element: its plan and the columns it puts in
// scope (Table is the qualifier). Hidden columns (the duplicates a USING or
// NATURAL join merges) are reachable only qualified and left out of *.
type fromItem struct {
	node   planner.Node
	cols   []planner.Column
	quals  []string
	hidden map[planner.ColID]bool
}

func itemOf(n planner.Node, alias string) *fromItem {
	return &fromItem{node: n, cols: n.Schema(), quals: []string{alias}, hidden: map[planner.ColID]bool{}}
}

// bindFromList binds the comma-separated FROM elements, left to right, as
// cross joins (WHERE conditions become join conditions in the optimizer)
// and puts their columns in scope.
func (b *binder) bindFromList(from sqlparser.TableExprs) (planner.Node, error) {
	var acc *fromItem
	for _, te := range from {
		it, err := b.bindTableExpr(te)
		if err != nil {
			return nil, err
		}
		if acc == nil {
			acc = it
			continue
		}
		if acc, err = b.joinItems(acc, it, planner.JoinCross, joinCond{}, false); err != nil {
			return nil, err
		}
	}
	b.scope, b.quals, b.hidden = acc.cols, acc.quals, acc.hidden
	return acc.node, nil
}

// bindTableExpr binds one FROM element.
func (b *binder) bindTableExpr(te sqlparser.TableExpr) (*fromItem, error) {
	sp := b.cl.from
	switch t := te.(type) {
	case *sqlparser.JoinTableExpr:
		left, err := b.bindTableExpr(t.LeftExpr)
		if err != nil {
			return nil, err
		}
		right, err := b.bindTableExpr(t.RightExpr)
		if err != nil {
			return nil, err
		}
		kind, natural := planner.JoinInner, false
		switch t.Join {
		case sqlparser.JoinStr, sqlparser.StraightJoinStr:
		case sqlparser.LeftJoinStr:
			kind = planner.JoinLeft
		case sqlparser.RightJoinStr:
			kind = planner.JoinRight
		case sqlparser.FullOuterJoinStr:
			kind = planner.JoinFull
		case sqlparser.NaturalJoinStr:
			natural = true
		case sqlparser.NaturalLeftJoinStr:
			kind, natural = planner.JoinLeft, true
		case sqlparser.NaturalRightJoinStr:
			kind, natural = planner.JoinRight, true
		default:
			return nil, b.errAt(b.q.findKeyword("JOIN", sp), ErrUnsupported, strings.ToUpper(t.Join)+" is not supported")
		}
		if kind == planner.JoinInner && !natural && t.Condition.On == nil && len(t.Condition.Using) == 0 {
			kind = planner.JoinCross
		}
		return b.joinItems(left, right, kind, b.vitessJoinCond(t.Condition), natural)
	case *sqlparser.ParenTableExpr:
		var acc *fromItem
		for _, x := range t.Exprs {
			it, err := b.bindTableExpr(x)
			if err != nil {
				return nil, err
			}
			if acc == nil {
				acc = it
			} else if acc, err = b.joinItems(acc, it, planner.JoinCross, joinCond{}, false); err != nil {
				return nil, err
			}
		}
		return acc, nil
	case *sqlparser.TableFuncExpr:
		if strings.EqualFold(t.Name, "summarize") {
			return b.bindSummarize(t.Exprs, t.Alias.String()) // bind_summarize.go
		}
		if strings.EqualFold(t.Name, "unnest") {
			return b.bindUnnestTable(t.Alias.String(), b.q.findName("", t.Name, sp)) // bind_unnest.go
		}
		if strings.EqualFold(t.Name, "duckdb_settings") {
			return b.bindSettingsTable(t.Exprs, t.Alias.String()) // bind_settings.go
		}
		if strings.EqualFold(t.Name, "duckdb_functions") {
			return b.bindFunctionsTable(t.Exprs, t.Alias.String()) // bind_func_table.go
		}
		n, err := b.bindTableFunc(t.Name, t.Exprs, t.Alias.String())
		if err != nil {
			return nil, err
		}
		return itemOf(n, n.(*planner.Scan).Alias), nil
	case *sqlparser.AliasedTableExpr:
		if t.AsOf != nil {
			return nil, b.errAt(b.q.findKeyword("AS", sp), ErrUnsupported, "AS OF is not supported")
		}
		if t.Hints != nil || len(t.Partitions) > 0 {
			return nil, b.errAt(sp.lo, ErrUnsupported, "index hints and partitions are not supported")
		}
		alias := t.As.String()
		switch e := t.Expr.(type) {
		case sqlparser.TableName:
			if e.DbQualifier.IsEmpty() {
				if it, ok, err := b.bindCTERef(e.Name.String(), alias); ok || err != nil {
					return it, err
				}
				if it, ok, err := b.bindViewRef(e.Name.String(), alias); ok || err != nil {
					return it, err
				}
			}
			n, err := b.bindTableName(e, alias)
			if err != nil {
				return nil, err
			}
			return itemOf(n, n.(*planner.Scan).Alias), nil
		case *sqlparser.Subquery:
			return b.bindDerived(e, alias)
		case *sqlparser.ValuesStatement:
			return b.bindValuesTable(e, alias)
		}
	}
	return nil, b.errAt(sp.lo, ErrUnsupported, "this FROM clause is not supported")
}

// joinCond is a join's ON condition or USING list (neither: a cross
// join, or a natural one).
type joinCond struct {
	using []string
	on    func(c ectx) (planner.Expr, error) // binds ON as a boolean; nil: none
}

// vitessJoinCond is the joinCond of a vitess join.
func (b *binder) vitessJoinCond(cond sqlparser.JoinCondition) joinCond {
	var jc joinCond
	for _, c := range cond.Using {
		jc.using = append(jc.using, c.String())
	}
	if on := cond.On; on != nil {
		jc.on = func(c ectx) (planner.Expr, error) {
			x, src, err := b.bindEither(b.onSyntax(on), on, c)
			if err == nil {
				x, err = b.boolean(x, src, c, "ON")
			}
			return x, err
		}
	}
	return jc
}

// joinItems joins two bound FROM elements. cond is ON or USING; natural
// joins on every column name the two sides share.
func (b *binder) joinItems(l, r *fromItem, kind planner.JoinKind, cond joinCond, natural bool) (*fromItem, error) {
	sp := b.cl.from
	for _, q := range r.quals {
		for _, p := range l.quals {
			if strings.EqualFold(p, q) {
				at := b.q.findName("", q, sp)
				return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("duplicate table name %q in FROM; use an alias", q))
			}
		}
	}
	out := &fromItem{
		cols:   append(append([]planner.Column(nil), l.cols...), r.cols...),
		quals:  append(append([]string(nil), l.quals...), r.quals...),
		hidden: map[planner.ColID]bool{},
	}
	for id := range l.hidden {
		out.hidden[id] = true
	}
	for id := range r.hidden {
		out.hidden[id] = true
	}
	j := &planner.Join{Left: l.node, Right: r.node, Kind: kind}
	out.node = j
	var using []string
	switch {
	case natural:
		for _, c := range l.cols {
			if l.hidden[c.ID] {
				continue
			}
			if _, ok := visible(r, c.Name); ok {
				using = append(using, c.Name)
			}
		}
		if len(using) == 0 {
			return nil, b.errAt(sp.lo, ErrSyntax, "no columns found to join on in NATURAL JOIN (use CROSS JOIN for a cross product)")
		}
	case len(cond.using) > 0:
		using = cond.using
	case cond.on != nil:
		saved := b.saveScope()
		b.scope, b.quals, b.hidden = out.cols, out.quals, out.hidden
		x, err := cond.on(ectx{sp: sp, clause: "ON"})
		b.restoreScope(saved)
		if err != nil {
			return nil, err
		}
		j.EquiKeys, j.Cond = planner.SplitJoinCond(x, l.node.Schema(), r.node.Schema())
		return out, nil
	default:
		return out, nil
	}
	// USING / NATURAL: equalities of same-named columns; the merged column
	// is the left one (inner, left) or their COALESCE (right, full), shown
	// once under its bare name in the left column's place (as DuckDB).
	var conds []planner.Expr
	var merged []planner.Expr
	var mergedCols []planner.Column
	for _, name := range using {
		lc, lok := visible(l, name)
		rc, rok := visible(r, name)
		if !lok || !rok {
			at := b.q.findName("", name, sp)
			return nil, b.errAt(at, ErrUnknownColumn, fmt.Sprintf("column %q in USING is not on both sides of the join", name))
		}
		src := []sqlparser.Expr{&sqlparser.ColName{Name: sqlparser.NewColIdent(name)}, &sqlparser.ColName{Name: sqlparser.NewColIdent(name)}}
		xs, t, err := b.unify([]planner.Expr{&planner.ColRef{Col: lc}, &planner.ColRef{Col: rc}}, src, ectx{sp: sp, clause: "USING"}, true, "compare")
		if err != nil {
			return nil, err
		}
		conds = append(conds, &planner.Call{Fn: "=", Args: xs, T: columnar.TBool})
		switch kind {
		case planner.JoinRight, planner.JoinFull:
			out.hidden[lc.ID], out.hidden[rc.ID] = true, true
			col := b.newCol(lc.Name, "", t)
			merged = append(merged, &planner.Call{Fn: "coalesce", Args: xs, T: t})
			mergedCols = append(mergedCols, col)
		default:
			out.hidden[rc.ID] = true
		}
	}
	j.EquiKeys, j.Cond = planner.SplitJoinCond(planner.JoinAnd(conds), l.node.Schema(), r.node.Schema())
	if len(merged) > 0 {
		p := &planner.Project{Input: j}
		var cols []planner.Column
		for _, c := range j.Schema() {
			p.Exprs = append(p.Exprs, &planner.ColRef{Col: c})
			p.Out = append(p.Out, c)
		}
		p.Exprs = append(p.Exprs, merged...)
		p.Out = append(p.Out, mergedCols...)
		// The merged columns take the place of the left ones in *.
		k := 0
		for _, c := range out.cols {
			if k < len(mergedCols) && strings.EqualFold(c.Name, mergedCols[k].Name) && c.Table != "" && out.hidden[c.ID] && containsCol(l.cols, c.ID) {
				cols = append(cols, mergedCols[k])
				k++
			}
			cols = append(cols, c)
		}
		cols = append(cols, mergedCols[k:]...)
		out.cols = cols
		out.node = p
	}
	return out, nil
}

func containsCol(cols []planner.Column, id planner.ColID) bool {
	for _, c := range cols {
		if c.ID == id {
			return true
		}
	}
	return false
}

// visible finds the one unhidden column named name.
func visible(it *fromItem, name string) (planner.Column, bool) {
	var found []planner.Column
	for _, c := range it.cols {
		if !it.hidden[c.ID] && strings.EqualFold(c.Name, name) {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		return planner.Column{}, false
	}
	return found[0], true
}

type savedScope struct {
	scope  []planner.Column
	quals  []string
	hidden map[planner.ColID]bool
}

func (b *binder) saveScope() savedScope { return savedScope{b.scope, b.quals, b.hidden} }
func (b *binder) restoreScope(s savedScope) {
	b.scope, b.quals, b.hidden = s.scope, s.quals, s.hidden
}
