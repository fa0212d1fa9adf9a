package planner

import "github.com/b2sql/b2sql/columnar"

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
