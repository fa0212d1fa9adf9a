package planner

import (
	"fmt"

	"github.com/b2sql/b2sql/executor"
)

// Unnest emits, for each input row, as many rows as its longest list
// among Exprs (none when all are NULL or empty): the input's columns
// repeated, and Out[i] holding element k of Exprs[i], NULL past its end.
// unnest(l) in a select list binds to it (executor.Unnest).
//
// Pass, when non-nil, lists the input columns repeated on each output
// row, in input order; nil repeats all of them. PruneColumns sets it to
// the columns read above, so that a list read only to be unnested is not
// copied once per element (its rows are the widest of the batch).
type Unnest struct {
	Input Node
	Exprs []Expr
	Out   []Column
	Pass  []Column
}

func (n *Unnest) Schema() []Column {
	pass := n.Pass
	if pass == nil {
		pass = n.Input.Schema()
	}
	return append(append([]Column(nil), pass...), n.Out...)
}
func (n *Unnest) Children() []Node { return []Node{n.Input} }
func (n *Unnest) WithChildren(kids []Node) Node {
	c := *n
	c.Input = kids[0]
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
	u := &executor.Unnest{Input: in, Exprs: exprs, Names: names}
	if n.Pass != nil {
		u.Pass = make([]int, len(n.Pass))
		u.PassNames = make([]string, len(n.Pass))
		for i, c := range n.Pass {
			at, ok := lay[c.ID]
			if !ok {
				return nil, fmt.Errorf("internal error: unnest repeats column #%d that its input does not produce", c.ID)
			}
			u.Pass[i], u.PassNames[i] = at, c.Name
		}
	}
	return bd.wrap(u), nil
}
