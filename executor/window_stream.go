package executor

import (
	"context"
	"fmt"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// Streamed window. A window that cannot spill by partitions (no common
// PARTITION BY, or one partition bigger than the limit) computes its
// functions over its input sorted by each function's PARTITION BY and
// ORDER BY, as DuckDB does: a Sort (which spills itself) per distinct
// (PARTITION BY, ORDER BY), then a windowStream that walks the sorted rows
// once, computing the functions of that order with state bounded by
// their frames, not by the partition. A row leaves the stream once every
// function knows its value: at once for row_number, when its frame's last
// row arrives for a ROWS frame, when its peer group ends for the default
// RANGE frame, when its partition ends for a whole-partition aggregate,
// ntile, percent_rank or cume_dist. The rows waiting and the values
// computed ahead of them wait in spillQueues, so that a partition of any
// size passes through the limit. Rows come out in the last stage's sort
// order, as DuckDB's do.

// streamable reports whether f can be computed by a windowStream.
func streamable(f *WindowFunc) bool {
	fr := f.Frame
	if len(f.ArgOrder) > 0 || f.RowArgs.Any() || f.Aggregate {
		// Each frame is sorted by its argument order (window_argorder.go);
		// per-row parameters move frames and offsets at every row
		// (window_rowargs.go).
		return false
	}
	switch f.Name {
	case "row_number", "rank", "dense_rank", "ntile", "percent_rank", "cume_dist":
		return true
	case "lag", "lead":
		return !f.IgnoreNulls
	}
	if !isAccFunc(f.Name) || fr.Exclude != ExcludeNoOthers || fr.StartRange || fr.EndRange {
		return false
	}
	if frameKind(fr) == frameSliding {
		return fr.End-fr.Start < 1<<20 // the frame's rows are held in memory
	}
	// Frames that only grow hold an accumulator, not the frame's values.
	return frameKind(fr) != frameNone && !f.Distinct && !valuesAccFuncs[f.Name]
}

// accFuncs are the functions a windowAcc computes besides the statistics
// with running states (statKinds, pairKinds: isAccFunc); valuesAccFuncs
// keep every value of the frame in it.
var accFuncs = map[string]bool{"count": true, "count_star": true, "sum": true, "avg": true, "min": true, "max": true,
	"arg_max": true, "arg_min": true, "first_value": true, "last_value": true, "nth_value": true,
	"var_samp": true, "var_pop": true, "stddev_samp": true, "stddev_pop": true, "median": true,
	"quantile_cont": true, "quantile_disc": true, "string_agg": true, "mode": true, "list": true}
var valuesAccFuncs = map[string]bool{"var_samp": true, "var_pop": true, "stddev_samp": true, "stddev_pop": true,
	"median": true, "quantile_cont": true, "quantile_disc": true, "string_agg": true, "mode": true,
	"entropy": true, "mad": true, "list": true}

// isAccFunc reports whether a windowAcc computes the function: skewness,
// product, covar_pop, regr_slope, … keep their running state there
// (window_acc.go) as in GROUP BY.
func isAccFunc(name string) bool {
	return accFuncs[name] || statKinds[name] != 0 || pairKinds[name] != 0
}

// streamFrame is the shape of a frame as a windowStream computes it.
type streamFrame uint8

const (
	frameNone    streamFrame = iota // not streamable
	frameWhole                      // the whole partition
	framePeers                      // from the partition's start to the current row's last peer
	frameRunning                    // ROWS from the partition's start to a fixed offset
	frameSliding                    // ROWS between two fixed offsets
)

func frameKind(fr WindowFrame) streamFrame {
	switch {
	case fr.StartUnbounded && fr.EndUnbounded:
		return frameWhole
	case fr.Rows && fr.StartUnbounded:
		return frameRunning
	case fr.Rows && !fr.EndUnbounded:
		return frameSliding
	case fr.StartUnbounded && (!fr.Groups || fr.End == 0):
		return framePeers // RANGE (or GROUPS) UNBOUNDED PRECEDING AND CURRENT ROW
	}
	return frameNone
}

// windowStream computes funcs, which share one PARTITION BY and ORDER BY,
// over Input sorted by them; it emits Input's columns and one column per
// function.
type windowStream struct {
	Input Operator
	funcs []WindowFunc
	mem   *memory.Manager
	res   *memory.Reservation

	nIn    int
	rows   *spillQueue // input rows waiting for their values
	outs   []*streamOut
	evals  []streamEval
	prev   []*columnar.Vector // the previous row's partition and order keys
	pspec  []SortKey
	t      int64 // the current row's position in its partition
	seen   bool  // a row was read
	eof    bool
	keyBuf []*columnar.Vector
	args   [][]*columnar.Vector
	out    *columnar.Batch
}

// streamOut is one function's values, as runs (count, value) in row order.
type streamOut struct {
	q     *spillQueue
	typ   columnar.Type
	avail int64 // values queued (the runs' counts)
	left  int64 // values left of the head run
}

func (o *streamOut) emit(ctx context.Context, count int64, v columnar.Value) error {
	if count <= 0 {
		return nil
	}
	if v.Null {
		v = columnar.NullValue(o.typ)
	}
	v.Type = o.typ
	o.avail += count
	return o.q.pushValues(ctx, columnar.IntValue(columnar.TInt64, count), v)
}

// streamEval computes one function over the rows of a partition, in order.
type streamEval interface {
	// add takes partition row t; first says it starts a peer group.
	add(ctx context.Context, t int64, first bool, arg, val columnar.Value) error
	// finish ends the partition, of m rows.
	finish(ctx context.Context, m int64) error
}

func newWindowStream(in Operator, funcs []WindowFunc, mem *memory.Manager, res *memory.Reservation) *windowStream {
	return &windowStream{Input: in, funcs: funcs, mem: mem, res: res}
}

func (s *windowStream) Types() []columnar.Type {
	t := append([]columnar.Type(nil), s.Input.Types()...)
	for _, f := range s.funcs {
		t = append(t, f.Type)
	}
	return t
}
func (s *windowStream) Children() []Operator { return []Operator{s.Input} }
func (s *windowStream) String() string       { return "WindowStream" }

func (s *windowStream) Open(ctx context.Context) error {
	if err := s.Input.Open(ctx); err != nil {
		return err
	}
	in := s.Input.Types()
	s.nIn = len(in)
	s.rows = newSpillQueue(in, s.mem, s.res)
	f0 := &s.funcs[0]
	s.pspec = make([]SortKey, len(f0.Partition))
	s.prev = nil
	for _, e := range f0.Partition {
		s.prev = append(s.prev, columnar.NewVector(e.Type(), 1))
	}
	for _, k := range f0.Order {
		s.prev = append(s.prev, columnar.NewVector(k.Expr.Type(), 1))
	}
	s.outs, s.evals = nil, nil
	for i := range s.funcs {
		f := &s.funcs[i]
		o := &streamOut{q: newSpillQueue([]columnar.Type{columnar.TInt64, f.Type}, s.mem, s.res), typ: f.Type}
		ev, err := newStreamEval(f, o, s)
		if err != nil {
			return err
		}
		s.outs, s.evals = append(s.outs, o), append(s.evals, ev)
	}
	s.out = columnar.NewBatch(s.Types(), columnar.MaxBatch)
	s.t, s.seen, s.eof = 0, false, false
	return nil
}

// newStreamEval returns the evaluator of f writing to o.
func newStreamEval(f *WindowFunc, o *streamOut, s *windowStream) (streamEval, error) {
	switch f.Name {
	case "row_number", "rank", "dense_rank":
		return &rankEval{name: f.Name, out: o}, nil
	case "ntile", "percent_rank", "cume_dist":
		return &partRankEval{f: f, out: o, sizes: newSpillQueue([]columnar.Type{columnar.TInt64}, s.mem, s.res)}, nil
	case "lag", "lead":
		d := f.Offset // value(i) = arg(i + d)
		if f.Name == "lag" {
			d = -d
		}
		return &shiftEval{d: d, def: f.Default, out: o, back: newSpillQueue([]columnar.Type{f.Type}, s.mem, s.res)}, nil
	}
	e := &frameEval{f: f, kind: frameKind(f.Frame), acc: newWindowAcc(f), out: o}
	if e.kind == frameRunning && f.Frame.End < 0 {
		e.back = newSpillQueue(s.argTypes(f), s.mem, s.res)
	}
	if e.kind == frameSliding {
		// The rows from the oldest frame's start to the newest row, and
		// as many again before they are dropped: the least the function
		// needs to make progress, held even past the limit (streamable
		// bounds it).
		w := max(f.Frame.End, 0) - min(f.Frame.Start, 0) + 1
		s.res.Force(w * 2 * 2 * valueBytes)
	}
	return e, nil
}

// argTypes are the types of f's arguments (two for arg_max), padded to two.
func (s *windowStream) argTypes(f *WindowFunc) []columnar.Type {
	ts := []columnar.Type{columnar.TInt64, columnar.TInt64}
	for i, a := range f.Args {
		if i < 2 {
			ts[i] = a.Type()
		}
	}
	return ts
}

func (s *windowStream) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		if n := s.ready(); n > 0 {
			return s.emit(ctx, int(min(n, columnar.MaxBatch)))
		}
		if s.eof {
			if s.rows.Len() > 0 {
				return nil, fmt.Errorf("window: %d rows without values", s.rows.Len())
			}
			return nil, io.EOF
		}
		b, err := s.Input.Next(ctx)
		if err == io.EOF {
			s.eof = true
			if s.seen {
				if err := s.finish(ctx); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := s.consume(ctx, b); err != nil {
			return nil, err
		}
	}
}

// ready is how many waiting rows have every value.
func (s *windowStream) ready() int64 {
	n := s.rows.Len()
	for _, o := range s.outs {
		n = min(n, o.avail)
	}
	return n
}

// finish ends the current partition for every function.
func (s *windowStream) finish(ctx context.Context) error {
	for _, ev := range s.evals {
		if err := ev.finish(ctx, s.t); err != nil {
			return err
		}
	}
	s.t = 0
	return nil
}

// consume queues the rows of b and feeds them to the functions.
func (s *windowStream) consume(ctx context.Context, b *columnar.Batch) error {
	f0 := &s.funcs[0]
	np := len(f0.Partition)
	s.keyBuf = s.keyBuf[:0]
	for _, e := range f0.Partition {
		v, err := e.Eval(b)
		if err != nil {
			return err
		}
		s.keyBuf = append(s.keyBuf, v)
	}
	for _, k := range f0.Order {
		v, err := k.Expr.Eval(b)
		if err != nil {
			return err
		}
		s.keyBuf = append(s.keyBuf, v)
	}
	s.args = s.args[:0]
	for i := range s.funcs {
		var vs []*columnar.Vector
		for _, a := range s.funcs[i].Args {
			v, err := a.Eval(b)
			if err != nil {
				return err
			}
			vs = append(vs, v)
		}
		s.args = append(s.args, vs)
	}
	part, ord := s.keyBuf[:np], s.keyBuf[np:]
	for k := range b.Live() {
		i := b.Row(k)
		newPart := !s.seen || compareAcross(part, i, s.prev[:np], 0, s.pspec) != 0
		first := newPart || compareAcross(ord, i, s.prev[np:], 0, f0.Order) != 0
		if newPart && s.seen {
			if err := s.finish(ctx); err != nil {
				return err
			}
		}
		s.seen = true
		if first {
			for c, v := range s.keyBuf {
				s.prev[c].Reset(1)
				s.prev[c].CopyRowOwned(0, v, i, 1)
			}
		}
		if err := s.rows.push(ctx, b.Cols[:s.nIn], i); err != nil {
			return err
		}
		for fi, ev := range s.evals {
			var arg, val columnar.Value
			if as := s.args[fi]; len(as) > 0 {
				arg = as[0].Value(i)
				if len(as) > 1 {
					val = as[1].Value(i)
				}
			}
			if err := ev.add(ctx, s.t, first, arg, val); err != nil {
				return err
			}
		}
		s.t++
	}
	return ctx.Err()
}

// emit returns the next n rows, which have all their values.
func (s *windowStream) emit(ctx context.Context, n int) (*columnar.Batch, error) {
	out := s.out
	for _, v := range out.Cols {
		v.Reset(n)
	}
	for k := range n {
		hb, hi, err := s.rows.head(ctx)
		if err != nil {
			return nil, err
		}
		for c := range s.nIn {
			out.Cols[c].CopyRowOwned(k, hb.Cols[c], hi, n)
		}
		s.rows.pop()
		for fi, o := range s.outs {
			vb, vi, err := o.q.head(ctx)
			if err != nil {
				return nil, err
			}
			if o.left == 0 {
				o.left = vb.Cols[0].Ints[vi]
			}
			out.Cols[s.nIn+fi].CopyRowOwned(k, vb.Cols[1], vi, n)
			o.avail--
			if o.left--; o.left == 0 {
				o.q.pop()
			}
		}
	}
	out.Len, out.Sel = n, nil
	return out, ctx.Err()
}

func (s *windowStream) Close() error {
	if s.rows != nil {
		s.rows.close()
	}
	for _, o := range s.outs {
		o.q.close()
	}
	for _, ev := range s.evals {
		if c, ok := ev.(interface{ close() }); ok {
			c.close()
		}
	}
	s.outs, s.evals = nil, nil
	return s.Input.Close()
}

// rankEval: row_number, rank and dense_rank, known as each row arrives.
type rankEval struct {
	name        string
	out         *streamOut
	peer, dense int64 // the current peer group's first row; its dense rank
}

func (e *rankEval) add(ctx context.Context, t int64, first bool, _, _ columnar.Value) error {
	if t == 0 {
		e.dense = 0
	}
	if first {
		e.peer = t
		e.dense++
	}
	v := t + 1
	switch e.name {
	case "rank":
		v = e.peer + 1
	case "dense_rank":
		v = e.dense
	}
	return e.out.emit(ctx, 1, columnar.IntValue(columnar.TInt64, v))
}

func (e *rankEval) finish(context.Context, int64) error { return nil }

// partRankEval: ntile, percent_rank and cume_dist, which need the
// partition's size: the peer groups' sizes wait in a queue until the
// partition ends.
type partRankEval struct {
	f     *WindowFunc
	out   *streamOut
	sizes *spillQueue
	group int64 // rows of the current peer group
}

func (e *partRankEval) add(ctx context.Context, t int64, first bool, _, _ columnar.Value) error {
	if first && t > 0 {
		if err := e.sizes.pushValues(ctx, columnar.IntValue(columnar.TInt64, e.group)); err != nil {
			return err
		}
		e.group = 0
	}
	e.group++
	return nil
}

func (e *partRankEval) finish(ctx context.Context, m int64) error {
	if err := e.sizes.pushValues(ctx, columnar.IntValue(columnar.TInt64, e.group)); err != nil {
		return err
	}
	e.group = 0
	if e.f.Name == "ntile" {
		for e.sizes.Len() > 0 {
			e.sizes.pop()
		}
		// Runs of equal buckets: ntile(i) for the first row of each.
		for i := int64(0); i < m; {
			b := ntile(i, m, e.f.Offset)
			j := nextBucketStart(i, m, e.f.Offset, b)
			if err := e.out.emit(ctx, j-i, columnar.IntValue(e.f.Type, b)); err != nil {
				return err
			}
			i = j
		}
		return nil
	}
	start := int64(0)
	for e.sizes.Len() > 0 {
		hb, hi, err := e.sizes.head(ctx)
		if err != nil {
			return err
		}
		size := hb.Cols[0].Ints[hi]
		e.sizes.pop()
		var v float64
		if e.f.Name == "percent_rank" {
			if m > 1 {
				v = float64(start) / float64(m-1)
			}
		} else {
			v = float64(start+size) / float64(m)
		}
		if err := e.out.emit(ctx, size, columnar.FloatValue(e.f.Type, v)); err != nil {
			return err
		}
		start += size
	}
	return nil
}

// nextBucketStart returns the first row after j (in bucket b) that is not
// in bucket b, or m: ntile's buckets are runs of consecutive rows.
func nextBucketStart(j, m, n, b int64) int64 {
	lo, hi := j, m // ntile(lo) == b; find the first row past it with another bucket
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if ntile(mid, m, n) == b {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

func (e *partRankEval) close() { e.sizes.close() }

// shiftEval: lag and lead, value(i) = arg(i+d) inside the partition, the
// default outside. A lag holds the last -d arguments (in a queue that
// spills); a lead's value for row t-d is known when row t arrives.
type shiftEval struct {
	d    int64
	def  columnar.Value
	out  *streamOut
	back *spillQueue
}

func (e *shiftEval) add(ctx context.Context, t int64, _ bool, arg, _ columnar.Value) error {
	if e.d >= 0 {
		if t >= e.d {
			return e.out.emit(ctx, 1, arg)
		}
		return nil
	}
	if err := e.back.pushValues(ctx, arg); err != nil {
		return err
	}
	if e.back.Len() <= -e.d {
		return e.out.emit(ctx, 1, e.def)
	}
	hb, hi, err := e.back.head(ctx)
	if err != nil {
		return err
	}
	v := hb.Cols[0].Value(hi)
	e.back.pop()
	return e.out.emit(ctx, 1, v)
}

func (e *shiftEval) finish(ctx context.Context, m int64) error {
	for e.back.Len() > 0 {
		e.back.pop()
	}
	if e.d > 0 {
		return e.out.emit(ctx, min(e.d, m), e.def)
	}
	return nil
}

func (e *shiftEval) close() { e.back.close() }

// frameEval: an aggregate, first_value, last_value or nth_value over a
// frame that grows (frameWhole, framePeers, frameRunning: one accumulator)
// or slides between two ROWS offsets (frameSliding: the frame's rows are
// held, and each row's frame is accumulated anew).
type frameEval struct {
	f     *WindowFunc
	kind  streamFrame
	acc   *windowAcc
	out   *streamOut
	group int64 // framePeers: rows of the current peer group
	done  int64 // rows whose value was emitted
	// frameRunning with an end before the current row: the arguments not
	// yet accumulated.
	back *spillQueue
	// frameSliding: the arguments (and vals) of rows [base, base+len).
	base       int64
	args, vals []columnar.Value
}

func (e *frameEval) add(ctx context.Context, t int64, first bool, arg, val columnar.Value) error {
	if t == 0 {
		e.acc.reset()
		e.done, e.group, e.base = 0, 0, 0
		e.args, e.vals = e.args[:0], e.vals[:0]
	}
	fr := e.f.Frame
	switch e.kind {
	case frameWhole:
		e.acc.add(arg, val)
	case framePeers:
		if first && t > 0 {
			if err := e.out.emit(ctx, e.group, e.acc.result(e.f.Type)); err != nil {
				return err
			}
			e.group = 0
		}
		e.acc.add(arg, val)
		e.group++
	case frameRunning:
		if fr.End >= 0 {
			// Row t completes the frame of row t-End.
			e.acc.add(arg, val)
			if t >= fr.End {
				e.done++
				return e.out.emit(ctx, 1, e.acc.result(e.f.Type))
			}
			return nil
		}
		if err := e.back.pushValues(ctx, arg, val); err != nil {
			return err
		}
		for e.back.Len() > -fr.End {
			hb, hi, err := e.back.head(ctx)
			if err != nil {
				return err
			}
			e.acc.add(hb.Cols[0].Value(hi), hb.Cols[1].Value(hi))
			e.back.pop()
		}
		e.done++
		return e.out.emit(ctx, 1, e.acc.result(e.f.Type))
	case frameSliding:
		e.args, e.vals = append(e.args, arg), append(e.vals, val)
		if j := t - max(fr.End, 0); j >= 0 {
			return e.slide(ctx, j, t+1)
		}
	}
	return nil
}

// slide emits row j's value, its frame cut at n rows, and drops the held
// rows no later frame reaches.
func (e *frameEval) slide(ctx context.Context, j, n int64) error {
	fr := e.f.Frame
	lo, hi := max(j+fr.Start, 0), min(j+fr.End+1, n)
	e.acc.reset()
	for k := lo; k < hi; k++ {
		e.acc.add(e.args[k-e.base], e.vals[k-e.base])
	}
	e.done++
	if drop := j + 1 + fr.Start - e.base; drop > 0 && drop*2 >= int64(len(e.args)) {
		drop = min(drop, int64(len(e.args)))
		e.args = append(e.args[:0], e.args[drop:]...)
		e.vals = append(e.vals[:0], e.vals[drop:]...)
		e.base += drop
	}
	return e.out.emit(ctx, 1, e.acc.result(e.f.Type))
}

func (e *frameEval) finish(ctx context.Context, m int64) error {
	switch e.kind {
	case frameWhole:
		return e.out.emit(ctx, m, e.acc.result(e.f.Type))
	case framePeers:
		return e.out.emit(ctx, e.group, e.acc.result(e.f.Type))
	case frameRunning:
		for e.back != nil && e.back.Len() > 0 {
			e.back.pop()
		}
		return e.out.emit(ctx, m-e.done, e.acc.result(e.f.Type))
	case frameSliding:
		for j := e.done; j < m; j++ {
			if err := e.slide(ctx, j, m); err != nil {
				return err
			}
		}
	}
	return nil
}

func (e *frameEval) close() {
	if e.back != nil {
		e.back.close()
	}
}
