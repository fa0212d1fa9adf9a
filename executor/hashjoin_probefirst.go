package executor

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
)

// Probe first: a join whose build side is costly to compute whole (a
// decorrelated subquery's aggregate over a fact table) and whose build
// rows matter only where some probe row matches (LEFT, SEMI, ANTI, MARK,
// SINGLE and INNER joins) may read its probe side before the build side
// (HashJoin.ProbeFilters): the probe keys fill join filters that the scans
// under the build side then use, and the probe rows are held and replayed.
// Past probeBufferRows rows it stops collecting: the filters stay unready
// (the scans read everything), the held rows are replayed and the rest of
// the probe side streams as usual.

// probeBufferRows bounds the probe rows held for the filters.
const probeBufferRows = 1 << 20

// openProbeFirst opens the probe side, holds its rows and fills
// j.ProbeFilters from their keys, up to probeBufferRows rows.
func (j *HashJoin) openProbeFirst(ctx context.Context) error {
	for _, f := range j.ProbeFilters {
		f.reset(j.mem)
	}
	if err := j.Left.Open(ctx); err != nil {
		return err
	}
	j.pbuf = newChunkedStore(j.Left.Types(), 0)
	j.pbufPos, j.pbufEOF = 0, false
	for j.pbuf.n < probeBufferRows {
		b, err := j.Left.Next(ctx)
		if err == io.EOF {
			j.pbufEOF = true
			break
		}
		if err != nil {
			return err
		}
		for _, f := range j.ProbeFilters {
			v, err := j.LeftKeys[f.Key].Eval(b)
			if err != nil {
				return err
			}
			collectKeys(f, v, b)
		}
		j.pbuf.appendRows(b, b.Cols)
		n := storeBytes(b, b.Cols)
		j.pbufBytes += n
		if j.res.Grow(n) != nil {
			// Refused: the rows held so far are what the join goes on
			// from (the batch is held, so counted), without filters.
			j.res.Force(n)
			break
		}
	}
	if j.pbufEOF {
		for _, f := range j.ProbeFilters {
			f.finish()
		}
	} else {
		for _, f := range j.ProbeFilters {
			f.reset(j.mem) // too many probe rows: no filter, drop the keys
		}
	}
	return nil
}

// nextLeft returns the next probe batch: the held rows first (views of
// the store, MaxBatch rows at a time), then the rest of the probe side.
func (j *HashJoin) nextLeft(ctx context.Context) (*columnar.Batch, error) {
	if j.blk != nil {
		return j.leftBlock(ctx) // nestedloop_spill.go
	}
	if j.pbuf == nil {
		return j.Left.Next(ctx)
	}
	if j.pbufPos < j.pbuf.n {
		from := j.pbufPos
		to := min(from+columnar.MaxBatch, j.pbuf.n)
		j.pbufPos = to
		return j.pbufView(from, to), nil
	}
	if j.pbufEOF {
		return nil, io.EOF
	}
	return j.Left.Next(ctx)
}

// pbufView is rows [from, to) of the held probe rows as a batch (its
// strings share the store's memory).
func (j *HashJoin) pbufView(from, to int) *columnar.Batch {
	if j.pview == nil {
		j.pview = &columnar.Batch{Cols: make([]*columnar.Vector, len(j.pbuf.cols))}
		for c := range j.pview.Cols {
			j.pview.Cols[c] = &columnar.Vector{Type: j.pbuf.cols[c].typ}
		}
	}
	b := j.pview
	b.Len, b.Sel = to-from, nil
	for c := range j.pbuf.cols {
		j.pbuf.copyRange(b.Cols[c], c, from, to)
	}
	return b
}
