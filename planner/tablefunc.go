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
	return executor.NewSeriesReader(t.Series, len(spec.Cols) > 0, spec.Limit), nil
}

// DescribeScan shows the bounds in EXPLAIN.
func (t *SeriesTable) DescribeScan(spec index.ScanSpec) string {
	s := t.Series
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
	return fmt.Sprintf("series=[%s, %s %s, step %s]", show(s.Start), show(s.Stop), end, step)
}
