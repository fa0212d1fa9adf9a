package executor

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
)

// respill replays the partitions a spilling operator wrote out, one
// partition after another, each through an operator of its own that
// spills again (by other hash bits) if the partition is still too big:
// how HashAgg, Distinct, SetOp and Window finish once spilled. open makes
// partition p's operator, or nil for an empty partition (it takes over the
// partition's files: the operator's scans remove them). The finished
// operators' peak and spilled bytes are kept for EXPLAIN ANALYZE.
type respill struct {
	n    int
	open func(p int) memoryOp
	cur  int
	sub  memoryOp

	peak, spilled int64
}

// memoryOp is an operator that reports its memory figures.
type memoryOp interface {
	Operator
	MemoryUse() (peak, spilled int64)
}

// next returns the next batch of the partitions' operators.
func (r *respill) next(ctx context.Context) (*columnar.Batch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if r.sub != nil {
			b, err := r.sub.Next(ctx)
			if err != io.EOF {
				return b, err
			}
			r.end()
		}
		if r.cur >= r.n {
			return nil, io.EOF
		}
		p := r.cur
		r.cur++
		if r.sub = r.open(p); r.sub == nil {
			continue
		}
		if err := r.sub.Open(ctx); err != nil {
			return nil, err
		}
	}
}

// end closes the current partition's operator, keeping its figures.
func (r *respill) end() {
	if r.sub == nil {
		return
	}
	r.sub.Close()
	peak, spilled := r.sub.MemoryUse()
	r.peak = max(r.peak, peak)
	r.spilled += spilled
	r.sub = nil
}

// restart forgets the partitions (keeping the figures) for a new run.
func (r *respill) restart(n int, open func(p int) memoryOp) {
	r.end()
	r.n, r.open, r.cur = n, open, 0
}

// figures adds the partitions' figures to an operator's own.
func (r *respill) figures(peak, spilled int64) (int64, int64) {
	return max(peak, r.peak), spilled + r.spilled
}
