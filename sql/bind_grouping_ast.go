package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// astGroupingSets reads a GROUP BY list with GROUPING SETS, ROLLUP, CUBE
// or () items: its distinct key expressions (each at its first
// occurrence, told apart by their tokens with names lower-cased) and the
// grouping sets as indexes into them, the cross product of each item's
// sets. A plain list has no sets (nil): its items are the keys.
func (b *binder) astGroupingSets(items []ast.Expr) ([]ast.Expr, [][]int, error) {
	special := false
	for _, it := range items {
		switch it := it.(type) {
		case *ast.GroupingSet:
			special = true
		case *ast.Row:
			special = special || len(it.Elems) == 0
		}
	}
	if !special {
		return items, nil, nil
	}
	g := &astGrouping{b: b, index: map[string]int{}}
	sets := [][]int{{}}
	for _, it := range items {
		es, err := g.element(it)
		if err != nil {
			return nil, nil, err
		}
		var next [][]int
		for _, s := range sets {
			for _, e := range es {
				next = append(next, union(s, e))
			}
		}
		sets = next
	}
	return g.keys, sets, nil
}

type astGrouping struct {
	b     *binder
	index map[string]int // a key's tokens → its index
	keys  []ast.Expr
}

// key returns the index of key expression e.
func (g *astGrouping) key(e ast.Expr) int {
	q := g.b.q
	lo, hi := q.tokSpan(e)
	var sb strings.Builder
	for _, t := range q.toks[lo:hi] {
		raw := q.src.Text[t.off:t.end]
		if t.kind == tkIdent {
			raw = strings.ToLower(raw)
		}
		sb.WriteString(raw)
		sb.WriteByte(' ')
	}
	if n, ok := g.index[sb.String()]; ok {
		return n
	}
	g.index[sb.String()] = len(g.keys)
	g.keys = append(g.keys, e)
	return len(g.keys) - 1
}

// tuple reads (a, b), () or one expression as one set.
func (g *astGrouping) tuple(e ast.Expr) []int {
	if r, ok := e.(*ast.Row); ok {
		out := []int{}
		for _, x := range r.Elems {
			out = union(out, []int{g.key(x)})
		}
		return out
	}
	return []int{g.key(e)}
}

// element reads one GROUP BY item as its grouping sets.
func (g *astGrouping) element(e ast.Expr) ([][]int, error) {
	gs, ok := e.(*ast.GroupingSet)
	if !ok {
		return [][]int{g.tuple(e)}, nil
	}
	if gs.Kind == "GROUPING SETS" {
		var out [][]int
		for _, it := range gs.Items {
			if _, nested := it.(*ast.GroupingSet); nested {
				es, err := g.element(it)
				if err != nil {
					return nil, err
				}
				out = append(out, es...)
				continue
			}
			out = append(out, g.tuple(it))
		}
		return out, nil
	}
	tuples := make([][]int, len(gs.Items))
	for i, it := range gs.Items {
		tuples[i] = g.tuple(it)
	}
	if gs.Kind == "ROLLUP" {
		return rollup(tuples), nil
	}
	if len(tuples) > maxCubeKeys {
		return nil, g.b.errAt(g.b.q.tokAt(gs.Start), ErrUnsupported, "CUBE of more than 12 expressions")
	}
	return cube(tuples), nil
}

// groupItemBindable reports whether a GROUP BY item has bind cases.
func groupItemBindable(e ast.Expr, top bool) bool {
	switch e := e.(type) {
	case *ast.GroupingSet:
		for _, it := range e.Items {
			if _, nested := it.(*ast.GroupingSet); nested && (e.Kind != "GROUPING SETS" || !groupItemBindable(it, false)) {
				return false
			}
			if !groupItemBindable(it, false) {
				return false
			}
		}
		return true
	case *ast.Row:
		return (!top || len(e.Elems) == 0) && allBindable(e.Elems...)
	}
	return astBindable(e)
}
