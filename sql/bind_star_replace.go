package sql

import (
	"fmt"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// DuckDB's SELECT * REPLACE (expr AS col, …): the star's columns with col
// computed by expr instead (rewrite.go cuts the list out of the text and
// keeps its token range by the star's ordinal; it is parsed here on its
// own).

type starReplacement struct {
	name string
	expr sqlparser.Expr
	sp   span // the list's tokens, for error positions
}

// starReplacements returns the replacements of star number k by lower-case
// column name.
func (b *binder) starReplacements(k int) (map[string]starReplacement, error) {
	r, ok := b.q.rw.starReplace[k]
	if !ok {
		return nil, nil
	}
	lo, hi := r[0], r[1]
	sp := span{lo, hi}
	toks := b.q.toks
	text := b.q.src.Text[toks[lo].off:toks[hi-1].end]
	st, err := parseLegacy(Source{Text: "SELECT " + text, Line: 1, Col: 1})
	q, isQ := st.(*Query)
	if err != nil || !isQ || q.sel == nil {
		msg := "syntax error in REPLACE"
		if e, ok := err.(*Error); ok {
			msg = e.Msg
		}
		return nil, b.errAt(lo, ErrSyntax, msg)
	}
	out := map[string]starReplacement{}
	for _, se := range q.sel.SelectExprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok || ae.As.IsEmpty() {
			return nil, b.errAt(lo, ErrSyntax, "REPLACE expects a list of expr AS column")
		}
		name := ae.As.String()
		if _, dup := out[strings.ToLower(name)]; dup {
			return nil, b.errAt(b.q.findName("", name, sp), ErrSyntax, fmt.Sprintf("column %q is replaced twice", name))
		}
		out[strings.ToLower(name)] = starReplacement{name: name, expr: ae.Expr, sp: sp}
	}
	return out, nil
}
