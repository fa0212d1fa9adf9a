package planner

import (
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestShareSums: avg(y) of a DOUBLE next to sum(y) becomes a division of
// sum(y) by count(y) above the aggregate, reusing count(y) when it is
// there; avg of DISTINCT x, of x without sum(x), of FLOAT and of an integer
// (whose DOUBLE division would round twice) keep their states.
func TestShareSums(t *testing.T) {
	x := &ColRef{Col: Column{ID: 1, Name: "x", Type: columnar.TInt32}}
	y := &ColRef{Col: Column{ID: 2, Name: "y", Type: columnar.TFloat64}}
	f := &ColRef{Col: Column{ID: 3, Name: "f", Type: columnar.TFloat32}}
	in := &Values{Out: []Column{x.Col, y.Col, f.Col}}
	agg := func(fn AggFunc, arg Expr, distinct bool, typ columnar.Type) AggCall {
		return AggCall{Func: fn, Arg: arg, Distinct: distinct, Type: typ}
	}
	a := &Aggregate{Input: in, Groups: []Expr{y}, Aggs: []AggCall{
		agg(AggSum, x, false, columnar.TInt64),
		agg(AggAvg, x, false, columnar.TFloat64),
		agg(AggAvg, x, true, columnar.TFloat64),
		agg(AggAvg, y, false, columnar.TFloat64),
		agg(AggSum, y, false, columnar.TFloat64),
		agg(AggCount, y, false, columnar.TInt64),
		agg(AggSum, f, false, columnar.TFloat64),
		agg(AggAvg, f, false, columnar.TFloat64),
	}}
	for i := 0; i <= len(a.Aggs); i++ {
		a.Out = append(a.Out, Column{ID: ColID(10 + i), Name: "c" + string(rune('0'+i)), Type: columnar.TFloat64})
	}
	p, ok := shareSums(a).(*Project)
	if !ok {
		t.Fatalf("no projection: %s", Format(shareSums(a)))
	}
	inner := p.Input.(*Aggregate)
	var got []string
	for _, c := range inner.Aggs {
		got = append(got, c.Func.String()+map[bool]string{true: " distinct", false: ""}[c.Distinct]+" "+c.Arg.String())
	}
	want := "sum x, avg x, avg distinct x, sum y, count y, sum f, avg f"
	if strings.Join(got, ", ") != want {
		t.Errorf("aggregates %q, want %q", strings.Join(got, ", "), want)
	}
	if len(inner.Out) != 1+len(inner.Aggs) {
		t.Errorf("%d output columns for %d aggregates", len(inner.Out), len(inner.Aggs))
	}
	// The projection gives the old columns in the old order.
	for i, c := range p.Out {
		if c != a.Out[i] {
			t.Errorf("output %d is %v, want %v", i, c, a.Out[i])
		}
	}
	// avg(y) divides by count(y) (c6); avg(x) and avg(DISTINCT x) keep
	// their own columns.
	if s := p.Exprs[4].String(); s != "(CAST(c5 AS DOUBLE) / CAST(c6 AS DOUBLE))" {
		t.Errorf("avg(y) = %s", s)
	}
	for _, k := range []int{2, 3} {
		if _, ok := p.Exprs[k].(*ColRef); !ok {
			t.Errorf("avg %d = %s, want its own column", k, p.Exprs[k])
		}
	}
	// Nothing to share: the aggregate comes back as it was.
	b := &Aggregate{Input: in, Aggs: []AggCall{agg(AggAvg, y, false, columnar.TFloat64)}, Out: a.Out[:1]}
	if got, ok := shareSums(b).(*Aggregate); !ok || len(got.Aggs) != 1 || got.Aggs[0].Func != AggAvg {
		t.Errorf("avg without sum rewritten: %s", Format(shareSums(b)))
	}
}
