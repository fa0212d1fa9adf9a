package planner

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/index"
)

// Rule rewrites a plan; it may change cost, never results.
type Rule struct {
	Name  string
	Apply func(Node) Node
}

// Rules is the ordered rule list (see doc.go for why this order).
var Rules = []Rule{
	{"FoldConstants", foldConstants},
	{"PushFilters", pushFilters},
	{"ReorderJoins", reorderJoins},
	{"AnswerFromMetadata", answerFromMetadata},
	{"SplitDistinct", splitDistinct},
	{"MakeTopK", makeTopK},
	{"PushLimits", pushLimits},
	{"PruneColumns", pruneColumns},
}

// Options select rules. Disabled names rules not to run; AllOff disables
// every rule (SET pruning = off), which must never change a result.
type Options struct {
	Disabled map[string]bool
	AllOff   bool
}

// Optimize applies the enabled rules in order and returns the names of the
// rules that ran.
func Optimize(n Node, opts Options) (Node, []string) {
	n = resolveCTEs(n, opts) // cte.go: WITH entries inlined or computed once
	var ran []string
	for _, r := range Rules {
		if opts.AllOff || opts.Disabled[r.Name] {
			continue
		}
		n = r.Apply(n)
		ran = append(ran, r.Name)
	}
	return n, ran
}

// mapChildren rebuilds n with f applied to each child; a leaf is
// returned as it is.
func mapChildren(n Node, f func(Node) Node) Node {
	kids := n.Children()
	if len(kids) == 0 {
		return n
	}
	out := make([]Node, len(kids))
	for i, k := range kids {
		out[i] = f(k)
	}
	return n.WithChildren(out)
}

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

// makeTopK turns Limit over Sort into a bounded-heap TopK.
func makeTopK(n Node) Node {
	n = mapChildren(n, makeTopK)
	if l, ok := n.(*Limit); ok && l.Count >= 0 {
		if s, ok := l.Input.(*Sort); ok {
			return &TopK{Input: s.Input, Keys: s.Keys, Count: l.Count, Offset: l.Offset}
		}
	}
	return n
}

// pushLimits lets a scan stop early when a Limit sits above it with only
// order-preserving, row-count-preserving nodes (Project) between.
func pushLimits(n Node) Node {
	n = mapChildren(n, pushLimits)
	l, ok := n.(*Limit)
	if !ok || l.Count < 0 {
		return n
	}
	in := l.Input
	for {
		p, ok := in.(*Project)
		if !ok {
			break
		}
		in = p.Input
	}
	if s, ok := in.(*Scan); ok {
		// Only predicates the scan applies exactly may sit below a limit:
		// an inexact one leaves a Filter above the scan, which ends the walk.
		exact := true
		for _, sup := range s.Support {
			exact = exact && sup == index.Exact
		}
		if exact {
			s.Limit = l.Count + l.Offset
		}
	}
	return n
}
