package planner

import (
	"fmt"
	"strings"
)

// A WHERE clause that ORs whole join conditions, as TPC-H Q19 does,
//
//	(p_partkey = l_partkey AND p_brand = 'Brand#12' AND l_quantity <= 11 …)
//	OR (p_partkey = l_partkey AND p_brand = 'Brand#23' …) OR …
//
// hides its join key inside the OR: split into conjuncts it reads both sides
// but is no equality, so the join would be a cross product filtered row
// pair by row pair. factorOrs pulls the conjuncts every branch shares out of
// the OR (A∧B ∨ A∧C ≡ A ∧ (B∨C)), which exposes the key. orImplied then
// derives, for one side of the join, the OR of what each branch asks of that
// side alone ((B∨C) implies (B|side ∨ C|side)): a filter the side can apply
// before the join, and push into its scan, while the full OR stays on the
// join. Both rewrites are equivalences or implications, so results never
// change.

// factorOrs rewrites each OR conjunct of conds whose branches share
// conjuncts into those shared conjuncts plus the OR of what remains.
func factorOrs(conds []Expr) []Expr {
	out := make([]Expr, 0, len(conds))
	for _, c := range conds {
		out = append(out, factorOr(c)...)
	}
	return out
}

func factorOr(c Expr) []Expr {
	branches := splitOr(c)
	if len(branches) < 2 {
		return []Expr{c}
	}
	split := make([][]Expr, len(branches))
	for i, b := range branches {
		split[i] = SplitAnd(b)
	}
	var common []Expr
	for _, cand := range split[0] {
		k := exprKey(cand)
		if k == "" {
			continue
		}
		inAll := true
		for _, s := range split[1:] {
			if indexKey(s, k) < 0 {
				inAll = false
				break
			}
		}
		if inAll && indexKey(common, k) < 0 {
			common = append(common, cand)
		}
	}
	if len(common) == 0 {
		return []Expr{c}
	}
	rest := make([]Expr, 0, len(split))
	for _, s := range split {
		var left []Expr
		for _, e := range s {
			if k := exprKey(e); k == "" || indexKey(common, k) < 0 {
				left = append(left, e)
			}
		}
		if len(left) == 0 {
			// One branch is just the common part: the OR adds nothing to it.
			return common
		}
		rest = append(rest, JoinAnd(left))
	}
	return append(common, joinOr(rest))
}

// orImplied returns the filter an OR condition c implies on the columns in
// side: per branch, the AND of its conjuncts reading only those columns; nil
// when c is no OR or some branch says nothing about the side (then nothing
// is implied).
func orImplied(c Expr, side map[ColID]bool) Expr {
	branches := splitOr(c)
	if len(branches) < 2 {
		return nil
	}
	parts := make([]Expr, len(branches))
	for i, b := range branches {
		var mine []Expr
		for _, e := range SplitAnd(b) {
			if within(e, side) {
				mine = append(mine, e)
			}
		}
		if len(mine) == 0 {
			return nil
		}
		parts[i] = JoinAnd(mine)
	}
	return joinOr(parts)
}

// splitOr flattens nested ORs into branches.
func splitOr(e Expr) []Expr {
	if c, ok := e.(*Call); ok && c.Fn == "or" {
		var out []Expr
		for _, a := range c.Args {
			out = append(out, splitOr(a)...)
		}
		return out
	}
	return []Expr{e}
}

// joinOr combines branches (at least one).
func joinOr(es []Expr) Expr {
	if len(es) == 1 {
		return es[0]
	}
	return &Call{Fn: "or", Args: es, T: es[0].Type()}
}

func indexKey(es []Expr, k string) int {
	for i, e := range es {
		if exprKey(e) == k {
			return i
		}
	}
	return -1
}

// exprKey is a structural identity for an expression: equal keys mean the
// same computation over the same columns (columns by ID, not by name, so
// n1.n_name and n2.n_name differ). "" means no key (never equal).
func exprKey(e Expr) string {
	var b strings.Builder
	if !writeKey(&b, e) {
		return ""
	}
	return b.String()
}

func writeKey(b *strings.Builder, e Expr) bool {
	switch x := e.(type) {
	case *ColRef:
		fmt.Fprintf(b, "#%d", x.Col.ID)
	case *Const:
		fmt.Fprintf(b, "%s:%s", x.Val.Type, x)
	case *Cast:
		fmt.Fprintf(b, "cast(%v,%s,", x.Try, x.To)
		if !writeKey(b, x.Arg) {
			return false
		}
		b.WriteByte(')')
	case *Call:
		fmt.Fprintf(b, "%s:%s(", x.Fn, x.T)
		for i, a := range x.Args {
			if i > 0 {
				b.WriteByte(',')
			}
			if !writeKey(b, a) {
				return false
			}
		}
		b.WriteByte(')')
	case *Case:
		fmt.Fprintf(b, "case:%s(", x.T)
		for _, w := range x.Whens {
			if !writeKey(b, w.Cond) {
				return false
			}
			b.WriteByte(',')
			if !writeKey(b, w.Then) {
				return false
			}
			b.WriteByte(';')
		}
		if x.Else != nil && !writeKey(b, x.Else) {
			return false
		}
		b.WriteByte(')')
	default:
		return false
	}
	return true
}
