package executor

import (
	"context"
	"errors"
	"strings"
)

// LimitBy is a Limit whose count and offset are computed once, when it
// opens, by Bounds: LIMIT (SELECT …), LIMIT nextval('s'), OFFSET random()
// * 10, which DuckDB evaluates once before the rows. Bounds yields one row
// of two BIGINTs, the count (NULL, or no row at all: no limit) and the
// offset (NULL: none); a negative one is an error.
type LimitBy struct {
	Limit
	Bounds Operator

	computed bool // Count and Offset hold the values Bounds gave
}

func (l *LimitBy) Children() []Operator { return []Operator{l.Input, l.Bounds} }
func (l *LimitBy) String() string {
	if !l.computed {
		return "Limit, count and offset computed once by the second input"
	}
	return strings.Replace(l.Limit.String(), "Limit", "Limit (computed)", 1)
}

func (l *LimitBy) Open(ctx context.Context) error {
	count, offset, err := l.bounds(ctx)
	if err != nil {
		return err
	}
	l.Count, l.Offset, l.computed = count, offset, true
	return l.Limit.Open(ctx)
}

// bounds runs Bounds to its first row.
func (l *LimitBy) bounds(ctx context.Context) (count, offset int64, err error) {
	if err := l.Bounds.Open(ctx); err != nil {
		return 0, 0, err
	}
	defer l.Bounds.Close()
	count = -1
	for {
		b, err := l.Bounds.Next(ctx)
		if err == ioEOF {
			return count, 0, nil
		}
		if err != nil {
			return 0, 0, err
		}
		if b.Live() == 0 {
			continue
		}
		r := b.Row(0)
		count, offset = -1, 0
		for i, dst := range []*int64{&count, &offset} {
			v := b.Cols[i]
			if v.IsNull(r) {
				continue
			}
			x := v.Ints[r]
			if v.Const {
				x = v.Ints[0]
			}
			if x < 0 {
				return 0, 0, errors.New("LIMIT/OFFSET cannot be negative")
			}
			*dst = x
		}
		return count, offset, nil
	}
}
