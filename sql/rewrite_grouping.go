package sql

import (
	"strings"
)

// maxCubeKeys bounds CUBE: 2^n grouping sets, each one aggregate.
const maxCubeKeys = 12

// groupingSets rewrites the GROUP BY list starting at token i when it has
// GROUPING SETS, ROLLUP, CUBE or MySQL's trailing WITH ROLLUP, none of
// which the MySQL grammar reads. The text keeps each distinct key
// expression once (its first occurrence, so positions stay right) as a
// plain GROUP BY list; every other token of the clause is cut. The sets are
// recorded in rw.groupSets as indexes into that list (bind_grouping_sets.go
// aggregates once per set). An empty list (GROUPING SETS (())) cuts GROUP
// BY too. Only the statement's own GROUP BY (record) is recorded.
func (w *rewriter) groupingSets(i int, drop map[int]bool, suffix map[int]string, record bool) error {
	toks := w.toks
	end, withRollup, special := i, -1, false
	for depth := 0; end < len(toks); end++ {
		t := toks[end]
		if depth == 0 && (t.is("HAVING") || t.is("ORDER") || t.is("LIMIT") || t.is("OFFSET") || t.is("WINDOW") ||
			t.is("QUALIFY") || t.is("UNION") || t.is("INTERSECT") || t.is("EXCEPT") || t.isOp(";")) {
			break
		}
		if depth == 0 && t.is("WITH") && end+1 < len(toks) && toks[end+1].is("ROLLUP") {
			withRollup = end
			break
		}
		switch {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			depth--
		case (t.is("ROLLUP") || t.is("CUBE")) && end+1 < len(toks) && toks[end+1].isOp("("):
			special = true
		case t.is("GROUPING") && end+1 < len(toks) && toks[end+1].is("SETS"):
			special = true
		}
		if depth < 0 {
			break
		}
	}
	if !special && withRollup < 0 {
		return nil
	}
	g := &groupingParse{w: w, keys: map[string]int{}}
	var sets [][]int
	var err error
	if withRollup >= 0 {
		if special {
			return w.errAt(toks[withRollup], ErrSyntax, "WITH ROLLUP cannot be combined with GROUPING SETS, ROLLUP or CUBE")
		}
		var tuples [][]int
		for _, it := range splitTop(toks, i, withRollup) {
			tu, err := g.tuple(it)
			if err != nil {
				return err
			}
			tuples = append(tuples, tu)
		}
		sets = rollup(tuples)
		end = withRollup + 2
	} else if sets, err = g.list(i, end); err != nil {
		return err
	}
	for k := i; k < end; k++ {
		drop[k] = true
	}
	for n, sp := range g.spans {
		for k := sp.lo; k < sp.hi; k++ {
			delete(drop, k)
		}
		if n < len(g.spans)-1 {
			suffix[sp.hi-1] += ","
		}
	}
	if len(g.spans) == 0 {
		drop[i-2], drop[i-1] = true, true
	}
	if record {
		w.rw.groupSets, w.rw.groupExprs = sets, g.spans
	}
	return nil
}

// groupingParse numbers the distinct key expressions of a GROUP BY list.
type groupingParse struct {
	w     *rewriter
	keys  map[string]int // expression text → index
	spans []span         // first occurrence of each expression
}

// expr returns the index of the key expression in sp (a one-key tuple).
func (g *groupingParse) expr(sp span) []int {
	var b strings.Builder
	for k := sp.lo; k < sp.hi; k++ {
		t := g.w.toks[k]
		if t.kind == tkIdent {
			b.WriteString(strings.ToLower(g.w.raw(t)))
		} else {
			b.WriteString(g.w.raw(t))
		}
		b.WriteByte(' ')
	}
	if n, ok := g.keys[b.String()]; ok {
		return []int{n}
	}
	g.keys[b.String()] = len(g.spans)
	g.spans = append(g.spans, sp)
	return []int{len(g.spans) - 1}
}

// tuple reads (a, b), () or a single expression.
func (g *groupingParse) tuple(sp span) ([]int, error) {
	toks := g.w.toks
	if sp.lo >= sp.hi {
		return nil, g.w.errAt(g.w.tokOrEnd(sp.lo), ErrSyntax, syntaxNear(g.w.src, g.w.tokOrEnd(sp.lo)))
	}
	if toks[sp.lo].isOp("(") && matchParen(toks, sp.lo) == sp.hi-1 {
		out := []int{}
		for _, it := range splitTop(toks, sp.lo+1, sp.hi-1) {
			if it.lo >= it.hi {
				return nil, g.w.errAt(toks[it.lo], ErrSyntax, syntaxNear(g.w.src, toks[it.lo]))
			}
			out = union(out, g.expr(it))
		}
		return out, nil
	}
	return g.expr(sp), nil
}

// list reads the elements of a GROUP BY list (or of GROUPING SETS (…))
// in [lo, hi): the result is the cross product of each element's sets.
func (g *groupingParse) list(lo, hi int) ([][]int, error) {
	sets := [][]int{{}}
	for _, el := range splitTop(g.w.toks, lo, hi) {
		es, err := g.element(el)
		if err != nil {
			return nil, err
		}
		var next [][]int
		for _, s := range sets {
			for _, e := range es {
				next = append(next, union(s, e))
			}
		}
		sets = next
	}
	return sets, nil
}

// element reads one GROUP BY element as its grouping sets.
func (g *groupingParse) element(sp span) ([][]int, error) {
	toks := g.w.toks
	if sp.lo >= sp.hi {
		return nil, g.w.errAt(g.w.tokOrEnd(sp.lo), ErrSyntax, syntaxNear(g.w.src, g.w.tokOrEnd(sp.lo)))
	}
	t := toks[sp.lo]
	head := func(n int) (span, error) {
		open := sp.lo + n
		if open >= sp.hi || !toks[open].isOp("(") || matchParen(toks, open) != sp.hi-1 {
			return span{}, g.w.errAt(g.w.tokOrEnd(min(open, sp.hi)), ErrSyntax, "expected ( … ) after "+strings.ToUpper(t.val))
		}
		return span{open + 1, sp.hi - 1}, nil
	}
	switch {
	case t.is("GROUPING") && sp.lo+1 < sp.hi && toks[sp.lo+1].is("SETS"):
		in, err := head(2)
		if err != nil {
			return nil, err
		}
		var out [][]int
		for _, it := range splitTop(toks, in.lo, in.hi) {
			if toks[it.lo].is("ROLLUP") || toks[it.lo].is("CUBE") || toks[it.lo].is("GROUPING") {
				es, err := g.element(it)
				if err != nil {
					return nil, err
				}
				out = append(out, es...)
				continue
			}
			tu, err := g.tuple(it)
			if err != nil {
				return nil, err
			}
			out = append(out, tu)
		}
		if len(out) == 0 {
			return nil, g.w.errAt(toks[in.lo-1], ErrSyntax, "GROUPING SETS needs at least one set")
		}
		return out, nil
	case (t.is("ROLLUP") || t.is("CUBE")) && sp.lo+1 < sp.hi && toks[sp.lo+1].isOp("("):
		in, err := head(1)
		if err != nil {
			return nil, err
		}
		var tuples [][]int
		for _, it := range splitTop(toks, in.lo, in.hi) {
			tu, err := g.tuple(it)
			if err != nil {
				return nil, err
			}
			tuples = append(tuples, tu)
		}
		if len(tuples) == 0 {
			return nil, g.w.errAt(toks[in.lo-1], ErrSyntax, strings.ToUpper(t.val)+" needs at least one expression")
		}
		if t.is("ROLLUP") {
			return rollup(tuples), nil
		}
		if len(tuples) > maxCubeKeys {
			return nil, g.w.errAt(t, ErrUnsupported, "CUBE of more than 12 expressions")
		}
		return cube(tuples), nil
	}
	tu, err := g.tuple(sp)
	if err != nil {
		return nil, err
	}
	return [][]int{tu}, nil
}

// rollup is (t1…tn), (t1…tn-1), …, ().
func rollup(tuples [][]int) [][]int {
	var out [][]int
	for n := len(tuples); n >= 0; n-- {
		s := []int{}
		for _, t := range tuples[:n] {
			s = union(s, t)
		}
		out = append(out, s)
	}
	return out
}

// cube is every subset of the tuples, the full set first.
func cube(tuples [][]int) [][]int {
	n := len(tuples)
	var out [][]int
	for m := (1 << n) - 1; m >= 0; m-- {
		s := []int{}
		for k := range n {
			if m&(1<<(n-1-k)) != 0 {
				s = union(s, tuples[k])
			}
		}
		out = append(out, s)
	}
	return out
}

// union appends the indexes of b missing from a, into a fresh slice.
func union(a, b []int) []int {
	out := append([]int{}, a...)
	for _, x := range b {
		seen := false
		for _, y := range out {
			seen = seen || x == y
		}
		if !seen {
			out = append(out, x)
		}
	}
	return out
}

// splitTop splits tokens [lo, hi) at the commas outside parentheses;
// an empty range has no items.
func splitTop(toks []token, lo, hi int) []span {
	if lo >= hi {
		return nil
	}
	var out []span
	start, depth := lo, 0
	for k := lo; k < hi; k++ {
		switch {
		case toks[k].isOp("(") || toks[k].isOp("[") || toks[k].isOp("{"):
			depth++
		case toks[k].isOp(")") || toks[k].isOp("]") || toks[k].isOp("}"):
			depth--
		case depth == 0 && toks[k].isOp(","):
			out = append(out, span{start, k})
			start = k + 1
		}
	}
	return append(out, span{start, hi})
}
