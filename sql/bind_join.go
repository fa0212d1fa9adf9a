package sql

import (
	"fmt"
	"maps"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

const (
	// hideBare: a column merged by USING, or of a table only qualified
	// names reach: a bare name does not reach it, nor does *.
	hideBare hide = 1 << iota
	// hideStar: a virtual column (VirtualTable): names reach it; *,
	// COLUMNS and NATURAL JOIN do not list it (DuckDB's virtual columns).
	hideStar
)

// itemOf is the FROM element of n; the virtual columns of a scanned
// VirtualTable are hidden from *.
func itemOf(n planner.Node, alias string) *fromItem {
	it := &fromItem{node: n, cols: n.Schema(), quals: []string{alias}, hidden: map[planner.ColID]hide{}}
	if s, ok := n.(*planner.Scan); ok {
		if vt, ok := s.Table.(VirtualTable); ok {
			for i, c := range s.Cols {
				if vt.Virtual(s.TableCols[i]) {
					it.hidden[c.ID] |= hideStar
				}
			}
		}
	}
	return it
}

// errAtRef reports errors at FROM item r's name (refTok).
func (b *binder) errAtRef(r ast.TableRef) func(kind error, msg string) error {
	at := b.refTok(r)
	return func(kind error, msg string) error { return b.errAt(at, kind, msg) }
}

// errSpanAt reports errors at span s (errSpan).
func (b *binder) errSpanAt(s ast.Span) func(kind error, msg string) error {
	return func(kind error, msg string) error { return b.errSpan(s, kind, msg) }
}

// refTok is the token of FROM item r's name: its alias, or where it
// starts.
func (b *binder) refTok(r ast.TableRef) int {
	var a *ast.Alias
	switch r := r.(type) {
	case *ast.Table:
		a = r.Alias
	case *ast.TableFunc:
		a = r.Alias
	case *ast.Derived:
		a = r.Alias
	case *ast.Join:
		a = r.Alias
	case *ast.Pivot:
		a = r.Alias
	case nil:
		return 0 // every join the binder makes names its right side
	}
	if a != nil {
		return b.q.tok(a.Name.Span)
	}
	return b.q.tok(r.Extent())
}

// joinItems joins two bound FROM elements. cond is ON or USING; natural
// joins on every column name the two sides share.
func (b *binder) joinItems(l, r *fromItem, kind planner.JoinKind, cond joinCond, natural bool) (*fromItem, error) {
	rightAt := b.refTok(cond.right)
	sp := span{rightAt, rightAt + 1}
	for _, q := range r.quals {
		for _, p := range l.quals {
			// s.t beside a t of another schema or a WITH entry t: their
			// full names differ (DuckDB compares those).
			sl, sr := b.qualSchema(l, p), b.qualSchema(r, q)
			other := func(s string) bool { return s != "" && s != strings.ToLower(DefaultSchema) }
			if strings.EqualFold(p, q) && !(sl != sr && (other(sl) || other(sr))) {
				return nil, b.errAt(rightAt, ErrUnsupported, fmt.Sprintf("duplicate table name %q in FROM; use an alias", q))
			}
		}
	}
	out := &fromItem{
		cols:   append(append([]planner.Column(nil), l.cols...), r.cols...),
		quals:  append(append([]string(nil), l.quals...), r.quals...),
		hidden: cloneHidden(l.hidden),
	}
	maps.Copy(out.hidden, r.hidden)
	j := &planner.Join{Left: l.node, Right: r.node, Kind: kind}
	out.node = j
	var using []*ast.Ident
	switch {
	case natural:
		for _, c := range l.cols {
			if l.hidden[c.ID] != 0 {
				continue // nor are virtual columns joined on (as DuckDB)
			}
			if rc, ok := visible(r, c.Name); ok && r.hidden[rc.ID] == 0 {
				using = append(using, &ast.Ident{Span: b.q.tokExtent(rightAt), Name: c.Name})
			}
		}
		if len(using) == 0 {
			return nil, b.errAt(rightAt, ErrSyntax, "no columns found to join on in NATURAL JOIN (use CROSS JOIN for a cross product)")
		}
	case len(cond.using) > 0:
		using = cond.using
	case cond.on != nil && cond.onSubquery:
		return b.joinOnSubquery(l, r, out, kind, cond, sp)
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
	for _, u := range using {
		name := u.Name
		lc, lok := visible(l, name)
		rc, rok := visible(r, name)
		if !lok || !rok {
			return nil, b.errAt(b.q.tok(u.Span), ErrUnknownColumn, fmt.Sprintf("column %q in USING is not on both sides of the join", name))
		}
		col := &callexpr.ColName{At: u.Span, Name: callexpr.NewColIdent(name)}
		src := []callexpr.Expr{col, col}
		xs, t, err := b.unify([]planner.Expr{&planner.ColRef{Col: lc}, &planner.ColRef{Col: rc}}, src, ectx{sp: sp, clause: "USING"}, true, "compare")
		if err != nil {
			return nil, err
		}
		conds = append(conds, &planner.Call{Fn: "=", Args: xs, T: columnar.TBool})
		switch kind {
		case planner.JoinRight, planner.JoinFull:
			out.hidden[lc.ID] |= hideBare
			out.hidden[rc.ID] |= hideBare
			col := b.newCol(lc.Name, "", t)
			merged = append(merged, &planner.Call{Fn: "coalesce", Args: xs, T: t})
			mergedCols = append(mergedCols, col)
		default:
			out.hidden[rc.ID] |= hideBare
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
			if k < len(mergedCols) && strings.EqualFold(c.Name, mergedCols[k].Name) && c.Table != "" && out.hidden[c.ID]&hideBare != 0 && containsCol(l.cols, c.ID) {
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

// visible finds the one column named name a bare name reaches (virtual
// ones included: USING (filename) joins on it, as in DuckDB).
func visible(it *fromItem, name string) (planner.Column, bool) {
	var found []planner.Column
	for _, c := range it.cols {
		if it.hidden[c.ID]&hideBare == 0 && strings.EqualFold(c.Name, name) {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		return planner.Column{}, false
	}
	return found[0], true
}

// qualSchema is the schema of the relation item puts in scope as qual
// ("" for a WITH entry, a subquery, a function or an aliased relation).
func (b *binder) qualSchema(it *fromItem, qual string) string {
	for _, c := range it.cols {
		if strings.EqualFold(c.Table, qual) {
			return b.colSchemas[c.ID]
		}
	}
	return ""
}
