package sql

import (
	"strings"
)

// span is a half-open range [lo, hi) of token indexes of a query: the part
// of the text a clause or select item came from. Some binding errors
// search it for the offending token (a name, a keyword) instead of taking
// a node's span (issue 15 would have them all take spans).
type span struct{ lo, hi int }

// errAtTok builds an error at q.toks[i] (or the end of the text).
func (q *Query) errAtTok(i int, kind error, msg string) *Error {
	off := len(q.src.Text)
	if i >= 0 && i < len(q.toks) {
		off = q.toks[i].off
	}
	return errAt(q.src, off, kind, msg)
}

// whole is the span of the entire query.
func (q *Query) whole() span { return span{0, len(q.toks)} }

// findKeyword returns the index of the first bare word kw in sp, or sp.lo.
func (q *Query) findKeyword(kw string, sp span) int {
	for i := sp.lo; i < sp.hi && i < len(q.toks); i++ {
		if q.toks[i].is(kw) {
			return i
		}
	}
	return sp.lo
}

// findName returns the index of the first occurrence of the (possibly
// qualified) name in sp, falling back to the whole query and then to sp.lo.
func (q *Query) findName(qual, name string, sp span) int {
	for _, s := range []span{sp, q.whole()} {
		for i := s.lo; i < s.hi && i < len(q.toks); i++ {
			t := q.toks[i]
			if (t.kind != tkIdent && t.kind != tkQIdent) || !strings.EqualFold(t.val, name) {
				continue
			}
			if qual == "" {
				return i
			}
			if i >= 2 && q.toks[i-1].isOp(".") && strings.EqualFold(q.toks[i-2].val, qual) {
				return i - 2
			}
		}
	}
	return sp.lo
}

// findToken returns the first token in sp (then anywhere) for which match
// holds, or sp.lo.
func (q *Query) findToken(sp span, match func(token) bool) int {
	for _, s := range []span{sp, q.whole()} {
		for i := s.lo; i < s.hi && i < len(q.toks); i++ {
			if match(q.toks[i]) {
				return i
			}
		}
	}
	return sp.lo
}

// clauses finds the top-level clauses of the query: for each keyword the
// span of what follows it, and for list clauses the span of each item.
type clauses struct {
	sel, from, where, groupBy, having, orderBy, limit, offset span
	groupItems, orderItems                                    []span
}

func (q *Query) clauses() clauses {
	var c clauses
	depth, base := 0, -1
	type mark struct {
		at  int
		dst *span
	}
	var marks []mark
	// The query's own SELECT is the shallowest one (WITH … AS (SELECT …)
	// SELECT …: the CTE bodies are nested).
	for _, t := range q.toks {
		switch {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			depth--
		case t.is("SELECT") && (base < 0 || depth < base):
			base = depth
		}
	}
	depth = 0
	for i, t := range q.toks {
		switch {
		case t.isOp("("):
			depth++
			continue
		case t.isOp(")"):
			depth--
			continue
		}
		if depth != base {
			continue
		}
		next := token{}
		if i+1 < len(q.toks) {
			next = q.toks[i+1]
		}
		switch {
		case t.is("SELECT"):
			marks = append(marks, mark{i + 1, &c.sel})
		case t.is("FROM") && !(i > 0 && q.toks[i-1].is("DISTINCT")): // not IS DISTINCT FROM
			marks = append(marks, mark{i + 1, &c.from})
		case t.is("WHERE"):
			marks = append(marks, mark{i + 1, &c.where})
		case t.is("GROUP") && next.is("BY"):
			marks = append(marks, mark{i + 2, &c.groupBy})
		case t.is("HAVING"):
			marks = append(marks, mark{i + 1, &c.having})
		case t.is("ORDER") && next.is("BY"):
			marks = append(marks, mark{i + 2, &c.orderBy})
		case t.is("LIMIT"):
			marks = append(marks, mark{i + 1, &c.limit})
		case t.is("OFFSET"):
			marks = append(marks, mark{i + 1, &c.offset})
		case t.is("WINDOW") || t.is("QUALIFY"):
			marks = append(marks, mark{i + 1, nil})
		}
	}
	for k, m := range marks {
		end := len(q.toks)
		if k+1 < len(marks) {
			end = marks[k+1].at - 1
			if q.toks[end-1].is("GROUP") || q.toks[end-1].is("ORDER") {
				end--
			}
		}
		if m.dst != nil {
			*m.dst = span{m.at, max(end, m.at)}
		}
	}
	c.groupItems = q.items(c.groupBy)
	c.orderItems = q.items(c.orderBy)
	return c
}

// items splits a list clause at its top-level commas (not those inside
// parentheses, list brackets or struct braces).
func (q *Query) items(sp span) []span {
	if sp.hi <= sp.lo {
		return nil
	}
	var out []span
	depth, start := 0, sp.lo
	for i := sp.lo; i < sp.hi; i++ {
		switch t := q.toks[i]; {
		case t.isOp("(") || t.isOp("[") || t.isOp("{"):
			depth++
		case t.isOp(")") || t.isOp("]") || t.isOp("}"):
			depth--
		case depth == 0 && t.isOp(","):
			out = append(out, span{start, i})
			start = i + 1
		}
	}
	return append(out, span{start, sp.hi})
}
