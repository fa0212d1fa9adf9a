package sql

import (
	"fmt"
	"strings"
)

// derivedAliases names the derived tables of a FROM clause that have no
// alias — FROM (SELECT …) JOIN (VALUES …) ON … — as DuckDB does
// (unnamed_subquery, unnamed_subquery2, …): the MySQL grammar requires an
// alias there. It returns the text to insert after the closing ")" token,
// keyed by that token's index.
func derivedAliases(toks []token) map[int]string {
	out := map[int]string{}
	n := 0
	for i := 1; i+1 < len(toks); i++ {
		if !toks[i].isOp("(") || !startsQuery(toks[i+1]) || !opensFromItem(toks, i) {
			continue
		}
		end := matchingParen(toks, i)
		if end < 0 || hasAlias(toks, end+1) {
			continue
		}
		n++
		name := "unnamed_subquery"
		if n > 1 {
			name = fmt.Sprintf("unnamed_subquery%d", n)
		}
		out[end] = " AS " + name
	}
	return out
}

func startsQuery(t token) bool { return t.is("SELECT") || t.is("VALUES") || t.is("WITH") }

// opensFromItem reports whether the "(" at toks[i] starts an item of a
// FROM list: right after FROM or JOIN, or after a comma of a FROM list at
// the same parenthesis depth.
func opensFromItem(toks []token, i int) bool {
	prev := toks[i-1]
	if prev.is("JOIN") {
		return true
	}
	if prev.is("FROM") {
		return clauseFrom(toks, i-1)
	}
	if !prev.isOp(",") {
		return false
	}
	for k, depth := i-2, 0; k >= 0; k-- {
		t := toks[k]
		switch {
		case t.isOp(")"):
			depth++
		case t.isOp("("):
			if depth == 0 {
				return false
			}
			depth--
		case depth > 0:
		case t.is("FROM"):
			return true
		case t.is("SELECT") || t.is("WHERE") || t.is("ON") || t.is("USING") || t.is("GROUP") ||
			t.is("ORDER") || t.is("HAVING") || t.is("SET") || t.is("VALUES") || t.is("BY"):
			return false
		}
	}
	return false
}

// clauseFrom reports whether the FROM at toks[k] starts a FROM clause,
// not the FROM of x IS DISTINCT FROM y, EXTRACT(part FROM x) or
// TRIM(… FROM x): scanning back at its parenthesis depth meets SELECT (or
// the statement's start, for FROM-first queries) before an unclosed "(".
func clauseFrom(toks []token, k int) bool {
	if k > 0 && toks[k-1].is("DISTINCT") {
		return false
	}
	for j, depth := k-1, 0; j >= 0; j-- {
		switch t := toks[j]; {
		case t.isOp(")"):
			depth++
		case t.isOp("("):
			if depth == 0 {
				return false
			}
			depth--
		case depth == 0 && t.is("SELECT"):
			return true
		}
	}
	return true
}

// matchingParen returns the index of the ")" closing the "(" at toks[i].
func matchingParen(toks []token, i int) int {
	for k, depth := i, 0; k < len(toks); k++ {
		if toks[k].isOp("(") {
			depth++
		} else if toks[k].isOp(")") {
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}

// clauseWords end a FROM item: after one of them a derived table has no alias.
var clauseWords = map[string]bool{
	"join": true, "inner": true, "left": true, "right": true, "full": true, "outer": true, "cross": true,
	"natural": true, "on": true, "using": true, "where": true, "group": true, "having": true, "order": true,
	"limit": true, "offset": true, "union": true, "intersect": true, "except": true, "window": true,
	"qualify": true, "semi": true, "anti": true, "positional": true, "asof": true,
}

func hasAlias(toks []token, k int) bool {
	if k >= len(toks) {
		return false
	}
	t := toks[k]
	if t.is("AS") || t.kind == tkQIdent {
		return true
	}
	return t.kind == tkIdent && !clauseWords[strings.ToLower(t.val)]
}
