package planner

import (
	"fmt"

	"github.com/b2sql/b2sql/executor"
)

// PositionalJoin is t POSITIONAL JOIN u: rows paired by their position,
// the shorter input padded with NULLs (executor.PositionalJoin). Output:
// the left columns, then the right ones. Build reads both inputs on one
// thread, in order. No rule knows it: filters stay above it and its
// inputs keep every column.
type PositionalJoin struct {
	Left, Right Node
}

func (n *PositionalJoin) Schema() []Column {
	return append(append([]Column(nil), n.Left.Schema()...), n.Right.Schema()...)
}
func (n *PositionalJoin) Children() []Node { return []Node{n.Left, n.Right} }
func (n *PositionalJoin) WithChildren(k []Node) Node {
	return &PositionalJoin{Left: k[0], Right: k[1]}
}

// AsofJoin is t [LEFT] ASOF JOIN u ON keys AND l op r
// (executor.AsofJoin): EquiKeys pair left and right expressions that must
// be equal, L (over the left input) op R (over the right) is the
// inequality. Output: the left columns, then the right ones. No rule
// knows it: filters stay above it and its inputs keep every column.
type AsofJoin struct {
	Left, Right Node
	EquiKeys    []EquiKey
	L, R        Expr
	Op          executor.AsofOp
	Outer       bool
}

func (n *AsofJoin) Schema() []Column {
	return append(append([]Column(nil), n.Left.Schema()...), n.Right.Schema()...)
}
func (n *AsofJoin) Children() []Node { return []Node{n.Left, n.Right} }
func (n *AsofJoin) WithChildren(k []Node) Node {
	c := *n
	c.Left, c.Right = k[0], k[1]
	return &c
}

func (n *AsofJoin) String() string {
	kind := "AsofJoin"
	if n.Outer {
		kind = "AsofJoin left"
	}
	keys := ""
	for _, k := range n.EquiKeys {
		keys += fmt.Sprintf("%s = %s AND ", k.L, k.R)
	}
	return fmt.Sprintf("%s %s%s %s %s", kind, keys, n.L, n.Op, n.R)
}

// buildPositionalJoin reads both inputs on one thread: their order is
// the pairing.
func (bd *builder) buildPositionalJoin(n *PositionalJoin) (executor.Operator, error) {
	saved := bd.opts.Threads
	bd.opts.Threads = 1
	defer func() { bd.opts.Threads = saved }()
	l, err := bd.build(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := bd.build(n.Right)
	if err != nil {
		return nil, err
	}
	return bd.wrap(&executor.PositionalJoin{Left: l, Right: r}), nil
}

func (bd *builder) buildAsofJoin(n *AsofJoin) (executor.Operator, error) {
	l, err := bd.build(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := bd.build(n.Right)
	if err != nil {
		return nil, err
	}
	ll, rl := layout(n.Left.Schema()), layout(n.Right.Schema())
	j := &executor.AsofJoin{Left: l, Right: r, Op: n.Op, Outer: n.Outer}
	for _, k := range n.EquiKeys {
		lk, err := CompileExpr(k.L, ll)
		if err != nil {
			return nil, err
		}
		rk, err := CompileExpr(k.R, rl)
		if err != nil {
			return nil, err
		}
		j.LeftKeys, j.RightKeys = append(j.LeftKeys, lk), append(j.RightKeys, rk)
	}
	if j.LeftOn, err = CompileExpr(n.L, ll); err != nil {
		return nil, err
	}
	if j.RightOn, err = CompileExpr(n.R, rl); err != nil {
		return nil, err
	}
	return bd.wrap(j), nil
}
