package executor

import (
	"context"
	"errors"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// LimitBy is a Limit whose count and offset are computed once, when it
// opens, by Bounds: LIMIT (SELECT …), LIMIT nextval('s'), OFFSET random()
// * 10, which DuckDB evaluates once before the rows. Bounds yields one row
// of two BIGINTs, the count (NULL, or no row at all: no limit) and the
// offset (NULL: none); a negative one is an error.
//
// With Percent, the row's count is a DOUBLE, LIMIT (SELECT …)% of the
// rows: once computed, a LimitPercent over Input does the work.
type LimitBy struct {
	Limit
	Bounds  Operator
	Percent bool

	computed bool          // Count and Offset hold the values Bounds gave
	pct      *LimitPercent // with Percent, once computed
	mem      *memory.Manager
}

// SetMemory makes the LimitPercent of a computed percent account the rows
// it holds to m.
func (l *LimitBy) SetMemory(m *memory.Manager) { l.mem = m }

func (l *LimitBy) Children() []Operator { return []Operator{l.Input, l.Bounds} }
func (l *LimitBy) String() string {
	switch {
	case !l.computed:
		return "Limit, count and offset computed once by the second input"
	case l.pct != nil:
		return strings.Replace(l.pct.String(), "Limit", "Limit (computed)", 1)
	}
	return strings.Replace(l.Limit.String(), "Limit", "Limit (computed)", 1)
}

func (l *LimitBy) Open(ctx context.Context) error {
	count, off, err := l.bounds(ctx)
	if err != nil {
		return err
	}
	l.Offset, l.computed = 0, true
	if !off.Null {
		if l.Offset = off.I; l.Offset < 0 {
			return errors.New("LIMIT/OFFSET cannot be negative")
		}
	}
	if l.Percent {
		p := 100.0 // NULL or no row: no limit, every row after the offset
		if !count.Null {
			p = count.F
		}
		if p < 0 {
			return errorf("Percentage value(%f) can't be negative", p)
		}
		if !(p <= 100) { // NaN too
			return errors.New("limit percent out of range, should be between 0% and 100%")
		}
		l.pct = &LimitPercent{Input: l.Input, Percent: p, Offset: l.Offset, mem: l.mem}
		return l.pct.Open(ctx)
	}
	l.Count = -1
	if !count.Null {
		if l.Count = count.I; l.Count < 0 {
			return errors.New("LIMIT/OFFSET cannot be negative")
		}
	}
	return l.Limit.Open(ctx)
}

func (l *LimitBy) Next(ctx context.Context) (*columnar.Batch, error) {
	if l.pct != nil {
		return l.pct.Next(ctx)
	}
	return l.Limit.Next(ctx)
}

func (l *LimitBy) Close() error {
	if p := l.pct; p != nil {
		l.pct = nil
		return p.Close()
	}
	return l.Limit.Close()
}

// bounds runs Bounds to its first row and returns its two values, the
// count (or percent) and the offset: NULLs when Bounds gave no row.
func (l *LimitBy) bounds(ctx context.Context) (count, offset columnar.Value, err error) {
	count.Null, offset.Null = true, true
	if err := l.Bounds.Open(ctx); err != nil {
		return count, offset, err
	}
	defer l.Bounds.Close()
	for {
		b, err := l.Bounds.Next(ctx)
		if err == ioEOF {
			return count, offset, nil
		}
		if err != nil {
			return count, offset, err
		}
		if b.Live() > 0 {
			r := b.Row(0)
			return b.Cols[0].Value(r), b.Cols[1].Value(r), nil
		}
	}
}
