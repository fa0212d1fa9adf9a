package planner

import (
	"context"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/index"
)

// SeriesTable is the one-column table of range(…) and generate_series(…)
// in FROM, with constant bounds worked out by the binder. Its rows are
// generated while scanned, a batch at a time, so range(1e12) with a LIMIT
// costs only the rows read.
type SeriesTable struct {
	Func   string // the column's name: "range", "generate_series" or the alias's
	Series Series
}

// Series is the bounds of a series table (see executor.Series).
type Series = executor.Series

func (t *SeriesTable) Schema() columnar.Schema {
	return columnar.Schema{{Name: t.Func, Type: t.Series.Type}}
}

func (t *SeriesTable) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	s, _ := t.narrowed(spec) // tablefunc_narrow.go
	return executor.NewSeriesReader(s, len(spec.Cols) > 0, spec.Limit), nil
}

// ScanUnits splits a series of fixed steps into units of consecutive rows,
// so that a parallel pipeline generates and aggregates on every core. A
// calendar-month series (whose values need every step before them) and a
// series of more than 2³² rows (so that a filtered LIMIT over a huge
// series still reads from its start, in order) stay one unit.
func (t *SeriesTable) ScanUnits(ctx context.Context, spec index.ScanSpec) ([]ScanUnit, error) {
	s, _ := t.narrowed(spec)
	withCol := len(spec.Cols) > 0
	n, ok := seriesLen(s)
	if !ok || n <= 1<<16 || n > 1<<32 {
		return []ScanUnit{func(ctx context.Context) (columnar.Reader, error) {
			return executor.NewSeriesReader(s, withCol, -1), nil
		}}, nil
	}
	size := max(uint64(1<<16), (n+4095)/4096)
	var units []ScanUnit
	for first := uint64(0); first < n; first += size {
		u := s
		// start + first·step fits: it is a value of the series (uint64
		// arithmetic wraps to the right int64).
		u.Start = int64(uint64(s.Start) + first*uint64(s.Step))
		rows := int64(min(size, n-first))
		units = append(units, func(ctx context.Context) (columnar.Reader, error) {
			return executor.NewSeriesReader(u, withCol, rows), nil
		})
	}
	return units, nil
}

// seriesLen is the number of rows of a series without calendar months;
// ok is false for a month series or a count past uint64.
func seriesLen(s Series) (uint64, bool) {
	if s.Months != 0 || s.Step == 0 {
		return 0, false
	}
	if !seriesInside(s, s.Start) {
		return 0, true
	}
	var diff, step uint64
	if s.Step > 0 {
		diff, step = uint64(s.Stop)-uint64(s.Start), uint64(s.Step)
	} else {
		diff, step = uint64(s.Start)-uint64(s.Stop), uint64(-(s.Step+1))+1
	}
	if !s.Inclusive {
		diff-- // the last value lies before Stop (diff > 0: Start is inside)
	}
	n := diff/step + 1
	if n == 0 { // 2⁶⁴ rows
		return 0, false
	}
	return n, true
}

// seriesInside reports whether v has not passed the series' end.
func seriesInside(s Series, v int64) bool {
	switch {
	case s.Step > 0 && s.Inclusive:
		return v <= s.Stop
	case s.Step > 0:
		return v < s.Stop
	case s.Inclusive:
		return v >= s.Stop
	}
	return v > s.Stop
}

// DescribeScan shows the bounds in EXPLAIN: those the scan generates,
// after any narrowing by the pushed comparisons, and the rows it skips.
func (t *SeriesTable) DescribeScan(spec index.ScanSpec) string {
	s, skipped := t.narrowed(spec)
	show := func(v int64) string { return columnar.IntValue(s.Type, v).String() }
	step := fmt.Sprint(s.Step)
	if s.Type.ID == columnar.Timestamp {
		step = columnar.IntValue(columnar.TInterval, s.Step).String()
		if s.Months != 0 {
			step = fmt.Sprintf("%d months %s", s.Months, step)
		}
	}
	end := "exclusive"
	if s.Inclusive {
		end = "inclusive"
	}
	out := fmt.Sprintf("series=[%s, %s %s, step %s]", show(s.Start), show(s.Stop), end, step)
	if d := describeNarrowed(skipped); d != "" {
		out += " " + d
	}
	return out
}
