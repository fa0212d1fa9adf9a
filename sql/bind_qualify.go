package sql

import (
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// DuckDB's QUALIFY cond filters rows by window function results, as
// HAVING filters groups: SELECT … QUALIFY row_number() OVER (…) = 1. The
// rewriter cuts the condition out of the text (MySQL has no QUALIFY); it
// is parsed here on its own and bound over the select list's scope, with
// window functions (computed by the query's one Window node), aggregates
// when the query groups, and select aliases.

// bindQualify binds the query's QUALIFY condition, nil without one.
func (b *binder) bindQualify(aggregating bool) (planner.Expr, error) {
	r := b.q.rw.qualify
	if r[0] == 0 {
		return nil, nil
	}
	lo, hi := r[0], r[1]
	toks := b.q.toks
	text := b.q.src.Text[toks[lo].off:toks[hi-1].end]
	st, err := parseLegacy(Source{Text: "SELECT " + text, Line: 1, Col: 1})
	var cond sqlparser.Expr
	if q, ok := st.(*Query); ok && err == nil && q.sel != nil && len(q.sel.SelectExprs) == 1 {
		if ae, ok := q.sel.SelectExprs[0].(*sqlparser.AliasedExpr); ok && ae.As.IsEmpty() {
			cond = ae.Expr
		}
	}
	if cond == nil {
		msg := "syntax error in QUALIFY"
		if e, ok := err.(*Error); ok {
			msg = e.Msg
		}
		return nil, b.errAt(lo, ErrSyntax, msg)
	}
	return b.qualify(cond, span{lo, hi}, aggregating)
}

// qualify binds the QUALIFY condition cond, written at sp.
func (b *binder) qualify(cond sqlparser.Expr, sp span, aggregating bool) (planner.Expr, error) {
	c := ectx{sp: sp, clause: "QUALIFY", aggOK: aggregating}
	x, err := b.bindClauseExpr(cond, c)
	if err != nil {
		return nil, err
	}
	if aggregating {
		if x, err = b.finalize(x, c); err != nil {
			return nil, err
		}
	}
	return b.boolean(x, cond, c, "QUALIFY")
}
