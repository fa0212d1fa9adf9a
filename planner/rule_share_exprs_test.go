package planner

import (
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestShareExprs: Q01's a*(1-b), used alone and inside a*(1-b)*(1+c), is
// computed once in a projection below the aggregate, which passes c
// through; a call used twice only under CASE branches, a volatile call
// and a call of one use stay where they are.
func TestShareExprs(t *testing.T) {
	col := func(id ColID, name string) *ColRef {
		return &ColRef{Col: Column{ID: id, Name: name, Type: columnar.TFloat64}}
	}
	a, b, c, d := col(1, "a"), col(2, "b"), col(3, "c"), col(4, "d")
	in := &Values{Out: []Column{a.Col, b.Col, c.Col, d.Col}}
	call := func(fn string, args ...Expr) *Call { return &Call{Fn: fn, Args: args, T: columnar.TFloat64} }
	one := &Const{Val: columnar.FloatValue(columnar.TFloat64, 1)}
	disc := func() Expr { return call("*", a, call("-", one, b)) } // a*(1-b), a fresh tree each time
	onlyCase := func() Expr { return call("*", c, d) }
	// Each CASE of its own condition: the first condition is evaluated
	// for every row, and would be shared.
	when := func(k float64, e Expr) Expr {
		bound := &Const{Val: columnar.FloatValue(columnar.TFloat64, k)}
		return &Case{Whens: []When{{Cond: &Call{Fn: ">", Args: []Expr{d, bound}, T: columnar.TBool}, Then: e}}, T: columnar.TFloat64}
	}
	rnd := func() Expr { return call("*", a, &Call{Fn: "random", T: columnar.TFloat64}) }
	sum := func(e Expr) AggCall { return AggCall{Func: AggSum, Arg: e, Type: columnar.TFloat64} }
	agg := &Aggregate{Input: in, Aggs: []AggCall{
		sum(disc()),
		sum(call("*", disc(), call("+", one, c))),
		sum(when(1, onlyCase())),
		sum(when(2, onlyCase())),
		sum(rnd()),
		sum(rnd()),
		sum(call("+", b, d)),
	}}
	for i := range agg.Aggs {
		agg.Out = append(agg.Out, Column{ID: ColID(10 + i), Name: "s", Type: columnar.TFloat64})
	}
	got, ok := shareExprs(agg).(*Aggregate)
	if !ok {
		t.Fatalf("not an aggregate: %s", Format(shareExprs(agg)))
	}
	p, ok := got.Input.(*Project)
	if !ok {
		t.Fatalf("no projection below the aggregate: %s", Format(got))
	}
	var below []string
	for i, e := range p.Exprs {
		below = append(below, p.Out[i].Name+"="+e.String())
	}
	// a*(1-b) once, and the columns the rewritten arguments still read.
	want := "a=a, b=b, c=c, d=d, (a * (1.0 - b))=(a * (1.0 - b))"
	if s := strings.Join(below, ", "); s != want {
		t.Errorf("projection %s, want %s", s, want)
	}
	e := p.Out[4]
	if e.ID <= 16 {
		t.Errorf("new column id %d collides with the plan's", e.ID)
	}
	if r, ok := got.Aggs[0].Arg.(*ColRef); !ok || r.Col != e {
		t.Errorf("sum(a*(1-b)) reads %s", got.Aggs[0].Arg)
	}
	if s := got.Aggs[1].Arg.String(); s != "((a * (1.0 - b)) * (1.0 + c))" {
		t.Errorf("second argument %s", s)
	}
	if r, ok := got.Aggs[1].Arg.(*Call).Args[0].(*ColRef); !ok || r.Col != e {
		t.Errorf("second argument does not read the shared column: %s", got.Aggs[1].Arg)
	}
	for i := 2; i < 7; i++ {
		if got.Aggs[i].Arg != agg.Aggs[i].Arg {
			t.Errorf("argument %d rewritten: %s", i, got.Aggs[i].Arg)
		}
	}
	// The input aggregate is untouched, and nothing shared is a no-op.
	if _, ok := agg.Input.(*Values); !ok || agg.Aggs[0].Arg.String() != "(a * (1.0 - b))" {
		t.Error("the rule modified its input")
	}
	lone := &Aggregate{Input: in, Aggs: agg.Aggs[2:], Out: agg.Out[2:]}
	if Format(shareExprs(lone)) != Format(lone) {
		t.Errorf("nothing to share, yet: %s", Format(shareExprs(lone)))
	}
	// A projection's list: the shared call also read under a CASE branch.
	proj := &Project{Input: in, Exprs: []Expr{disc(), when(1, disc())}, Out: agg.Out[:2]}
	q, ok := shareExprs(proj).(*Project)
	if !ok || q == proj {
		t.Fatalf("projection not shared: %s", Format(shareExprs(proj)))
	}
	if s := q.Exprs[1].String(); s != "CASE WHEN (d > 1.0) THEN (a * (1.0 - b)) END" {
		t.Errorf("CASE branch %s", s)
	}
	if _, ok := q.Exprs[1].(*Case).Whens[0].Then.(*ColRef); !ok {
		t.Errorf("CASE branch does not read the shared column")
	}
}
