package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// limitPerKey decorrelates a correlated subquery with [ORDER BY …] LIMIT
// n [OFFSET k], such as the latest order of each customer:
//
//	(SELECT o.total FROM orders o WHERE o.cust = c.id ORDER BY o.day DESC LIMIT 1)
//
// For an outer row the subquery sees S(o), the inner rows whose keys equal
// the outer values; with only equalities as correlation, S(o) is one
// partition of the inner rows by those keys. So the LIMIT becomes
//
//	Filter k < rn <= k + n (Window rn = row_number() OVER (PARTITION BY inner keys ORDER BY …) (w))
//
// and the join on the correlation proceeds as without a LIMIT. w is the
// subquery's WHERE filter (correlated conjuncts removed), keys the ORDER
// BY keys over w's columns.
func (b *binder) limitPerKey(w planner.Node, corr []planner.Expr, outerRefs map[planner.ColID]bool, lim *planner.Limit, keys []planner.SortKey, unsupported func(string) error) (planner.Node, error) {
	inner := map[planner.ColID]bool{}
	for _, col := range w.Schema() {
		inner[col.ID] = true
	}
	var part []planner.Expr
	for _, e := range corr {
		call, ok := e.(*planner.Call)
		if !ok || call.Fn != "=" {
			return nil, unsupported("with LIMIT and a correlation other than equalities")
		}
		l, r := call.Args[0], call.Args[1]
		if readsAny(l, inner) {
			l, r = r, l
		}
		if !readsOnly(l, outerRefs) || !readsOnly(r, inner) {
			return nil, unsupported("with LIMIT and this correlation")
		}
		part = append(part, r)
	}
	for _, k := range keys {
		if !readsOnly(k.Expr, inner) {
			return nil, unsupported("with LIMIT and this ORDER BY")
		}
	}
	rn := b.newCol("row_number", "", columnar.TInt64)
	win := &planner.Window{Input: w, Out: []planner.Column{rn}, Funcs: []planner.WindowFunc{{
		Name: "row_number", Partition: part, Order: keys, Type: columnar.TInt64,
		Frame: planner.Frame{StartUnbounded: true, EndUnbounded: len(keys) == 0},
	}}}
	ref := &planner.ColRef{Col: rn}
	i64 := func(v int64) planner.Expr { return &planner.Const{Val: columnar.IntValue(columnar.TInt64, v)} }
	cond := &planner.Call{Fn: "<=", Args: []planner.Expr{ref, i64(lim.Offset + lim.Count)}, T: columnar.TBool}
	if lim.Count < 0 || lim.Offset+lim.Count < lim.Offset { // OFFSET alone (Count -1), or past int64
		cond = &planner.Call{Fn: ">", Args: []planner.Expr{ref, i64(lim.Offset)}, T: columnar.TBool}
	} else if lim.Offset > 0 {
		cond = &planner.Call{Fn: "and", Args: []planner.Expr{
			&planner.Call{Fn: ">", Args: []planner.Expr{ref, i64(lim.Offset)}, T: columnar.TBool}, cond}, T: columnar.TBool}
	}
	return &planner.Filter{Input: win, Cond: cond}, nil
}
