package planner

import (
	"reflect"
	"slices"
)

// The ShareSubplans rule.
//
// A query may compute one join twice: TPC-H Q11 joins partsupp, supplier
// and nation under the same WHERE in its FROM and again in the scalar
// subquery of its HAVING. The binder binds each occurrence with column IDs
// of its own, so the two subtrees are equal but for their IDs.
// shareSubplans finds such a pair and makes it one materialized WITH entry
// (cte.go) that both places read through a CTEScan: the scans and joins run
// once, and each reader replays the rows.
//
// It runs after PushFilters and ReorderJoins, so it compares the subtrees
// with their filters pushed into the scans and joins (a filter that reaches
// only one of them makes them differ) and never keeps a filter from its
// scan. A subtree qualifies when it holds at least one join (a lone scan
// costs no more to read twice than to replay), is made only of scans,
// filters, projections and inner, cross, left, semi and anti joins whose
// expressions are deterministic and read only columns produced inside it,
// and its estimated rows are at most shareMaxRows: the entry holds its rows
// (or spills them) until the query ends, where two streaming reads held
// nothing.
//
// The entry computes only the columns some reader uses (usedOutside); its
// plan is optimized on its own, as a WITH entry's is.

// shareMaxRows bounds the estimated rows of a shared subplan.
const shareMaxRows = 1 << 20

// shareSubplans shares pairs of equal subtrees of n, largest first.
func shareSubplans(n Node) Node {
	var cands []Node
	collectShareable(n, &cands)
	if len(cands) < 2 {
		return n
	}
	taken := map[Node]bool{}
	repl := map[Node]Node{}
	for i, a := range cands {
		if taken[a] {
			continue
		}
		for _, b := range cands[i+1:] {
			if taken[b] || a == b {
				continue
			}
			m := map[ColID]ColID{}
			if !sameTree(a, b, m) || !smallEnough(a) {
				continue
			}
			c := &CTE{Name: "shared", Mode: CTEMaterialized}
			pa, pb := usedProjections(a, b, usedOutside(n, a, b))
			repl[a] = &CTERef{CTE: c, Input: pa}
			repl[b] = &CTERef{CTE: c, Input: pb}
			markTaken(a, taken)
			markTaken(b, taken)
			break
		}
	}
	if len(repl) == 0 {
		return n
	}
	return replaceShared(n, repl)
}

// collectShareable lists the subtrees of n that qualify, parents before
// their children.
func collectShareable(n Node, out *[]Node) {
	if joins, ok := subplanNodes(n); ok && joins > 0 {
		*out = append(*out, n)
	}
	for _, k := range n.Children() {
		collectShareable(k, out)
	}
}

// subplanNodes reports whether n is made only of the nodes a shared subplan
// may hold, and how many joins it has.
func subplanNodes(n Node) (joins int, ok bool) {
	switch x := n.(type) {
	case *Scan:
		return 0, x.Limit < 0
	case *Filter, *Project:
	case *Join:
		switch x.Kind {
		case JoinInner, JoinCross, JoinLeft, JoinSemi, JoinAnti:
		default:
			return 0, false
		}
		joins = 1
	default:
		return 0, false
	}
	for _, k := range n.Children() {
		j, ok := subplanNodes(k)
		if !ok {
			return 0, false
		}
		joins += j
	}
	return joins, true
}

// sameTree reports whether a and b compute the same rows, column for
// column, their IDs aside; m collects a's column IDs mapped to b's.
func sameTree(a, b Node, m map[ColID]ColID) bool {
	switch x := a.(type) {
	case *Scan:
		y, ok := b.(*Scan)
		if !ok || !sameTable(x.Table, y.Table) || !slices.Equal(x.TableCols, y.TableCols) || x.Limit != y.Limit ||
			!reflect.DeepEqual(x.Filter, y.Filter) || !slices.Equal(x.Support, y.Support) {
			return false
		}
		return mapColumns(x.Cols, y.Cols, m)
	case *Filter:
		y, ok := b.(*Filter)
		return ok && sameTree(x.Input, y.Input, m) && sameExprMapped(x.Cond, y.Cond, m)
	case *Project:
		y, ok := b.(*Project)
		if !ok || len(x.Exprs) != len(y.Exprs) || !sameTree(x.Input, y.Input, m) {
			return false
		}
		for i := range x.Exprs {
			if !sameExprMapped(x.Exprs[i], y.Exprs[i], m) {
				return false
			}
		}
		return mapColumns(x.Out, y.Out, m)
	case *Join:
		y, ok := b.(*Join)
		if !ok || x.Kind != y.Kind || x.NullAware != y.NullAware || len(x.EquiKeys) != len(y.EquiKeys) ||
			!sameTree(x.Left, y.Left, m) || !sameTree(x.Right, y.Right, m) {
			return false
		}
		for i, k := range x.EquiKeys {
			if !sameExprMapped(k.L, y.EquiKeys[i].L, m) || !sameExprMapped(k.R, y.EquiKeys[i].R, m) {
				return false
			}
		}
		if x.Cond == nil || y.Cond == nil {
			return x.Cond == nil && y.Cond == nil
		}
		return sameExprMapped(x.Cond, y.Cond, m)
	}
	return false
}

// mapColumns maps the IDs of xs to those of ys, of equal types.
func mapColumns(xs, ys []Column, m map[ColID]ColID) bool {
	if len(xs) != len(ys) {
		return false
	}
	for i, c := range xs {
		if c.Type != ys[i].Type {
			return false
		}
		m[c.ID] = ys[i].ID
	}
	return true
}

// sameTable reports whether two scans read one table object. Tables of a
// type == cannot compare are never the same.
func sameTable(a, b Table) bool {
	ta := reflect.TypeOf(a)
	return ta != nil && ta == reflect.TypeOf(b) && ta.Comparable() && a == b
}

// sameExprMapped reports whether a computes over a's columns what b computes
// over the columns m maps them to. A column m does not map (one produced
// outside the subtree) never matches, nor does a volatile call or an
// expression of a kind not listed.
func sameExprMapped(a, b Expr, m map[ColID]ColID) bool {
	switch x := a.(type) {
	case *ColRef:
		y, ok := b.(*ColRef)
		id, mapped := m[x.Col.ID]
		return ok && mapped && id == y.Col.ID && x.Col.Type == y.Col.Type
	case *Const:
		y, ok := b.(*Const)
		return ok && x.Val.Type == y.Val.Type && x.Val.Null == y.Val.Null && exprKey(x) == exprKey(y)
	case *Call:
		y, ok := b.(*Call)
		if !ok || x.Fn != y.Fn || x.T != y.T || len(x.Args) != len(y.Args) || Volatile(x.Fn) {
			return false
		}
		for i := range x.Args {
			if !sameExprMapped(x.Args[i], y.Args[i], m) {
				return false
			}
		}
		return true
	case *Cast:
		y, ok := b.(*Cast)
		return ok && x.To == y.To && x.Try == y.Try && sameExprMapped(x.Arg, y.Arg, m)
	case *Case:
		y, ok := b.(*Case)
		if !ok || x.T != y.T || len(x.Whens) != len(y.Whens) || (x.Else == nil) != (y.Else == nil) {
			return false
		}
		for i, w := range x.Whens {
			if !sameExprMapped(w.Cond, y.Whens[i].Cond, m) || !sameExprMapped(w.Then, y.Whens[i].Then, m) {
				return false
			}
		}
		return x.Else == nil || sameExprMapped(x.Else, y.Else, m)
	}
	return false
}

// smallEnough reports whether a's estimated rows are known and at most
// shareMaxRows.
func smallEnough(a Node) bool {
	e, ok := estimate(a)
	return ok && e.rows <= shareMaxRows
}

// usedOutside returns the columns of n's plan that PruneColumns keeps
// once subtrees a and b are leaves: of their columns, those read above
// them (or the one a pruned scan keeps to count rows).
func usedOutside(n, a, b Node) map[ColID]bool {
	leaf := func(x Node) Node {
		s := &Scan{Cols: x.Schema(), Limit: -1}
		for i := range s.Cols {
			s.TableCols = append(s.TableCols, i)
		}
		return s
	}
	n = replaceShared(n, map[Node]Node{a: leaf(a), b: leaf(b)})
	out := map[ColID]bool{}
	var walk func(n Node)
	walk = func(n Node) {
		for _, c := range n.Schema() {
			out[c.ID] = true
		}
		for _, k := range n.Children() {
			walk(k)
		}
	}
	walk(pruneColumns(n))
	return out
}

// usedProjections returns a and b under projections onto the positions
// whose column either one's readers use (used: the columns of the pruned
// outside them); at least one column, so that the rows are still counted.
func usedProjections(a, b Node, used map[ColID]bool) (Node, Node) {
	sa, sb := a.Schema(), b.Schema()
	var keep []int
	for i := range sa {
		if used[sa[i].ID] || used[sb[i].ID] {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 {
		keep = []int{0}
	}
	proj := func(n Node, s []Column) Node {
		p := &Project{Input: n}
		for _, i := range keep {
			p.Exprs = append(p.Exprs, &ColRef{Col: s[i]})
			p.Out = append(p.Out, s[i])
		}
		return p
	}
	return proj(a, sa), proj(b, sb)
}

func markTaken(n Node, taken map[Node]bool) {
	taken[n] = true
	for _, k := range n.Children() {
		markTaken(k, taken)
	}
}

// replaceShared replaces the subtrees of n found in repl.
func replaceShared(n Node, repl map[Node]Node) Node {
	if r, ok := repl[n]; ok {
		return r
	}
	return mapChildren(n, func(c Node) Node { return replaceShared(c, repl) })
}
