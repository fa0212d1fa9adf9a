package planner

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

// The FoldConstants rule.

// foldConstants evaluates every sub-expression whose inputs are all
// constants once, at plan time. Errors (e.g. 1/0 overflow) are left for run
// time so they surface only if the expression is actually evaluated.
func foldConstants(n Node) Node {
	n = mapChildren(n, foldConstants)
	switch n := n.(type) {
	case *Filter:
		n.Cond = FoldExpr(n.Cond)
	case *Project:
		for i, e := range n.Exprs {
			n.Exprs[i] = FoldExpr(e)
		}
	}
	return n
}

// FoldExpr returns e with constant sub-expressions evaluated.
func FoldExpr(e Expr) Expr {
	switch x := e.(type) {
	case *Call:
		c := *x
		c.Args = make([]Expr, len(x.Args))
		allConst := true
		for i, a := range x.Args {
			c.Args[i] = FoldExpr(a)
			if _, ok := c.Args[i].(*Const); !ok {
				allConst = false
			}
		}
		if allConst && !Volatile(c.Fn) {
			if v, ok := evalConst(&c); ok {
				return &Const{Val: v}
			}
		}
		return &c
	case *Cast:
		c := *x
		c.Arg = FoldExpr(x.Arg)
		if k, ok := c.Arg.(*Const); ok {
			if v, err := executor.CastValue(k.Val, c.To); err == nil {
				return &Const{Val: v}
			}
		}
		return &c
	case *Case:
		c := *x
		c.Whens = make([]When, len(x.Whens))
		for i, w := range x.Whens {
			c.Whens[i] = When{Cond: FoldExpr(w.Cond), Then: FoldExpr(w.Then)}
		}
		if x.Else != nil {
			c.Else = FoldExpr(x.Else)
		}
		return &c
	}
	return e
}

func evalConst(e Expr) (columnar.Value, bool) {
	x, err := CompileExpr(e, nil)
	if err != nil {
		return columnar.Value{}, false
	}
	v, err := x.Eval(&columnar.Batch{Len: 1})
	if err != nil {
		return columnar.Value{}, false
	}
	out := v.Value(0)
	out.Type = e.Type()
	return out, true
}
