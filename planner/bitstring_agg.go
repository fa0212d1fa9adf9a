package planner

import (
	"errors"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// AggBitstringAgg is bitstring_agg(x [, min, max]): a BIT of max-min+1
// bits with bit x-min set for each non-NULL integer x of the group
// (executor/aggstate_bitstring.go). Param is the LIST [min, max] in x's
// type; without it (no min and max written) Build takes them from the
// statistics of x's column, as DuckDB does, and refuses the query when
// there are none. The number matches executor.AggBitstringAgg.
const AggBitstringAgg AggFunc = 108

func init() { holisticNames[AggBitstringAgg] = "bitstring_agg" }

// ErrBitstringStats is the error of a bitstring_agg without min and max
// whose argument has no statistics (DuckDB's words).
var ErrBitstringStats = errors.New("could not retrieve required statistics. Alternatively, try by providing the statistics explicitly: BITSTRING_AGG(col, min, max)")

// ColumnRanger is a Table that knows the least and greatest non-NULL
// value of a column without a StatsProvider's metadata (an in-memory
// table, as DuckDB keeps statistics of its own tables): what
// bitstring_agg reads when no min and max are written. Both are NULL for
// a column without a non-NULL value (the aggregate is NULL then).
type ColumnRanger interface {
	Table
	ColumnRange(col int) (lo, hi columnar.Value, ok bool)
}

// bitstringBounds gives each bitstring_agg of n without min and max the
// range of its argument's statistics, as DuckDB's statistics propagation
// does: a constant, or a column followed down through filters (a
// comparison with a constant narrows it as DuckDB narrows it: x < 3 and x
// <= 3 both bound it by 3), projections and joins to a table's column.
// With the rules off (DuckDB's disable_optimizer) there are none.
func (bd *builder) bitstringBounds(n *Aggregate) error {
	for i := range n.Aggs {
		a := &n.Aggs[i]
		if a.Func != AggBitstringAgg || a.Param.Type.ID == columnar.List {
			continue
		}
		lo, hi, ok := columnar.Value{}, columnar.Value{}, false
		if !bd.opts.NoPrune {
			lo, hi, ok = exprRange(n.Input, a.Arg)
		}
		if !ok {
			return ErrBitstringStats
		}
		a.Param = columnar.Value{Type: columnar.ListOf(a.Arg.Type()), Elems: []columnar.Value{lo, hi}}
	}
	return nil
}

// exprRange is the range statistics give x over the rows of in.
func exprRange(in Node, x Expr) (lo, hi columnar.Value, ok bool) {
	switch x := x.(type) {
	case *Const:
		return x.Val, x.Val, true // NULL: no value to place, the aggregate is NULL
	case *ColRef:
		return colRange(in, x.Col)
	}
	return lo, hi, false
}

// colRange follows column c down from n to a table's column or a
// constant, narrowing by filters on the way.
func colRange(n Node, c Column) (lo, hi columnar.Value, ok bool) {
	switch n := n.(type) {
	case *Filter:
		if lo, hi, ok = colRange(n.Input, c); ok {
			lo, hi = narrowRange(n.Cond, c.ID, lo, hi)
		}
		return lo, hi, ok
	case *Project:
		for i, o := range n.Out {
			if o.ID == c.ID {
				return exprRange(n.Input, n.Exprs[i])
			}
		}
	case *Join:
		for _, side := range []Node{n.Left, n.Right} {
			for _, o := range side.Schema() {
				if o.ID == c.ID {
					return colRange(side, c)
				}
			}
		}
	case *Sort:
		return colRange(n.Input, c)
	case *Limit:
		return colRange(n.Input, c)
	case *Scan:
		for i, o := range n.Cols {
			if o.ID != c.ID || o.Type != c.Type {
				continue
			}
			if lo, hi, ok = tableRange(n.Table, n.TableCols[i]); ok {
				for _, p := range n.Filter {
					lo, hi = narrowPred(p, n.TableCols[i], lo, hi)
				}
			}
			return lo, hi, ok
		}
	}
	return lo, hi, false
}

// tableRange is the range of a table's column from its statistics.
func tableRange(t Table, col int) (lo, hi columnar.Value, ok bool) {
	if r, isRanger := t.(ColumnRanger); isRanger {
		return r.ColumnRange(col)
	}
	if sp, isStats := t.(StatsProvider); isStats {
		st, have := sp.ColumnStats(col)
		if have && st.HasMinMax && !st.Min.Null && !st.Max.Null {
			return st.Min, st.Max, true
		}
		if have && st.NullCount >= 0 && st.NullCount == st.Rows { // no value: no bit to set
			return columnar.NullValue(t.Schema()[col].Type), columnar.NullValue(t.Schema()[col].Type), true
		}
	}
	return lo, hi, false
}

// narrowRange narrows [lo, hi] of column id by the conjuncts of cond that
// compare it with a constant.
func narrowRange(cond Expr, id ColID, lo, hi columnar.Value) (columnar.Value, columnar.Value) {
	for _, e := range SplitAnd(cond) {
		b, isCall := e.(*Call)
		if !isCall || len(b.Args) != 2 {
			continue
		}
		op := b.Fn
		ref, isRef := b.Args[0].(*ColRef)
		k, isConst := b.Args[1].(*Const)
		if !isRef { // 3 > x is x < 3
			ref, isRef = b.Args[1].(*ColRef)
			k, isConst = b.Args[0].(*Const)
			op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}[op]
		}
		if !isRef || !isConst || ref.Col.ID != id || k.Val.Null || k.Val.Type != lo.Type {
			continue
		}
		lo, hi = narrowBy(op, k.Val, lo, hi)
	}
	return lo, hi
}

// narrowPred is narrowRange for a predicate a scan took.
func narrowPred(p index.Pred, col int, lo, hi columnar.Value) (columnar.Value, columnar.Value) {
	if p.Col != col || len(p.Vals) != 1 || p.Vals[0].Null || p.Vals[0].Type != lo.Type {
		return lo, hi
	}
	op := map[index.Op]string{index.Eq: "=", index.Lt: "<", index.Le: "<=", index.Gt: ">", index.Ge: ">="}[p.Op]
	return narrowBy(op, p.Vals[0], lo, hi)
}

// narrowBy bounds [lo, hi] by x op k: < and <= by k above, > and >= by k
// below, = by k on both sides (DuckDB does not step past k for < and >).
// A range left empty (x > 20 of values up to 12) is two NULLs: no value
// passes, the aggregate is NULL.
func narrowBy(op string, k, lo, hi columnar.Value) (columnar.Value, columnar.Value) {
	if lo.Null || hi.Null {
		return lo, hi
	}
	below, above := op == ">" || op == ">=" || op == "=", op == "<" || op == "<=" || op == "="
	if below && columnar.Compare(k, lo) > 0 {
		lo = k
	}
	if above && columnar.Compare(k, hi) < 0 {
		hi = k
	}
	if columnar.Compare(lo, hi) > 0 {
		return columnar.NullValue(lo.Type), columnar.NullValue(hi.Type)
	}
	return lo, hi
}
