package sql

import "strings"

// Ordered aggregates: DuckDB's agg(args ORDER BY keys), e.g.
// string_agg(name, ', ' ORDER BY name). The MySQL grammar has ORDER BY
// inside a call only for GROUP_CONCAT, so the rewriter carries any such
// call as GROUP_CONCAT(args ORDER BY keys SEPARATOR 'b2sql:ordered:agg'),
// and bindGroupConcat binds it as agg with its ordering
// (bind_agg_ordered.go).
const markOrdered = "b2sql:ordered:"

// orderedAggCalls finds the calls whose parentheses hold an ORDER BY of
// their own (not a subquery's, nor a window specification's OVER (…),
// nor WITHIN GROUP (…)): the name token's replacement, and the text to
// put after the token before the call's ")".
//
// A call followed by OVER is a window function with an ordered argument
// list, which b2sql does not run: overAt is then its ORDER token (else -1).
func orderedAggCalls(toks []token) (names map[int]string, tails map[int]string, overAt int) {
	type paren struct {
		name  int // the call's name token, or -1 when not a call
		query bool
	}
	var stack []paren
	overAt = -1
	for i, t := range toks {
		switch {
		case t.isOp("("):
			p := paren{name: -1}
			if i > 0 && toks[i-1].kind == tkIdent && !notCallWords[strings.ToLower(toks[i-1].val)] && (i < 2 || !toks[i-2].isOp(".")) {
				p.name = i - 1
			}
			p.query = i+1 < len(toks) && startsQuery(toks[i+1])
			stack = append(stack, p)
		case t.isOp(")"):
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case t.is("ORDER") && i+1 < len(toks) && toks[i+1].is("BY") && len(stack) > 0:
			p := stack[len(stack)-1]
			if p.name < 0 || p.query || strings.EqualFold(toks[p.name].val, "group_concat") {
				continue
			}
			open := p.name + 1
			end := matchingParen(toks, open)
			if end < 0 || names[p.name] != "" {
				continue
			}
			if end+1 < len(toks) && toks[end+1].is("OVER") {
				return nil, nil, i
			}
			if names == nil {
				names, tails = map[int]string{}, map[int]string{}
			}
			names[p.name] = "GROUP_CONCAT"
			tails[end-1] += " SEPARATOR '" + markOrdered + strings.ToLower(toks[p.name].val) + "'"
		}
	}
	return names, tails, overAt
}

// notCallWords precede a "(" that does not open a function call's
// arguments.
var notCallWords = map[string]bool{
	"over": true, "in": true, "exists": true, "values": true, "as": true, "from": true, "join": true,
	"on": true, "using": true, "and": true, "or": true, "not": true, "select": true, "where": true,
	"group": true, "within": true, "filter": true, "window": true, "all": true, "any": true, "some": true,
	"union": true, "intersect": true, "except": true, "when": true, "then": true, "else": true,
	"is": true, "like": true, "between": true, "lateral": true, "by": true,
}
