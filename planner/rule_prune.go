package planner

import (
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// The PruneColumns rule.

// pruneColumns drops columns nobody reads, down to the scans.
func pruneColumns(n Node) Node {
	need := map[ColID]bool{}
	for _, c := range n.Schema() {
		need[c.ID] = true
	}
	return prune(n, need)
}

func prune(n Node, need map[ColID]bool) Node {
	switch n := n.(type) {
	case *Join:
		return pruneJoin(n, need)
	case *SetOp:
		return pruneSetOp(n)
	case *RecursiveCTE:
		return pruneRecursive(n)
	case *Window:
		return pruneWindow(n, need)
	case *Unnest:
		return pruneUnnest(n, need) // unnest.go
	case *Scan:
		c := *n
		c.Cols, c.TableCols = nil, nil
		for i, col := range n.Cols {
			if need[col.ID] {
				c.Cols = append(c.Cols, col)
				c.TableCols = append(c.TableCols, n.TableCols[i])
			}
		}
		if len(c.Cols) == 0 && len(n.Cols) > 0 {
			// Row counts still need one column to count; take the narrowest.
			best := 0
			for i, col := range n.Cols {
				if col.Type.Phys() != columnar.PhysBytes && n.Cols[best].Type.Phys() == columnar.PhysBytes {
					best = i
				}
			}
			c.Cols = []Column{n.Cols[best]}
			c.TableCols = []int{n.TableCols[best]}
		}
		return &c
	case *Filter:
		child := copySet(need)
		ExprCols(n.Cond, child)
		c := *n
		c.Input = prune(n.Input, child)
		return &c
	case *Project:
		c := *n
		c.Exprs, c.Out = nil, nil
		child := map[ColID]bool{}
		for i, e := range n.Exprs {
			if need[n.Out[i].ID] {
				c.Exprs = append(c.Exprs, e)
				c.Out = append(c.Out, n.Out[i])
				ExprCols(e, child)
			}
		}
		c.Input = prune(n.Input, child)
		return &c
	case *Aggregate:
		child := map[ColID]bool{}
		for _, g := range n.Groups {
			ExprCols(g, child)
		}
		for _, a := range n.Aggs {
			if a.Arg != nil {
				ExprCols(a.Arg, child)
			}
			if a.Arg2 != nil {
				ExprCols(a.Arg2, child)
			}
			if a.Filter != nil {
				ExprCols(a.Filter, child)
			}
		}
		c := *n
		c.Input = prune(n.Input, child)
		return &c
	case *Sort:
		child := copySet(need)
		for _, k := range n.Keys {
			ExprCols(k.Expr, child)
		}
		c := *n
		c.Input = prune(n.Input, child)
		return &c
	case *TopK:
		child := copySet(need)
		for _, k := range n.Keys {
			ExprCols(k.Expr, child)
		}
		c := *n
		c.Input = prune(n.Input, child)
		return &c
	case *Limit:
		c := *n
		c.Input = prune(n.Input, need)
		return &c
	case *Distinct:
		// Every input column defines distinctness.
		child := map[ColID]bool{}
		for _, col := range n.Input.Schema() {
			child[col.ID] = true
		}
		c := *n
		c.Input = prune(n.Input, child)
		return &c
	case *Values, *CTEScan, *WorkScan:
		return n // leaves that produce what they produce
	}
	// Any other node (a CTERef, or one added later) keeps every column of
	// its inputs, whose subtrees are still pruned: no node passes its
	// subtree through unvisited.
	return mapChildren(n, pruneColumns)
}

func copySet(m map[ColID]bool) map[ColID]bool {
	out := make(map[ColID]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// pruneRecursive keeps every column: the step reads the work table whole.
func pruneRecursive(n *RecursiveCTE) Node {
	c := *n
	c.Base = prune(n.Base, colSet(n.Base.Schema()))
	c.Step = prune(n.Step, colSet(n.Step.Schema()))
	return &c
}

// pruneSetOp keeps every column of both inputs: rows compare whole.
func pruneSetOp(n *SetOp) Node {
	c := *n
	c.Left = prune(n.Left, colSet(n.Left.Schema()))
	c.Right = prune(n.Right, colSet(n.Right.Schema()))
	return &c
}

// pruneWindow keeps the input columns the parent and the functions read.
func pruneWindow(n *Window, need map[ColID]bool) Node {
	child := copySet(need)
	for _, f := range n.Funcs {
		for _, a := range f.Args {
			ExprCols(a, child)
		}
		for _, p := range f.Partition {
			ExprCols(p, child)
		}
		for _, k := range slices.Concat(f.Order, f.ArgOrder) {
			ExprCols(k.Expr, child)
		}
	}
	c := *n
	c.Input = prune(n.Input, restrict(child, n.Input.Schema()))
	return &c
}

// pruneJoin keeps the columns the join's parent needs plus those its keys
// and condition read, each side getting its own; a side that still
// outputs more (a Filter passes on the columns it reads) gets a Project of
// the needed ones, so the join neither holds nor copies the others.
func pruneJoin(n *Join, need map[ColID]bool) Node {
	all := copySet(need)
	for _, k := range n.EquiKeys {
		ExprCols(k.L, all)
		ExprCols(k.R, all)
	}
	if n.Cond != nil {
		ExprCols(n.Cond, all)
	}
	c := *n
	ln, rn := restrict(all, n.Left.Schema()), restrict(all, n.Right.Schema())
	c.Left = narrow(prune(n.Left, ln), ln)
	c.Right = narrow(prune(n.Right, rn), rn)
	c.Used = nil
	if used := restrict(need, c.Schema()); len(used) < len(c.Schema()) {
		c.Used = used
	}
	return &c
}

// pruneUnnest keeps the input columns read above it and by the lists,
// and repeats on each output row only those read above.
func pruneUnnest(n *Unnest, need map[ColID]bool) Node {
	child := copySet(need)
	for _, c := range n.Out {
		delete(child, c.ID)
	}
	for _, e := range n.Exprs {
		ExprCols(e, child)
	}
	c := *n
	c.Input = prune(n.Input, child)
	c.Pass = []Column{} // non-nil: none unless read above
	for _, col := range c.Input.Schema() {
		if need[col.ID] {
			c.Pass = append(c.Pass, col)
		}
	}
	return &c
}

// narrow returns n with only the columns in need (the same columns, by
// ID), through a Project when n outputs others; n itself when it outputs
// no others, or only others (the join needs a row count, not columns).
func narrow(n Node, need map[ColID]bool) Node {
	cols := n.Schema()
	var keep []Column
	for _, c := range cols {
		if need[c.ID] {
			keep = append(keep, c)
		}
	}
	if len(keep) == len(cols) || len(keep) == 0 {
		return n
	}
	exprs := make([]Expr, len(keep))
	for i, c := range keep {
		exprs[i] = &ColRef{Col: c}
	}
	return &Project{Input: n, Exprs: exprs, Out: keep}
}

func restrict(need map[ColID]bool, cols []Column) map[ColID]bool {
	out := map[ColID]bool{}
	for _, c := range cols {
		if need[c.ID] {
			out[c.ID] = true
		}
	}
	return out
}
