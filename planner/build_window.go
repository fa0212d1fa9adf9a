package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/executor"
)

func (bd *builder) buildWindow(n *Window) (executor.Operator, error) {
	in, err := bd.build(n.Input)
	if err != nil {
		return nil, err
	}
	lay := layout(n.Input.Schema())
	op := &executor.Window{Input: in}
	orders := map[string]int{} // window order key -> first function with it
	for i, f := range n.Funcs {
		wf := executor.WindowFunc{Name: f.Name, Type: f.Type, Offset: f.Offset, Default: f.Default,
			Param: f.Param, Distinct: f.Distinct, Frame: executor.WindowFrame(f.Frame), IgnoreNulls: f.IgnoreNulls, RowArgs: f.RowArgs,
			Aggregate: f.Aggregate, Agg: executor.AggKind(f.Agg)}
		for _, a := range f.Args {
			x, err := CompileExpr(a, lay)
			if err != nil {
				return nil, err
			}
			wf.Args = append(wf.Args, x)
		}
		for _, p := range f.Partition {
			x, err := CompileExpr(p, lay)
			if err != nil {
				return nil, err
			}
			wf.Partition = append(wf.Partition, x)
		}
		if wf.Order, err = compileKeys(f.Order, lay); err != nil {
			return nil, err
		}
		if wf.ArgOrder, err = compileKeys(f.ArgOrder, lay); err != nil {
			return nil, err
		}
		key := windowOrderKey(f)
		if k, ok := orders[key]; ok {
			wf.SharesOrder = k + 1
		} else {
			orders[key] = i
		}
		op.Funcs = append(op.Funcs, wf)
	}
	op.Partitioned = samePartition(n.Funcs)
	return bd.wrap(op), nil
}

// windowOrderKey identifies a function's PARTITION BY and ORDER BY: the
// expressions as EXPLAIN prints them plus the column IDs they read (two
// columns may print alike), the directions and NULL placements.
// samePartition reports whether every function has the same non-empty
// PARTITION BY: the window may then spill by partitions.
func samePartition(funcs []WindowFunc) bool {
	if len(funcs) == 0 || len(funcs[0].Partition) == 0 {
		return false
	}
	first := windowPartitionKey(funcs[0])
	for _, f := range funcs[1:] {
		if windowPartitionKey(f) != first {
			return false
		}
	}
	return true
}

// windowPartitionKey identifies a function's PARTITION BY.
func windowPartitionKey(f WindowFunc) string {
	return windowOrderKey(WindowFunc{Partition: f.Partition})
}

func windowOrderKey(f WindowFunc) string {
	var b strings.Builder
	ids := func(e Expr) []ColID {
		set := map[ColID]bool{}
		ExprCols(e, set)
		var out []ColID
		for id := range set {
			out = append(out, id)
		}
		slices.Sort(out)
		return out
	}
	for _, p := range f.Partition {
		fmt.Fprintf(&b, "P %s %v;", p, ids(p))
	}
	for _, k := range f.Order {
		fmt.Fprintf(&b, "O %s %v %v %v;", k.Expr, ids(k.Expr), k.Desc, k.NullsFirst)
	}
	return b.String()
}
