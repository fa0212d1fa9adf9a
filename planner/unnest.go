package planner

import (
	"github.com/b2sql/b2sql/executor"
)

// Unnest emits, for each input row, as many rows as its longest list
// among Exprs (none when all are NULL or empty): the input's columns
// repeated, and Out[i] holding element k of Exprs[i], NULL past its end.
// unnest(l) in a select list binds to it (executor.Unnest).
type Unnest struct {
	Input Node
	Exprs []Expr
	Out   []Column
}

func (n *Unnest) Schema() []Column {
	return append(append([]Column(nil), n.Input.Schema()...), n.Out...)
}
func (n *Unnest) Children() []Node { return []Node{n.Input} }
func (n *Unnest) WithChildren(kids []Node) Node {
	c := *n
	c.Input = kids[0]
	return &c
}

// pruneUnnest keeps the input columns read above it and by the lists.
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
	return &c
}

func (bd *builder) buildUnnest(n *Unnest, in executor.Operator) (executor.Operator, error) {
	lay := layout(n.Input.Schema())
	exprs := make([]executor.Expr, len(n.Exprs))
	names := make([]string, len(n.Exprs))
	for i, e := range n.Exprs {
		x, err := CompileExpr(e, lay)
		if err != nil {
			return nil, err
		}
		exprs[i], names[i] = x, "unnest("+e.String()+")"
	}
	return bd.wrap(&executor.Unnest{Input: in, Exprs: exprs, Names: names}), nil
}
