package planner

import "github.com/b2sql/b2sql/executor"

// planChainFilters plans the join filters of the joins of a parallel
// pipeline chain n (Filters, Projects and join probe sides over one scan,
// see pipelineScan) before the chain is built: every worker's copy of a
// join then fills (through the one shared build) the same filters, which
// the shared scan and the JoinFilterOp of every worker read. It returns
// every filter planned, for dropJoinFilters once the chain is built.
func (bd *builder) planChainFilters(n Node) []*executor.JoinFilter {
	var all []*executor.JoinFilter
	for {
		switch x := n.(type) {
		case *Filter:
			n = x.Input
		case *Project:
			n = x.Input
		case *Join:
			fs := bd.planJoinFilters(x, executor.JoinKind(x.Kind))
			if len(fs) > 0 {
				if bd.joinFiltersOf == nil {
					bd.joinFiltersOf = map[*Join][]*executor.JoinFilter{}
				}
				bd.joinFiltersOf[x] = fs
				all = append(all, fs...)
			}
			n = x.Left
		default:
			return all
		}
	}
}
