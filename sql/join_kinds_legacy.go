package sql

import (
	"fmt"
	"strings"
)

// legacyJoinKind finds SEMI, ANTI, POSITIONAL or ASOF used as a join kind
// (the word right before JOIN, or before OUTER JOIN / after NATURAL). The
// vitess grammar knows none of them and would read the word as the left
// table's alias and bind an inner join: a wrong answer. Until these
// statements bind from sql/ast (which parses the four kinds), the legacy
// path refuses them at the word.
func legacyJoinKind(toks []token) (token, bool) {
	for k := 0; k+1 < len(toks); k++ {
		t := toks[k]
		if !(t.is("SEMI") || t.is("ANTI") || t.is("POSITIONAL") || t.is("ASOF")) {
			continue
		}
		next := toks[k+1]
		if next.is("JOIN") || (next.is("LEFT") && k+2 < len(toks) && (toks[k+2].is("JOIN") || toks[k+2].is("OUTER"))) {
			return t, true
		}
	}
	return token{}, false
}

// refuseLegacyJoinKind is legacyJoinKind's error, positioned at the word.
func (w *rewriter) refuseLegacyJoinKind() error {
	if t, ok := legacyJoinKind(w.toks); ok {
		return w.errAt(t, ErrUnsupported, fmt.Sprintf("%s JOIN is not supported yet (write it with [NOT] EXISTS or a plain join)", strings.ToUpper(t.val)))
	}
	return nil
}
