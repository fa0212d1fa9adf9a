package planner

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

func (bd *builder) workTable(w *WorkTable) *executor.WorkTable {
	if bd.work == nil {
		bd.work = map[*WorkTable]*executor.WorkTable{}
	}
	if x, ok := bd.work[w]; ok {
		return x
	}
	types := make([]columnar.Type, len(w.Cols))
	for i, c := range w.Cols {
		types[i] = c.Type
	}
	x := &executor.WorkTable{Types: types}
	bd.work[w] = x
	return x
}

func (bd *builder) buildRecursive(n *RecursiveCTE) (executor.Operator, error) {
	base, err := bd.build(n.Base)
	if err != nil {
		return nil, err
	}
	step, err := bd.build(n.Step)
	if err != nil {
		return nil, err
	}
	return bd.wrap(&executor.RecursiveCTE{Base: base, Step: step, Work: bd.workTable(n.Work), Distinct: n.Distinct}), nil
}
