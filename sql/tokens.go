package sql

import "github.com/b2sql/b2sql/sql/ast"

// span is a half-open range [lo, hi) of token indexes of a query: the
// tokens of a syntax tree node (spanOf), where an expression's errors
// fall back to when its own nodes do not tell.
type span struct{ lo, hi int }

// errAtTok builds an error at q.toks[i] (or the end of the text).
func (q *Query) errAtTok(i int, kind error, msg string) *Error {
	off := len(q.src.Text)
	if i >= 0 && i < len(q.toks) {
		off = q.toks[i].off
	}
	return errAt(q.src, off, kind, msg)
}

// tokExtent is the byte span of token i (the end of the text past the
// last), for a node the binder builds where token i was written.
func (q *Query) tokExtent(i int) ast.Span {
	if i < 0 || i >= len(q.toks) {
		return ast.Span{Start: len(q.src.Text), End: len(q.src.Text)}
	}
	return ast.Span{Start: q.toks[i].off, End: q.toks[i].end}
}

// tok is the index of the token a span starts at, the error position of
// the node it is the span of.
func (q *Query) tok(s ast.Span) int { return q.tokAt(s.Start) }

// tokAt returns the index of the query's token at byte offset off (the
// first one at or after it), for the token-indexed error positions.
func (q *Query) tokAt(off int) int {
	lo, hi := 0, len(q.toks)
	for lo < hi {
		m := (lo + hi) / 2
		if q.toks[m].off < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// orderExprSpan is an ORDER BY item's span without its ASC/DESC and
// NULLS FIRST/LAST.
func (q *Query) orderExprSpan(sp span) span {
	for sp.hi-sp.lo > 1 && sp.hi <= len(q.toks) {
		t := q.toks[sp.hi-1]
		switch {
		case t.is("ASC") || t.is("DESC"):
			sp.hi--
		case (t.is("FIRST") || t.is("LAST")) && sp.hi-sp.lo > 2 && q.toks[sp.hi-2].is("NULLS"):
			sp.hi -= 2
		default:
			return sp
		}
	}
	return sp
}
