package planner

import "github.com/b2sql/b2sql/executor"

// buildCTEScan builds a reader of a materialized WITH entry; the first
// reader built also builds the entry's plan, which every reader shares.
func (bd *builder) buildCTEScan(n *CTEScan) (executor.Operator, error) {
	c, ok := bd.ctes[n.CTE]
	if !ok {
		in, err := bd.build(n.CTE.Plan)
		if err != nil {
			return nil, err
		}
		c = &executor.CTE{Input: in, Name: n.CTE.Name, Uses: n.CTE.Uses}
		c.SetMemory(bd.built.Memory)
		if bd.ctes == nil {
			bd.ctes = map[*CTE]*executor.CTE{}
		}
		bd.ctes[n.CTE] = c
		bd.built.ctes = append(bd.built.ctes, c)
	}
	return bd.wrap(&executor.CTEScan{CTE: c}), nil
}
