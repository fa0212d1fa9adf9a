package sql

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
