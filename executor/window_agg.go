package executor

import (
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// Any aggregate over a frame. The window's own frame functions (sums,
// counts, extremes in a segment tree, sliders for quantiles and distinct
// counts, window_acc.go's accumulators) cover the common aggregates fast;
// every other aggregate GROUP BY knows — quantile lists, histogram,
// bit_and, approx_quantile, decimal_average, a sorted list's entries … —
// runs through the same aggState as in GROUP BY, one group per row: each
// row's frame (after EXCLUDE, in the aggregate's own ORDER BY when it has
// one) is gathered and folded into that row's group, and the group's
// result is the row's value. That recomputes every frame, O(frame) per
// row; a row whose frame is the previous row's (the whole partition, the
// default frame's peers) reuses its value, so an unordered OVER computes
// its partition once.

// aggFrameRows bounds the frame rows gathered before the groups they feed
// are finished: the memory of one pass, beyond the window's stored rows.
const aggFrameRows = 1 << 16

// aggFrameGroups bounds the rows (groups) finished together.
const aggFrameGroups = columnar.MaxBatch

// aggFramePartition fills res for the rows of one partition (in window
// order) of f, an aggregate computed by its aggState; ra holds the
// per-row frame offsets.
func aggFramePartition(f *WindowFunc, rows []int32, ord, args, argOrd []*columnar.Vector, ra *rowArgs, res []columnar.Value) error {
	m := len(rows)
	peerStart, peerEnd := peerBounds(f, ord, rows)
	fb := newFrameBounds(f, ord, rows, peerStart, peerEnd, ra)
	spec := AggSpec{Kind: f.Agg, Distinct: f.Distinct, Type: f.Type, Param: f.Param, Name: f.Name}
	types := make([]columnar.Type, len(args))
	for k, a := range args {
		types[k] = a.Type
	}
	if len(args) > 0 {
		spec.Arg = ColumnExpr(0, types[0])
	}
	if len(args) > 1 {
		spec.Arg2 = ColumnExpr(1, types[1])
	}
	p := aggPass{spec: spec, args: args, types: types}
	same := make([]bool, m) // row i takes row i-1's value: the same frame
	lastS, lastE := -1, -1
	var frame []int32
	for i := range m {
		s, e := fb.bounds(i)
		if s == lastS && e == lastE && f.Frame.Exclude == ExcludeNoOthers {
			same[i] = true
			continue
		}
		lastS, lastE = s, e
		frame = frame[:0]
		for k := s; k < e; k++ {
			if !fb.excluded(i, k) {
				frame = append(frame, rows[k])
			}
		}
		if len(f.ArgOrder) > 0 {
			slices.SortStableFunc(frame, func(a, b int32) int { return compareRows(argOrd, f.ArgOrder, int(a), int(b)) })
		}
		if len(p.out) > 0 && (len(p.out) == aggFrameGroups || len(p.idx)+len(frame) > aggFrameRows) {
			if err := p.finish(rows, res); err != nil {
				return err
			}
		}
		p.add(i, frame)
	}
	if err := p.finish(rows, res); err != nil {
		return err
	}
	for i := 1; i < m; i++ {
		if same[i] {
			res[rows[i]] = res[rows[i-1]]
		}
	}
	return nil
}

// aggPass gathers the frames of some rows, then computes them.
type aggPass struct {
	spec  AggSpec
	args  []*columnar.Vector
	types []columnar.Type
	idx   []int32 // the stored rows of the frames, one after another
	gids  []int32 // the group (position in out) of each
	out   []int   // the partition positions whose frames are gathered
}

// add gathers frame (stored rows) as the frame of partition row i.
func (p *aggPass) add(i int, frame []int32) {
	g := int32(len(p.out))
	p.out = append(p.out, i)
	p.idx = append(p.idx, frame...)
	for range frame {
		p.gids = append(p.gids, g)
	}
}

// finish folds the gathered frames into one group each, a batch at a
// time, and sets the rows' results.
func (p *aggPass) finish(rows []int32, res []columnar.Value) error {
	if len(p.out) == 0 {
		return nil
	}
	s := newAggState(p.spec)
	s.grow(len(p.out))
	cols := make([]*columnar.Vector, len(p.args))
	for k := range cols {
		cols[k] = &columnar.Vector{Type: p.types[k]}
	}
	for lo := 0; lo < len(p.idx); lo += columnar.MaxBatch {
		hi := min(lo+columnar.MaxBatch, len(p.idx))
		for k, a := range p.args {
			cols[k].Gather(a, p.idx[lo:hi])
		}
		b := &columnar.Batch{Cols: cols, Len: hi - lo}
		var arg *columnar.Vector
		if len(cols) > 0 {
			arg = cols[0]
		}
		if err := s.fold(b, arg, p.gids[lo:hi]); err != nil {
			return err
		}
	}
	out := &columnar.Vector{Type: p.spec.Type}
	out.Reset(len(p.out))
	s.result(out, 0, len(p.out))
	for g, i := range p.out {
		res[rows[i]] = out.Value(g)
	}
	p.idx, p.gids, p.out = p.idx[:0], p.gids[:0], p.out[:0]
	return nil
}
