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
		case *Project, *Unnest:
			n = x.Children()[0]
		case *Join:
			j, next := x, x.Left
			if !probeInParallel(x) {
				j, next = bd.swappedOf(x), x.Right // run swapped (probesRight)
			}
			fs := bd.planJoinFilters(j, executor.JoinKind(j.Kind))
			if len(fs) > 0 {
				if bd.joinFiltersOf == nil {
					bd.joinFiltersOf = map[*Join][]*executor.JoinFilter{}
				}
				bd.joinFiltersOf[j] = fs
				all = append(all, fs...)
			}
			n = next
		default:
			return all
		}
	}
}
