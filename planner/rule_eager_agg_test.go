package planner

import (
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// eagerCase is TPC-H Q10's shape in two tables: c (3000 rows: ck BIGINT,
// cname VARCHAR, cseg INTEGER) joined on c.ck = o.ock to o (rows, with a
// pushed predicate when filtered: ock BIGINT, ov INTEGER, of DOUBLE,
// oname VARCHAR), grouped by c.ck, c.cname with sum(o.ov) typed BIGINT,
// as the binder types a SUM of INTEGER.
type eagerCase struct {
	ck, cname, cseg, ock, ov, of, oname Column
	c, o                                *Scan
}

func newEagerCase(oRows int64, oFiltered bool) *eagerCase {
	e := &eagerCase{
		ck:    Column{ID: 1, Name: "ck", Table: "c", Type: columnar.TInt64},
		cname: Column{ID: 2, Name: "cname", Table: "c", Type: columnar.TVarchar},
		cseg:  Column{ID: 3, Name: "cseg", Table: "c", Type: columnar.TInt32},
		ock:   Column{ID: 4, Name: "ock", Table: "o", Type: columnar.TInt64},
		ov:    Column{ID: 5, Name: "ov", Table: "o", Type: columnar.TInt32},
		of:    Column{ID: 6, Name: "of", Table: "o", Type: columnar.TFloat64},
		oname: Column{ID: 7, Name: "oname", Table: "o", Type: columnar.TVarchar},
	}
	schema := func(cols ...Column) columnar.Schema {
		var s columnar.Schema
		for _, c := range cols {
			s = append(s, columnar.Field{Name: c.Name, Type: c.Type})
		}
		return s
	}
	e.c = &Scan{Table: &statsTable{schema: schema(e.ck, e.cname, e.cseg), rows: 3000}, Name: "c", TableCols: []int{0, 1, 2},
		Cols: []Column{e.ck, e.cname, e.cseg}, Limit: -1}
	e.o = &Scan{Table: &statsTable{schema: schema(e.ock, e.ov, e.of, e.oname), rows: oRows}, Name: "o", TableCols: []int{0, 1, 2, 3},
		Cols: []Column{e.ock, e.ov, e.of, e.oname}, Limit: -1}
	if oFiltered {
		e.o.Filter = []index.Pred{{Col: 1, Op: index.Lt, Vals: []columnar.Value{columnar.IntValue(columnar.TInt32, 2)}}}
	}
	return e
}

// plan is the Aggregate over the join of kind k, keyed by keys (nil: ock =
// ck), with aggs (nil: sum(ov)) and groups (nil: ck, cname).
func (e *eagerCase) plan(k JoinKind, keys []EquiKey, groups []Expr, aggs []AggCall) *Aggregate {
	if keys == nil {
		keys = []EquiKey{{L: &ColRef{Col: e.ock}, R: &ColRef{Col: e.ck}}}
	}
	if groups == nil {
		groups = []Expr{&ColRef{Col: e.ck}, &ColRef{Col: e.cname}}
	}
	if aggs == nil {
		aggs = []AggCall{{Func: AggSum, Arg: &ColRef{Col: e.ov}, Type: columnar.TInt64}}
	}
	a := &Aggregate{Input: &Join{Left: e.o, Right: e.c, Kind: k, EquiKeys: keys}, Groups: groups, Aggs: aggs}
	next := ColID(100)
	for _, g := range groups {
		a.Out = append(a.Out, Column{ID: next, Name: g.String(), Type: g.Type()})
		next++
	}
	for _, c := range aggs {
		a.Out = append(a.Out, Column{ID: next, Name: c.Func.String(), Type: c.Type})
		next++
	}
	return a
}

// TestEagerAggregate: the rewrite groups o by ock below the join, renames
// the join key to the partial's column, and sums/mins/maxes the partial
// columns above with the original types and output columns.
func TestEagerAggregate(t *testing.T) {
	e := newEagerCase(3000, true)
	aggs := []AggCall{
		{Func: AggSum, Arg: &ColRef{Col: e.ov}, Type: columnar.TInt64},
		{Func: AggMin, Arg: &ColRef{Col: e.of}, Type: columnar.TFloat64},
		{Func: AggMax, Arg: &ColRef{Col: e.oname}, Type: columnar.TVarchar},
	}
	a := e.plan(JoinInner, nil, nil, aggs)
	got, ok := eagerAggregate(a).(*Aggregate)
	if !ok || got == a || !got.OnePhase {
		t.Fatalf("not rewritten:\n%s", Format(eagerAggregate(a)))
	}
	j, ok := got.Input.(*Join)
	if !ok {
		t.Fatalf("final's input is %T", got.Input)
	}
	part, ok := j.Left.(*Aggregate)
	if !ok || !part.Partial || part.Input != e.o || j.Right != e.c {
		t.Fatalf("join sides:\n%s", Format(got))
	}
	if len(part.Groups) != 1 || part.Groups[0].(*ColRef).Col.ID != e.ock.ID {
		t.Fatalf("partial groups %v, want [o.ock]", part.Groups)
	}
	key := part.Out[0]
	if key.ID == e.ock.ID || j.EquiKeys[0].L.(*ColRef).Col.ID != key.ID || j.EquiKeys[0].R.(*ColRef).Col.ID != e.ck.ID {
		t.Fatalf("join key %v = %v, partial key column #%d", j.EquiKeys[0].L, j.EquiKeys[0].R, key.ID)
	}
	if len(got.Out) != len(a.Out) || got.Out[2].ID != a.Out[2].ID {
		t.Fatalf("output columns changed: %v", got.Out)
	}
	for i, c := range got.Aggs {
		ref, ok := c.Arg.(*ColRef)
		if !ok || c.Func != aggs[i].Func || c.Type != aggs[i].Type || ref.Col.ID != part.Out[1+i].ID {
			t.Fatalf("final aggregate %d: %v over %v", i, c.Func, c.Arg)
		}
		if part.Aggs[i].Arg != aggs[i].Arg {
			t.Fatalf("partial aggregate %d reads %v", i, part.Aggs[i].Arg)
		}
	}
}

// TestEagerAggregateLeavesAlone: the plans the rule must not change.
func TestEagerAggregateLeavesAlone(t *testing.T) {
	e := newEagerCase(3000, true)
	col := func(c Column) Expr { return &ColRef{Col: c} }
	sum := func(x Expr, typ columnar.Type) AggCall { return AggCall{Func: AggSum, Arg: x, Type: typ} }
	for _, tc := range []struct {
		name string
		plan *Aggregate
	}{
		// the c rows without a match would lose their NULL-extended row
		{"left join", e.plan(JoinLeft, nil, nil, nil)},
		{"right join", e.plan(JoinRight, nil, nil, nil)},
		{"count(*)", e.plan(JoinInner, nil, nil, []AggCall{sum(col(e.ov), columnar.TInt64), {Func: AggCountStar, Type: columnar.TInt64}})},
		{"count(x)", e.plan(JoinInner, nil, nil, []AggCall{{Func: AggCount, Arg: col(e.ov), Type: columnar.TInt64}})},
		{"double sum", e.plan(JoinInner, nil, nil, []AggCall{sum(col(e.of), columnar.TFloat64)})},
		// the binder's limb sums of a BIGINT: BIGINT sums of BIGINTs
		{"bigint sum", e.plan(JoinInner, nil, nil, []AggCall{sum(col(e.ock), columnar.TInt64)})},
		{"distinct", e.plan(JoinInner, nil, nil, []AggCall{{Func: AggSum, Arg: col(e.ov), Type: columnar.TInt64, Distinct: true}})},
		{"filtered", e.plan(JoinInner, nil, nil, []AggCall{{Func: AggMax, Arg: col(e.ov), Type: columnar.TInt32,
			Filter: &Call{Fn: ">", Args: []Expr{col(e.ov), &Const{Val: columnar.IntValue(columnar.TInt32, 0)}}, T: columnar.TBool}}})},
		{"both sides", e.plan(JoinInner, nil, nil, []AggCall{sum(&Call{Fn: "*", Args: []Expr{col(e.ov), col(e.cseg)}, T: columnar.TInt32}, columnar.TInt64)})},
		{"no varchar key", e.plan(JoinInner, nil, []Expr{col(e.ck), col(e.cseg)}, nil)},
		{"one key", e.plan(JoinInner, nil, []Expr{col(e.cname)}, nil)},
		// string keys group and join by different equalities (collations)
		{"varchar join key", e.plan(JoinInner, []EquiKey{{L: col(e.oname), R: col(e.cname)}}, nil, nil)},
		// o's own VARCHAR in the GROUP BY makes the partial as wide
		{"varchar partial key", e.plan(JoinInner, nil, []Expr{col(e.ck), col(e.cname), col(e.oname)}, nil)},
		// TPC-H Q18: the side aggregated is bigger than what it joins
		{"bigger side", newEagerCase(30000, false).plan(JoinInner, nil, nil, nil)},
	} {
		before := Format(tc.plan)
		if after := Format(eagerAggregate(tc.plan)); after != before {
			t.Errorf("%s: rewritten:\n%s", tc.name, after)
		}
	}
	if strings.Contains(Format(e.plan(JoinInner, nil, nil, nil)), "partial") {
		t.Fatal("the base plan already pre-aggregates")
	}
	if Format(eagerAggregate(e.plan(JoinInner, nil, nil, nil))) == Format(e.plan(JoinInner, nil, nil, nil)) {
		t.Fatal("the base plan is left alone too: the cases above test nothing")
	}
}
