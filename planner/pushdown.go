package planner

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// pushFilters offers each conjunct of a Filter sitting on a Scan to the
// table as an index.Pred, after moving it below joins (pushdown_join.go)
// and below projections, sorts, DISTINCT, GROUP BY keys and set operations
// (pushdown_through.go). What the table applies exactly is dropped from
// the Filter; the rest stays (inexact predicates are applied twice: once to
// skip data, once per row).
func pushFilters(n Node) Node {
	return pushHere(mapChildren(n, pushFilters))
}

// pushHere is pushFilters for n alone, its children already done.
func pushHere(n Node) Node {
	if j, ok := n.(*Join); ok {
		return pushJoinFilter(nil, j)
	}
	f, ok := n.(*Filter)
	if !ok {
		return n
	}
	if j, ok := f.Input.(*Join); ok {
		return pushJoinFilter(f, j)
	}
	if moved, ok := pushThrough(f); ok {
		return moved
	}
	s, ok := f.Input.(*Scan)
	if !ok {
		return n
	}
	fp, canPush := s.Table.(FilterPusher)
	var keep []Expr
	scan := *s
	// offer pushes p unless the scan has it already, and reports whether
	// the scan applies it exactly.
	offer := func(p index.Pred) bool {
		if sup, ok := offered(&scan, p); ok {
			return sup == index.Exact
		}
		sup := index.Unsupported
		if canPush {
			sup = fp.SupportsFilter(p)
		}
		if sup == index.Unsupported {
			return false
		}
		scan.Filter = append(append([]index.Pred{}, scan.Filter...), p)
		scan.Support = append(append([]index.Support{}, scan.Support...), sup)
		return sup == index.Exact
	}
	for _, c := range SplitAnd(f.Cond) {
		if p, ok := likeRange(c, s); ok {
			// The range only skips data: the LIKE stays above the scan.
			offer(p)
			keep = append(keep, c)
			continue
		}
		p, ok := toPred(c, s)
		if !ok || !offer(p) {
			keep = append(keep, c)
		}
	}
	if len(keep) == 0 {
		return &scan
	}
	return &Filter{Input: &scan, Cond: JoinAnd(keep)}
}

// SplitAnd flattens nested ANDs into conjuncts.
func SplitAnd(e Expr) []Expr {
	if c, ok := e.(*Call); ok && c.Fn == "and" {
		var out []Expr
		for _, a := range c.Args {
			out = append(out, SplitAnd(a)...)
		}
		return out
	}
	return []Expr{e}
}

// JoinAnd combines conjuncts.
func JoinAnd(es []Expr) Expr {
	if len(es) == 1 {
		return es[0]
	}
	return &Call{Fn: "and", Args: es, T: columnar.TBool}
}

var predOps = map[string]index.Op{"=": index.Eq, "<>": index.Ne, "<": index.Lt, "<=": index.Le, ">": index.Gt, ">=": index.Ge}
var flipOps = map[index.Op]index.Op{index.Lt: index.Gt, index.Le: index.Ge, index.Gt: index.Lt, index.Ge: index.Le, index.Eq: index.Eq, index.Ne: index.Ne}

// toPred converts a conjunct to a scan predicate when it is a scan column
// compared with constants. Widening casts the binder put on the column are
// undone by converting the constant to the column's type instead.
func toPred(e Expr, s *Scan) (index.Pred, bool) {
	c, ok := e.(*Call)
	if !ok {
		return index.Pred{}, false
	}
	switch c.Fn {
	case "=", "<>", "<", "<=", ">", ">=":
		op := predOps[c.Fn]
		col, colType, okc := scanCol(c.Args[0], s)
		k, okk := c.Args[1].(*Const)
		if !okc || !okk {
			col, colType, okc = scanCol(c.Args[1], s)
			k, okk = c.Args[0].(*Const)
			op = flipOps[op]
		}
		if !okc || !okk {
			return index.Pred{}, false
		}
		v, ok := constAs(k.Val, colType)
		if !ok {
			return index.Pred{}, false
		}
		return index.Pred{Col: col, Op: op, Vals: []columnar.Value{v}}, true
	case "in":
		col, colType, ok := scanCol(c.Args[0], s)
		if !ok {
			return index.Pred{}, false
		}
		var vals []columnar.Value
		for _, a := range c.Args[1:] {
			k, ok := a.(*Const)
			if !ok {
				return index.Pred{}, false
			}
			if k.Val.Null {
				continue // never matches; cannot make a row TRUE
			}
			v, ok := constAs(k.Val, colType)
			if !ok {
				return index.Pred{}, false
			}
			vals = append(vals, v)
		}
		if len(vals) == 0 {
			return index.Pred{}, false
		}
		return index.Pred{Col: col, Op: index.In, Vals: vals}, true
	case "is_null", "is_not_null":
		col, _, ok := scanCol(c.Args[0], s)
		if !ok {
			return index.Pred{}, false
		}
		op := index.IsNull
		if c.Fn == "is_not_null" {
			op = index.IsNotNull
		}
		return index.Pred{Col: col, Op: op}, true
	case "or":
		var any []index.Pred
		for _, a := range c.Args {
			p, ok := toPred(a, s)
			if !ok {
				return index.Pred{}, false
			}
			any = append(any, p)
		}
		return index.Pred{Op: index.Or, Any: any}, true
	}
	return index.Pred{}, false
}

// scanCol reports the table column an expression reads, seeing through
// lossless integer widening casts.
func scanCol(e Expr, s *Scan) (int, columnar.Type, bool) {
	if c, ok := e.(*Cast); ok && !c.Try {
		from := c.Arg.Type()
		if !(from.IsInteger() && c.To.IsInteger() && from.ID != columnar.Uint64 && c.To.ID != columnar.Uint64) &&
			!(from.ID == columnar.Float32 && c.To.ID == columnar.Float64) {
			return 0, columnar.Type{}, false
		}
		e = c.Arg
	}
	r, ok := e.(*ColRef)
	if !ok {
		return 0, columnar.Type{}, false
	}
	for i, c := range s.Cols {
		if c.ID == r.Col.ID {
			return s.TableCols[i], c.Type, true
		}
	}
	return 0, columnar.Type{}, false
}

// constAs converts a non-NULL constant to the column type when that is
// exact (the comparison keeps its meaning), or reports false.
func constAs(v columnar.Value, t columnar.Type) (columnar.Value, bool) {
	if v.Null {
		return v, false
	}
	if v.Type == t {
		return v, true
	}
	switch {
	case t.IsInteger() && v.Type.IsInteger() && t.ID != columnar.Uint64 && v.Type.ID != columnar.Uint64:
		lo, hi := t.IntRange()
		if v.I < lo || v.I > hi {
			return v, false
		}
		return columnar.IntValue(t, v.I), true
	case t.ID == columnar.Float32 && v.Type.ID == columnar.Float64:
		if float64(float32(v.F)) != v.F {
			return v, false
		}
		return columnar.FloatValue(t, v.F), true
	}
	return v, false
}

// likeRange returns, for col LIKE 'p%' on a VARCHAR scan column (p not
// empty, free of wildcards and of the backslash that escapes them), a
// predicate that every string starting with p satisfies: col BETWEEN p
// AND p⁺, p⁺ being p with its last byte below 0xFF incremented (bytes
// after it dropped), or col >= p when there is no such byte. VARCHAR
// compares bytes, so the strings starting with p are those in [p, p⁺);
// the closed range also admits p⁺ itself, which the LIKE, kept above the
// scan, rejects. One predicate, not two, so that a scan evaluating it
// (CTable late materialization) passes over the rows once. Pushed to the
// scan it lets statistics skip what cannot start with p (Parquet row
// groups, CTable blocks by their min/max), as DuckDB does for prefix
// patterns.
func likeRange(e Expr, s *Scan) (index.Pred, bool) {
	c, ok := e.(*Call)
	if !ok || c.Fn != "like" || len(c.Args) != 2 {
		return index.Pred{}, false
	}
	col, colType, okc := scanCol(c.Args[0], s)
	k, okk := c.Args[1].(*Const)
	if !okc || !okk || k.Val.Null || colType.ID != columnar.Varchar || k.Val.Type.ID != columnar.Varchar {
		return index.Pred{}, false
	}
	prefix := strings.TrimRight(k.Val.S, "%")
	if prefix == "" || len(prefix) == len(k.Val.S) || strings.ContainsAny(prefix, `%_\`) {
		return index.Pred{}, false
	}
	lo := columnar.Value{Type: colType, S: prefix}
	up, ok := columnar.PrefixSuccessor([]byte(prefix))
	if !ok {
		return index.Pred{Col: col, Op: index.Ge, Vals: []columnar.Value{lo}}, true
	}
	return index.Pred{Col: col, Op: index.Between, Vals: []columnar.Value{lo, {Type: colType, S: string(up)}}}, true
}
