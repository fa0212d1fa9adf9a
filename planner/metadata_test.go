package planner

import (
	"context"
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// statsTable is a table that only has metadata: scanning it is an error, so
// a plan that still scans fails the test.
type statsTable struct {
	schema columnar.Schema
	stats  map[int]index.Stats
	rows   int64
}

func (t *statsTable) Schema() columnar.Schema { return t.schema }
func (t *statsTable) Scan(context.Context, index.ScanSpec) (columnar.Reader, error) {
	panic("scan of a metadata-only table")
}
func (t *statsTable) RowCount() int64 { return t.rows }
func (t *statsTable) ColumnStats(c int) (index.Stats, bool) {
	s, ok := t.stats[c]
	return s, ok
}

func TestAnswerFromMetadata(t *testing.T) {
	tbl := &statsTable{
		schema: columnar.Schema{{Name: "id", Type: columnar.TInt64}, {Name: "x", Type: columnar.TFloat64}},
		rows:   1000,
		stats: map[int]index.Stats{
			0: {HasMinMax: true, Min: columnar.IntValue(columnar.TInt64, 5), Max: columnar.IntValue(columnar.TInt64, 1004), NullCount: 0, Rows: 1000},
			1: {HasMinMax: true, Min: columnar.FloatValue(columnar.TFloat64, -1.5), Max: columnar.FloatValue(columnar.TFloat64, 9), NullCount: 10, Rows: 1000, HasNaN: true},
		},
	}
	id := Column{ID: 1, Name: "id", Type: columnar.TInt64}
	x := Column{ID: 2, Name: "x", Type: columnar.TFloat64}
	scan := &Scan{Table: tbl, Name: "t", TableCols: []int{0, 1}, Cols: []Column{id, x}, Limit: -1}
	agg := func(aggs ...AggCall) *Aggregate {
		out := make([]Column, len(aggs))
		for i, a := range aggs {
			out[i] = Column{ID: ColID(10 + i), Type: a.Type}
		}
		return &Aggregate{Input: scan, Aggs: aggs, Out: out}
	}
	countStar := AggCall{Func: AggCountStar, Type: columnar.TInt64}
	minID := AggCall{Func: AggMin, Arg: &ColRef{Col: id}, Type: columnar.TInt64}
	maxID := AggCall{Func: AggMax, Arg: &ColRef{Col: id}, Type: columnar.TInt64}
	countX := AggCall{Func: AggCount, Arg: &ColRef{Col: x}, Type: columnar.TInt64}
	minX := AggCall{Func: AggMin, Arg: &ColRef{Col: x}, Type: columnar.TFloat64}
	maxX := AggCall{Func: AggMax, Arg: &ColRef{Col: x}, Type: columnar.TFloat64}

	got := answerFromMetadata(agg(countStar, minID, maxID, countX, minX))
	v, ok := got.(*Values)
	if !ok {
		t.Fatalf("got %T, want *Values", got)
	}
	want := []string{"1000", "5", "1004", "990", "-1.5"}
	for i, e := range v.Rows[0] {
		if s := e.(*Const).Val.String(); s != want[i] {
			t.Errorf("agg %d = %s, want %s", i, s, want[i])
		}
	}
	// MAX of a float column that may hold NaN must scan: NaN sorts highest.
	if _, ok := answerFromMetadata(agg(maxX)).(*Values); ok {
		t.Error("max(x) with possible NaN was answered from metadata")
	}
	// A zero float bound may be a -0.0 the writer substituted: scan instead.
	zero := *tbl
	zero.stats = map[int]index.Stats{1: {HasMinMax: true, Min: columnar.FloatValue(columnar.TFloat64, math.Copysign(0, -1)), Max: columnar.FloatValue(columnar.TFloat64, 9), NullCount: 0, Rows: 1000}}
	zscan := *scan
	zscan.Table = &zero
	za := agg(minX)
	za.Input = &zscan
	if _, ok := answerFromMetadata(za).(*Values); ok {
		t.Error("min(x) with a zero bound was answered from metadata")
	}
	// A filter in the scan means statistics do not describe the rows.
	filtered := *scan
	filtered.Filter = []index.Pred{{Col: 0, Op: index.Gt, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 7)}}}
	a := agg(countStar)
	a.Input = &filtered
	if _, ok := answerFromMetadata(a).(*Values); ok {
		t.Error("filtered count answered from metadata")
	}
}
