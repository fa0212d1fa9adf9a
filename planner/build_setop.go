package planner

import "github.com/b2sql/b2sql/executor"

func (bd *builder) buildSetOp(n *SetOp) (executor.Operator, error) {
	left, err := bd.build(n.Left)
	if err != nil {
		return nil, err
	}
	right, err := bd.build(n.Right)
	if err != nil {
		return nil, err
	}
	return bd.wrap(&executor.SetOp{Left: left, Right: right, Kind: executor.SetOpKind(n.Kind), All: n.All}), nil
}
