package planner

import "github.com/b2sql/b2sql/executor"

// rangeKeys returns, for a join without equality keys, the conjuncts of
// its condition of the form left op right (op one of < <= > >=, one side
// reading only left columns, the other only right columns, of one type),
// turned so that the left side comes first: the first one found, and a
// second bounding the same right expression from the other side if there
// is one (SameRight), else one bounding another right expression from the
// other side. The executor sorts the build rows by the first one's right
// (executor/rangejoin.go); Cond still holds all conjuncts.
func rangeKeys(n *Join, llay, rlay map[ColID]int) ([]executor.RangeKey, error) {
	if len(n.EquiKeys) > 0 || n.Cond == nil {
		return nil, nil
	}
	l, r := colSet(n.Left.Schema()), colSet(n.Right.Schema())
	type cand struct {
		l, r Expr
		op   string
	}
	var cs []cand
	for _, c := range SplitAnd(n.Cond) {
		call, ok := c.(*Call)
		if !ok || len(call.Args) != 2 || flipOp[call.Fn] == "" || call.Args[0].Type() != call.Args[1].Type() {
			continue
		}
		a, b := call.Args[0], call.Args[1]
		switch {
		case within(a, l) && within(b, r):
			cs = append(cs, cand{a, b, call.Fn})
		case within(a, r) && within(b, l):
			cs = append(cs, cand{b, a, flipOp[call.Fn]})
		}
	}
	if len(cs) == 0 {
		return nil, nil
	}
	// The second key: the first other bound of the same build expression,
	// else the first bound of another one from the other side.
	pick := []cand{cs[0]}
	same := false
	for _, c := range cs[1:] {
		if lowerBound(c.op) == lowerBound(cs[0].op) {
			continue
		}
		if c.r.String() == cs[0].r.String() {
			pick, same = []cand{cs[0], c}, true
			break
		}
		if len(pick) == 1 {
			pick = append(pick, c)
		}
	}
	var keys []executor.RangeKey
	for i, c := range pick {
		le, err := CompileExpr(c.l, llay)
		if err != nil {
			return nil, err
		}
		re, err := CompileExpr(c.r, rlay)
		if err != nil {
			return nil, err
		}
		keys = append(keys, executor.RangeKey{Left: le, Right: re, Op: c.op, SameRight: i == 1 && same})
	}
	return keys, nil
}

// flipOp is each inequality with its sides swapped.
var flipOp = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}

// lowerBound reports whether left op right bounds right from below.
func lowerBound(op string) bool { return op == "<" || op == "<=" }
