package planner

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// specTable records the scan specs it receives and returns no rows.
type specTable struct {
	schema columnar.Schema
}

func (t *specTable) Schema() columnar.Schema { return t.schema }
func (t *specTable) Scan(context.Context, index.ScanSpec) (columnar.Reader, error) {
	panic("not scanned")
}

// TestPlanDict: which columns the planner asks to receive as dictionary
// codes, by how the query uses them.
func TestPlanDict(t *testing.T) {
	tbl := &specTable{schema: columnar.Schema{
		{Name: "id", Type: columnar.TInt64}, {Name: "s", Type: columnar.TVarchar}, {Name: "u", Type: columnar.TVarchar}}}
	id := Column{ID: 1, Name: "id", Type: columnar.TInt64}
	s := Column{ID: 2, Name: "s", Type: columnar.TVarchar}
	u := Column{ID: 3, Name: "u", Type: columnar.TVarchar}
	scan := func() *Scan {
		return &Scan{Table: tbl, Name: "t", TableCols: []int{0, 1, 2}, Cols: []Column{id, s, u}, Limit: -1}
	}
	lit := func(v string) Expr { return &Const{Val: columnar.StringValue(v)} }
	call := func(fn string, args ...Expr) Expr { return &Call{Fn: fn, Args: args, T: columnar.TBool} }
	sRef, uRef, idRef := &ColRef{Col: s}, &ColRef{Col: u}, &ColRef{Col: id}
	countStar := AggCall{Func: AggCountStar, Type: columnar.TInt64}
	agg := func(in Node, groups []Expr, aggs ...AggCall) *Aggregate {
		out := make([]Column, len(groups)+len(aggs))
		for i := range out {
			out[i] = Column{ID: ColID(20 + i), Type: columnar.TInt64}
		}
		return &Aggregate{Input: in, Groups: groups, Aggs: aggs, Out: out}
	}
	cases := []struct {
		name string
		plan func() *Aggregate
		opts BuildOptions
		want []int // scan output positions asked for as codes
	}{
		{"group key", func() *Aggregate { return agg(scan(), []Expr{sRef}, countStar) }, BuildOptions{}, []int{1}},
		{"filter = and IN", func() *Aggregate {
			f := &Filter{Input: scan(), Cond: call("and", call("=", sRef, lit("a")), call("in", uRef, lit("x"), lit("y")))}
			return agg(f, nil, countStar)
		}, BuildOptions{}, []int{1, 2}},
		{"min and count args", func() *Aggregate {
			return agg(scan(), []Expr{idRef},
				AggCall{Func: AggMin, Arg: sRef, Type: columnar.TVarchar}, AggCall{Func: AggCount, Arg: uRef, Type: columnar.TInt64})
		}, BuildOptions{}, []int{1, 2}},
		{"like keeps strings", func() *Aggregate {
			f := &Filter{Input: scan(), Cond: call("like", sRef, lit("a%"))}
			return agg(f, []Expr{sRef}, countStar)
		}, BuildOptions{}, nil},
		{"column compared with column", func() *Aggregate {
			f := &Filter{Input: scan(), Cond: call("=", sRef, uRef)}
			return agg(f, []Expr{sRef}, countStar)
		}, BuildOptions{}, nil},
		{"expression key", func() *Aggregate {
			return agg(scan(), []Expr{&Call{Fn: "lower", Args: []Expr{sRef}, T: columnar.TVarchar}}, countStar)
		}, BuildOptions{}, nil},
		{"through a project", func() *Aggregate {
			k := Column{ID: 9, Name: "k", Type: columnar.TVarchar}
			p := &Project{Input: scan(), Exprs: []Expr{sRef, &Call{Fn: "upper", Args: []Expr{uRef}, T: columnar.TVarchar}}, Out: []Column{k, {ID: 10, Type: columnar.TVarchar}}}
			return agg(p, []Expr{&ColRef{Col: k}}, countStar)
		}, BuildOptions{}, []int{1}},
		{"rule off", func() *Aggregate { return agg(scan(), []Expr{sRef}, countStar) }, BuildOptions{ScanRulesOff: index.RuleSet(0).With(index.DictCodes)}, nil},
		{"pruning off", func() *Aggregate { return agg(scan(), []Expr{sRef}, countStar) }, BuildOptions{NoPrune: true}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Threads = 1
			a := tc.plan()
			built, err := Build(a, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			n := Node(a)
			for len(n.Children()) > 0 {
				n = n.Children()[0]
			}
			sc := n.(*Scan)
			bd := &builder{opts: tc.opts}
			bd.planDict(a)
			if got := bd.dict[sc]; !slices.Equal(got, tc.want) {
				t.Fatalf("dict columns %v, want %v", got, tc.want)
			}
			explain := built.Explain(false)
			if has := strings.Contains(explain, "dict codes: "); has != (len(tc.want) > 0) {
				t.Fatalf("EXPLAIN:\n%s", explain)
			}
		})
	}
}
