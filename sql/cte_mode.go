package sql

import (
	"strings"

	"github.com/b2sql/b2sql/planner"
)

// cteModeAt reports, for a WITH entry "name [(cols)] AS [NOT] MATERIALIZED
// (", the entry's name and mode when toks[i] is its AS, and how many
// keyword tokens follow AS (0 when the entry has neither keyword). The
// MySQL grammar has no such keywords: the rewrite drops them and the
// binder reads them back here from the original tokens.
func cteModeAt(toks []token, i int) (name string, mode planner.CTEMode, n int) {
	at := func(k int) token {
		if k >= 0 && k < len(toks) {
			return toks[k]
		}
		return token{}
	}
	if !at(i).is("AS") {
		return "", planner.CTEAuto, 0
	}
	switch {
	case at(i+1).is("MATERIALIZED") && at(i+2).isOp("("):
		mode, n = planner.CTEMaterialized, 1
	case at(i+1).is("NOT") && at(i+2).is("MATERIALIZED") && at(i+3).isOp("("):
		mode, n = planner.CTENotMaterialized, 2
	default:
		return "", planner.CTEAuto, 0
	}
	k := i - 1
	if at(k).isOp(")") { // a column list: the name is before its "("
		depth := 0
		for ; k >= 0; k-- {
			if at(k).isOp(")") {
				depth++
			} else if at(k).isOp("(") {
				if depth--; depth == 0 {
					break
				}
			}
		}
		k--
	}
	if t := at(k); t.kind != tkIdent && t.kind != tkQIdent {
		return "", planner.CTEAuto, 0
	}
	return at(k).val, mode, n
}

// cteModeTokens returns the positions of the MATERIALIZED keywords of the
// WITH entries in toks, for the rewrite to drop.
func cteModeTokens(toks []token) map[int]bool {
	drop := map[int]bool{}
	for i := range toks {
		if _, _, n := cteModeAt(toks, i); n > 0 {
			for k := 1; k <= n; k++ {
				drop[i+k] = true
			}
		}
	}
	return drop
}

// cteModes returns the mode each WITH entry of toks asked for, by
// lower-case name; entries without a keyword are absent (CTEAuto).
func cteModes(toks []token) map[string]planner.CTEMode {
	var m map[string]planner.CTEMode
	for i := range toks {
		if name, mode, n := cteModeAt(toks, i); n > 0 {
			if m == nil {
				m = map[string]planner.CTEMode{}
			}
			m[strings.ToLower(name)] = mode
		}
	}
	return m
}
