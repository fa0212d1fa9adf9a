package executor

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
)

// Series describes the rows of the table functions range and
// generate_series: Start, Start+Step, … while before Stop (or up to and
// including it when Inclusive). For a TIMESTAMP series the values and Step
// are microseconds and each step first adds Months calendar months (the
// clamped month arithmetic of AddMonths, applied step after step as DuckDB
// does, so 01-31 → 02-29 → 03-29). The direction is the sign of the step
// (Months counting as 30 days); a zero step is refused by the binder.
type Series struct {
	Start, Stop, Step int64
	Months            int64
	Inclusive         bool
	Type              columnar.Type
}

// positive reports whether the series ascends.
func (s Series) positive() bool {
	return float64(s.Months)*30*columnar.MicrosPerDay+float64(s.Step) > 0
}

// inside reports whether v has not yet passed the end of the series.
func (s Series) inside(v int64) bool {
	switch {
	case s.positive() && s.Inclusive:
		return v <= s.Stop
	case s.positive():
		return v < s.Stop
	case s.Inclusive:
		return v >= s.Stop
	}
	return v > s.Stop
}

// next returns the value after v; ok is false when it would overflow
// (the series then ends, as nothing past the int64 range can be inside).
func (s Series) next(v int64) (int64, bool) {
	if s.Months != 0 {
		v = AddMonths(v, s.Months)
	}
	n := v + s.Step
	if (s.Step > 0 && n < v) || (s.Step < 0 && n > v) {
		return 0, false
	}
	return n, true
}

// NewSeriesReader returns a reader over the series' rows, generated one
// batch at a time (a LIMIT above it, or a consumer that stops pulling,
// stops the generation). withCol false gives batches without columns, for
// count(*). limit >= 0 stops after that many rows.
func NewSeriesReader(s Series, withCol bool, limit int64) columnar.Reader {
	r := &seriesReader{s: s, cur: s.Start, more: true, limit: limit}
	var types []columnar.Type
	if withCol {
		types = []columnar.Type{s.Type}
		r.schema = columnar.Schema{{Name: "range", Type: s.Type}}
	}
	r.out = columnar.NewBatch(types, columnar.MaxBatch)
	return r
}

type seriesReader struct {
	s      Series
	cur    int64 // the next value to produce, valid while more
	more   bool
	limit  int64
	done   int64
	schema columnar.Schema
	out    *columnar.Batch
}

func (r *seriesReader) Schema() columnar.Schema { return r.schema }
func (r *seriesReader) Close() error            { return nil }

func (r *seriesReader) Next(ctx context.Context) (*columnar.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := columnar.MaxBatch
	if r.limit >= 0 {
		n = int(min(int64(n), r.limit-r.done))
	}
	var vals []int64
	if len(r.out.Cols) > 0 {
		v := r.out.Cols[0]
		v.Reset(columnar.MaxBatch)
		vals = v.Ints
	}
	k := 0
	for k < n && r.more && r.s.inside(r.cur) {
		if vals != nil {
			vals[k] = r.cur
		}
		k++
		r.cur, r.more = r.s.next(r.cur)
	}
	if k == 0 {
		r.more = false
		return nil, io.EOF
	}
	r.done += int64(k)
	r.out.Len, r.out.Sel = k, nil
	return r.out, nil
}
