package planner

import (
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

func TestRangeSel(t *testing.T) {
	i64 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt64, v) }
	f64 := func(v float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, v) }
	tbl := &statsTable{
		schema: columnar.Schema{{Name: "id", Type: columnar.TInt64}, {Name: "x", Type: columnar.TFloat64}},
		rows:   1000,
		stats: map[int]index.Stats{
			// id spans [0, 1000]; x may hold NaN, so its min/max say nothing.
			0: {HasMinMax: true, Min: i64(0), Max: i64(1000), NullCount: 0, Rows: 1000},
			1: {HasMinMax: true, Min: f64(-1), Max: f64(1), NullCount: 0, Rows: 1000, HasNaN: true},
		},
	}
	p := func(col int, op index.Op, vals ...columnar.Value) index.Pred {
		return index.Pred{Col: col, Op: op, Vals: vals}
	}
	cases := []struct {
		name   string
		filter []index.Pred
		want   float64
		ok     bool
	}{
		// bounds on one column intersect: [250, 750) of [0, 1000]
		{"range", []index.Pred{p(0, index.Ge, i64(250)), p(0, index.Lt, i64(750))}, 0.5, true},
		{"between", []index.Pred{p(0, index.Between, i64(0), i64(100))}, 0.1, true},
		// outside [min, max]: one row's worth (1/1000), never 0
		{"empty", []index.Pred{p(0, index.Gt, i64(2000))}, 0.001, true},
		// another predicate counts as filterSel once: 0.75 × 0.2
		{"with other", []index.Pred{p(0, index.Ge, i64(250)), p(1, index.Eq, f64(0))}, 0.15, true},
		{"equality only", []index.Pred{p(0, index.Eq, i64(3))}, 0, false},
		{"NaN column", []index.Pred{p(1, index.Lt, f64(0))}, 0, false},
	}
	for _, c := range cases {
		s := &Scan{Table: tbl, Name: "t", TableCols: []int{0, 1}, Filter: c.filter, Limit: -1}
		got, ok := rangeSel(s)
		if ok != c.ok || (ok && math.Abs(got-c.want) > 1e-12) {
			t.Errorf("%s: got %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
