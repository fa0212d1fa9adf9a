package planner

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// seriesValues generates a small series the plain way: Start, Start+Step,
// … while inside (no overflow for the ranges used here).
func seriesValues(s Series) []int64 {
	var out []int64
	for v := s.Start; ; v += s.Step {
		in := v < s.Stop
		switch {
		case s.Step > 0 && s.Inclusive:
			in = v <= s.Stop
		case s.Step < 0 && s.Inclusive:
			in = v >= s.Stop
		case s.Step < 0:
			in = v > s.Stop
		}
		if !in {
			return out
		}
		out = append(out, v)
		if (s.Step > 0 && v > math.MaxInt64-s.Step) || (s.Step < 0 && v < math.MinInt64-s.Step) {
			return out
		}
	}
}

// holds evaluates a pushed comparison on v.
func holds(p index.Pred, v int64) bool {
	x := p.Vals[0].I
	switch p.Op {
	case index.Eq:
		return v == x
	case index.Lt:
		return v < x
	case index.Le:
		return v <= x
	case index.Gt:
		return v > x
	case index.Ge:
		return v >= x
	case index.Between:
		return x <= v && v <= p.Vals[1].I
	case index.In:
		for _, w := range p.Vals {
			if v == w.I {
				return true
			}
		}
	}
	return false
}

// readSeries reads every value a scan of t with spec produces.
func readSeries(t *testing.T, tbl *SeriesTable, spec index.ScanSpec) []int64 {
	t.Helper()
	r, err := tbl.Scan(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for {
		b, err := r.Next(context.Background())
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b.Cols[0].Ints[:b.Len]...)
	}
}

// TestSeriesNarrowed checks, against a plain generate-and-filter, that a
// narrowed series keeps exactly the rows the comparisons allow (the scan
// may return no row the filter rejects, since narrowing only cuts the
// ends) and counts the rows it skipped.
func TestSeriesNarrowed(t *testing.T) {
	seed := uint64(20261130)
	rng := rand.New(rand.NewPCG(seed, 1))
	i64 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt64, v) }
	ops := []index.Op{index.Eq, index.Lt, index.Le, index.Gt, index.Ge, index.Between, index.In}
	bases := []int64{0, -40, math.MaxInt64 - 60, math.MinInt64 + 3}
	for trial := range 4000 {
		base := bases[trial%len(bases)]
		step := int64(rng.IntN(7) + 1)
		if rng.IntN(2) == 0 {
			step = -step
		}
		s := Series{Start: base + int64(rng.IntN(40)), Step: step, Inclusive: rng.IntN(2) == 0, Type: columnar.TInt64}
		s.Stop = s.Start + step*int64(rng.IntN(12)) + int64(rng.IntN(5)) - 2
		if base == math.MaxInt64-60 && s.Stop < s.Start && step > 0 || base == math.MinInt64+3 && step < 0 {
			continue // keep the plain generator away from overflow
		}
		var filter []index.Pred
		for range rng.IntN(3) + 1 {
			op := ops[rng.IntN(len(ops))]
			p := index.Pred{Col: 0, Op: op}
			n := 1
			switch op {
			case index.Between:
				n = 2
			case index.In:
				n = 3
			}
			for range n {
				p.Vals = append(p.Vals, i64(base+int64(rng.IntN(80))-10))
			}
			filter = append(filter, p)
		}
		tbl := &SeriesTable{Func: "range", Series: s}
		var want []int64
		all := seriesValues(s)
		for _, v := range all {
			ok := true
			for _, p := range filter {
				ok = ok && holds(p, v)
			}
			if ok {
				want = append(want, v)
			}
		}
		spec := index.ScanSpec{Cols: []int{0}, Filter: filter, Limit: -1}
		got := readSeries(t, tbl, spec)
		// got is a contiguous run of the series containing every wanted
		// value; filtering it gives want.
		var kept []int64
		for _, v := range got {
			ok := true
			for _, p := range filter {
				ok = ok && holds(p, v)
			}
			if ok {
				kept = append(kept, v)
			}
		}
		desc := fmt.Sprintf("seed %d trial %d: %+v filter %+v", seed, trial, s, filter)
		if fmt.Sprint(kept) != fmt.Sprint(want) {
			t.Fatalf("%s: narrowed scan keeps %v, want %v", desc, kept, want)
		}
		_, skipped := tbl.narrowed(spec)
		if skipped.Int64() != int64(len(all)-len(got)) {
			t.Fatalf("%s: skipped %v, scan dropped %d of %d", desc, skipped, len(all)-len(got), len(all))
		}
		// With only bounds (no IN, no off-grid =), narrowing is exact.
		if len(got) != len(want) && onlyBounds(filter) {
			t.Fatalf("%s: scan returned %v, want exactly %v", desc, got, want)
		}
		// Rules off: the whole series.
		spec.NoPrune = true
		if got := readSeries(t, tbl, spec); len(got) != len(all) {
			t.Fatalf("%s: rules off read %d rows, want %d", desc, len(got), len(all))
		}
	}
}

func onlyBounds(ps []index.Pred) bool {
	for _, p := range ps {
		if p.Op == index.In || p.Op == index.Eq {
			return false
		}
	}
	return true
}

func TestSeriesNarrowedRefuses(t *testing.T) {
	tbl := &SeriesTable{Func: "range", Series: Series{Start: 0, Stop: 10, Step: 1, Type: columnar.TInt64}}
	for _, p := range []index.Pred{
		{Col: 0, Op: index.Ne, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 3)}},
		{Col: 0, Op: index.Lt, Vals: []columnar.Value{columnar.FloatValue(columnar.TFloat64, 3.5)}},
		{Col: 0, Op: index.IsNull},
	} {
		if got := tbl.SupportsFilter(p); got != index.Unsupported {
			t.Errorf("%v: %v, want unsupported", p.Op, got)
		}
	}
	month := &SeriesTable{Func: "range", Series: Series{Start: 0, Stop: 1 << 40, Months: 1, Type: columnar.TTimestamp}}
	if got := month.SupportsFilter(index.Pred{Col: 0, Op: index.Lt, Vals: []columnar.Value{columnar.IntValue(columnar.TTimestamp, 5)}}); got != index.Unsupported {
		t.Errorf("month series: %v, want unsupported", got)
	}
}
