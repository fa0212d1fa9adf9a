package columnar

import (
	"context"
	"io"
)

// Chain returns a Reader of schema s that opens the units one after the
// other, each when the previous one is exhausted, and stops once limit
// rows were returned (limit < 0: all). A unit is opened only when its
// rows are needed, so a LIMIT met early leaves the rest unopened.
func Chain(s Schema, units []func(ctx context.Context) (Reader, error), limit int64) Reader {
	return &chain{units: units, schema: s, limit: limit}
}

type chain struct {
	units  []func(ctx context.Context) (Reader, error)
	cur    Reader
	schema Schema
	limit  int64
	done   int64
}

func (r *chain) Schema() Schema { return r.schema }

func (r *chain) Next(ctx context.Context) (*Batch, error) {
	for {
		if r.limit >= 0 && r.done >= r.limit {
			return nil, io.EOF
		}
		if r.cur == nil {
			if len(r.units) == 0 {
				return nil, io.EOF
			}
			cur, err := r.units[0](ctx)
			if err != nil {
				return nil, err
			}
			r.cur, r.units = cur, r.units[1:]
		}
		b, err := r.cur.Next(ctx)
		if err == io.EOF {
			r.cur.Close()
			r.cur = nil
			continue
		}
		if err != nil {
			return nil, err
		}
		r.done += int64(b.Live())
		return b, nil
	}
}

func (r *chain) Close() error {
	r.units = nil
	if r.cur != nil {
		err := r.cur.Close()
		r.cur = nil
		return err
	}
	return nil
}
