package executor

import (
	"context"
	"io"
	"slices"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// WindowFunc is one compiled window function. Args, Partition and Order
// are evaluated over the input rows. Name is one of row_number, rank,
// dense_rank, ntile, lag, lead, first_value, last_value, count_star,
// count, sum, avg, min, max, arg_max, arg_min, var_samp, var_pop,
// stddev_samp, stddev_pop, median, quantile_cont, quantile_disc, mode,
// string_agg, percent_rank, cume_dist, nth_value. arg_max and arg_min
// have two Args: the arg returned and the val it is chosen by.
// For ntile, lag, lead and nth_value the constant parameters are Offset
// (bucket count, row offset, frame position) and Default; Param is quantile_cont's
// fraction (DOUBLE) and string_agg's separator. Distinct makes an
// aggregate see each distinct non-NULL value of its frame once.
type WindowFunc struct {
	Name      string
	Args      []Expr
	Partition []Expr
	Order     []SortKey
	Frame     WindowFrame
	Type      columnar.Type
	Offset    int64
	Default   columnar.Value
	Param     columnar.Value
	Distinct  bool
	// IgnoreNulls (lag, lead, first_value, last_value, nth_value):
	// rows whose argument is NULL are passed over (window_nulls.go).
	IgnoreNulls bool
	// SharesOrder k > 0: function k-1 (an earlier one) has the same
	// PARTITION BY and ORDER BY, so its sorted row order is reused.
	SharesOrder int
	// ArgOrder is an aggregate's own ORDER BY (string_agg(x, ',' ORDER BY
	// y) OVER …): each frame's rows are fed in that order
	// (window_argorder.go).
	ArgOrder []SortKey
	// RowArgs: the last Args are parameters computed per row
	// (window_rowargs.go).
	RowArgs WindowRowArgs
	// Aggregate: f is GROUP BY's aggregate Agg, computed over each row's
	// frame by its aggState (window_agg.go); Args are its Arg and Arg2,
	// Param, Distinct and Type its own, Name its name.
	Aggregate bool
	Agg       AggKind
}

// WindowFrame bounds the rows an aggregate, first_value or last_value sees,
// relative to the current row. Rows measures in rows, Groups in peer
// groups (rows with equal ORDER BY keys; Start and End count groups from
// the current row's); otherwise (RANGE) a bound that is not unbounded is
// the current row's peer group, or with StartRange/EndRange the rows
// whose single ORDER BY key lies StartDist/EndDist from the current row's
// (window_range.go). Exclude then takes rows out of the frame
// (window_frame.go).
type WindowFrame struct {
	Rows, Groups                 bool
	Start, End                   int64 // ROWS or GROUPS offsets (negative = preceding)
	StartUnbounded, EndUnbounded bool
	StartRange, EndRange         bool
	StartDist, EndDist           float64 // RANGE offsets (negative = preceding)
	Exclude                      FrameExclude
}

// Window buffers its input and appends one column per function; rows come
// out in input order.
type Window struct {
	Input Operator
	Funcs []WindowFunc
	// Partitioned: every function has the same non-empty PARTITION BY, so
	// the operator may spill by partitions (window_spill.go).
	Partitioned bool

	mem   *memory.Manager
	res   *memory.Reservation
	level int // 0, or the spill depth of a partition file's Window
	// streaming: the reservation was refused and the window streams
	// instead of spilling by partitions (window_stream.go).
	streaming bool
	spill     *windowSpill
	parts     respill // the spilled partitions, replayed (respill.go)
	// stream, once the window streams (window_stream.go): the sorts and
	// windowStreams that compute it; perm maps its columns to the output's.
	stream *windowPipeline
	// streamed: the peak and spilled bytes of the pipelines closed.
	streamed [2]int64

	store   *chunkedStore // the input's columns, then each function's expressions
	types   []columnar.Type
	nCols   int
	results [][]columnar.Value
	pos     int
	out     *columnar.Batch
}

func (w *Window) Types() []columnar.Type {
	t := append([]columnar.Type(nil), w.Input.Types()...)
	for _, f := range w.Funcs {
		t = append(t, f.Type)
	}
	return t
}
func (w *Window) Children() []Operator { return []Operator{w.Input} }
func (w *Window) String() string {
	s := "Window"
	for _, f := range w.Funcs {
		s += " " + f.Name
		if fr := f.frameString(); fr != "" && (!rankingFuncs[f.Name] || len(f.ArgOrder) > 0) {
			s += "[" + fr + "]"
		}
	}
	return s
}
func (w *Window) Close() error {
	w.dropSpill()
	w.endStream()
	w.store, w.results = nil, nil
	w.res.Free()
	return w.Input.Close()
}

// exprs lists every expression of f in store order: partition, order,
// args, argument order.
func (f *WindowFunc) exprs() []Expr {
	out := append([]Expr(nil), f.Partition...)
	for _, k := range f.Order {
		out = append(out, k.Expr)
	}
	out = append(out, f.Args...)
	for _, k := range f.ArgOrder {
		out = append(out, k.Expr)
	}
	return out
}

func (w *Window) Open(ctx context.Context) error {
	if err := w.Input.Open(ctx); err != nil {
		return err
	}
	types := w.Input.Types()
	w.nCols = len(types)
	all := append([]columnar.Type{}, types...)
	for i := range w.Funcs {
		for _, e := range w.Funcs[i].exprs() {
			all = append(all, e.Type())
		}
	}
	w.types = all
	w.store = newChunkedStore(all, 0)
	w.dropSpill()
	w.endStream()
	w.streaming = false
	w.parts.restart(0, nil)
	if w.res == nil {
		w.res = w.mem.Reserve("window", w.Partitioned || w.canStream())
	}
	w.res.Free()
	w.pos = 0
	cols := make([]*columnar.Vector, len(all))
	for {
		b, err := w.Input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		copy(cols, b.Cols[:w.nCols])
		k := w.nCols
		for i := range w.Funcs {
			for _, e := range w.Funcs[i].exprs() {
				v, err := e.Eval(b)
				if err != nil {
					return err
				}
				cols[k] = v
				k++
			}
		}
		if w.spill == nil {
			spilling, err := w.reserve(ctx, b, cols)
			if err != nil {
				return err
			}
			if w.streaming {
				return w.startStream(ctx, b) // window_pipeline.go
			}
			if !spilling {
				w.store.appendRows(b, cols)
				continue
			}
		}
		if err := w.spillBatch(ctx, b, cols); err != nil {
			return err
		}
	}
	if w.spill != nil {
		w.store = nil
		return w.finishSpill(ctx)
	}
	w.results = make([][]columnar.Value, len(w.Funcs))
	orders := make([]*windowOrder, len(w.Funcs))
	// The functions read their expressions as whole columns: copied out of
	// the store (strings shared with it) for the computation only.
	exprs := make([]*columnar.Vector, len(all))
	for c := w.nCols; c < len(all); c++ {
		exprs[c] = &columnar.Vector{Type: all[c]}
		w.store.copyRange(exprs[c], c, 0, w.store.n)
	}
	base := w.nCols
	for i := range w.Funcs {
		f := &w.Funcs[i]
		n := len(f.exprs())
		vecs := exprs[base : base+n]
		if err := checkRowArgs(f, vecs[len(f.Partition)+len(f.Order):][:len(f.Args)], w.store.n); err != nil {
			return err // window_rowargs.go
		}
		if k := f.SharesOrder - 1; k >= 0 && k < i && orders[k] != nil {
			orders[i] = orders[k] // same PARTITION BY and ORDER BY: sorted once
		} else {
			orders[i] = orderRows(f, vecs, w.store.n)
		}
		var err error
		if w.results[i], err = computeWindowOrdered(f, vecs, orders[i]); err != nil {
			return err
		}
		base += n
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	w.out = columnar.NewBatch(w.Types(), columnar.MaxBatch)
	w.pos = 0
	return nil
}

func (w *Window) Next(ctx context.Context) (*columnar.Batch, error) {
	if w.stream != nil {
		return w.stream.next(ctx)
	}
	if w.spill != nil {
		return w.nextSpilled(ctx)
	}
	if w.pos >= w.store.n {
		return nil, io.EOF
	}
	end := min(w.pos+columnar.MaxBatch, w.store.n)
	n := end - w.pos
	for c := range w.nCols {
		w.store.copyRange(w.out.Cols[c], c, w.pos, end)
	}
	for i, res := range w.results {
		v := w.out.Cols[w.nCols+i]
		v.Reset(n)
		for k := range n {
			v.SetValue(k, n, res[w.pos+k])
		}
	}
	w.out.Len, w.out.Sel = n, nil
	w.pos = end
	return w.out, nil
}

// computeWindow evaluates f for every stored row; vecs are the stored
// partition keys, order keys and arguments, in that order.
func computeWindow(f *WindowFunc, vecs []*columnar.Vector, n int) ([]columnar.Value, error) {
	return computeWindowOrdered(f, vecs, orderRows(f, vecs, n))
}

// windowOrder is the stored rows sorted by partition and order keys, and
// where each partition starts (parts ends with len(perm)).
type windowOrder struct {
	perm  []int32
	parts []int
}

// orderRows sorts the n stored rows for f.
func orderRows(f *WindowFunc, vecs []*columnar.Vector, n int) *windowOrder {
	np, no := len(f.Partition), len(f.Order)
	part := vecs[:np]
	pspec := make([]SortKey, np)
	spec := append(pspec, f.Order...)
	keys := vecs[:np+no]
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortStableFunc(perm, func(a, b int32) int { return compareRows(keys, spec, int(a), int(b)) })
	o := &windowOrder{perm: perm}
	for lo := 0; lo < n; {
		o.parts = append(o.parts, lo)
		hi := lo + 1
		for hi < n && compareRows(part, pspec, int(perm[lo]), int(perm[hi])) == 0 {
			hi++
		}
		lo = hi
	}
	o.parts = append(o.parts, n)
	return o
}

// computeWindowOrdered evaluates f over rows already in window order.
func computeWindowOrdered(f *WindowFunc, vecs []*columnar.Vector, o *windowOrder) ([]columnar.Value, error) {
	np, no, na := len(f.Partition), len(f.Order), len(f.Args)
	ord, args, argOrd := vecs[np:np+no], vecs[np+no:np+no+na], vecs[np+no+na:]
	args, ra := splitRowArgs(f, args) // window_rowargs.go
	res := make([]columnar.Value, len(o.perm))
	for k := 0; k+1 < len(o.parts); k++ {
		rows := o.perm[o.parts[k]:o.parts[k+1]]
		if f.Aggregate {
			if err := aggFramePartition(f, rows, ord, args, argOrd, ra, res); err != nil { // window_agg.go
				return nil, err
			}
			continue
		}
		if f.Name == "fill" {
			fillPartition(f, rows, ord, args, argOrd, res) // window_fill.go
			continue
		}
		if len(f.ArgOrder) > 0 {
			argOrderPartition(f, rows, ord, args, argOrd, ra, res) // window_argorder.go
			continue
		}
		windowPartition(f, rows, ord, args, ra, res)
	}
	return res, nil
}

// windowPartition fills res for the rows of one partition, in order; ra
// holds the per-row parameters (window_rowargs.go).
func windowPartition(f *WindowFunc, rows []int32, ord, args []*columnar.Vector, ra *rowArgs, res []columnar.Value) {
	m := len(rows)
	peerStart, peerEnd := peerBounds(f, ord, rows)
	arg := func(i int) columnar.Value {
		if len(args) == 0 { // count(*)
			return columnar.Value{}
		}
		return args[0].Value(int(rows[i]))
	}
	// feed adds row k of the partition to acc; arg_max and arg_min read a
	// second argument, the val their arg is chosen by.
	feed := func(acc *windowAcc, k int) {
		var val columnar.Value
		if len(args) > 1 {
			val = args[1].Value(int(rows[k]))
		}
		acc.add(arg(k), val)
	}
	var nn *nonNullRows
	if f.IgnoreNulls && (f.Name == "lag" || f.Name == "lead") {
		nn = newNonNullRows(m, arg)
	}
	dense := 0
	for i := range m {
		r := rows[i]
		switch f.Name {
		case "row_number":
			res[r] = columnar.IntValue(f.Type, int64(i+1))
		case "rank":
			res[r] = columnar.IntValue(f.Type, int64(peerStart[i]+1))
		case "dense_rank":
			if peerStart[i] == i {
				dense++
			}
			res[r] = columnar.IntValue(f.Type, int64(dense))
		case "ntile":
			res[r] = columnar.IntValue(f.Type, ntile(int64(i), int64(m), f.Offset))
		case "percent_rank":
			// (rank - 1) / (rows - 1), 0 for a one-row partition.
			pr := 0.0
			if m > 1 {
				pr = float64(peerStart[i]) / float64(m-1)
			}
			res[r] = columnar.FloatValue(f.Type, pr)
		case "cume_dist":
			// Rows up to the current row's last peer, over all rows.
			res[r] = columnar.FloatValue(f.Type, float64(peerEnd[i])/float64(m))
		case "lag", "lead":
			k, ok := ra.offsetAt(f, r)
			if !ok {
				res[r] = columnar.NullValue(f.Type)
				continue
			}
			lead := (f.Name == "lead") != (k < 0) // lag(x, -k) is lead(x, k)
			k = min(max(k, -int64(m)-1), int64(m)+1)
			if k < 0 {
				k = -k
			}
			if f.IgnoreNulls {
				res[r] = nn.lagLead(lead, int(k), ra.defaultAt(f, r), i, arg)
				continue
			}
			j := i - int(k)
			if lead {
				j = i + int(k)
			}
			if j >= 0 && j < m {
				res[r] = arg(j)
			} else {
				res[r] = ra.defaultAt(f, r)
			}
		}
	}
	switch f.Name {
	case "row_number", "rank", "dense_rank", "ntile", "lag", "lead", "percent_rank", "cume_dist":
		return
	}
	// Frame functions.
	fb := newFrameBounds(f, ord, rows, peerStart, peerEnd, ra)
	growing := f.Frame.StartUnbounded && f.Frame.Exclude == ExcludeNoOthers
	if (!growing || varianceFuncs[f.Name]) && frameTreeFuncs[f.Name] && !f.Distinct {
		// Sliding or excluding frames of distributive aggregates, and
		// every frame of a variance (whose running value is not an
		// accumulator's): a segment tree (window_tree.go).
		val := arg
		if len(args) > 1 {
			val = func(k int) columnar.Value { return args[1].Value(int(rows[k])) }
		}
		t := newFrameTree(f, m, arg, val)
		for i := range m {
			s, e := fb.bounds(i)
			res[rows[i]] = t.frame(fb, i, s, e, f.Type)
		}
		return
	}
	if pick := map[string]int64{"first_value": 1, "last_value": 0, "nth_value": f.Offset}; !f.IgnoreNulls {
		if k, ok := pick[f.Name]; ok {
			// One row of the frame (window_tree.go).
			for i := range m {
				s, e := fb.bounds(i)
				res[rows[i]] = columnar.NullValue(f.Type)
				if f.Name == "nth_value" {
					if k, ok = ra.offsetAt(f, rows[i]); !ok || k <= 0 {
						continue // no such row, as DuckDB
					}
				}
				if j := frameRow(fb, i, s, e, k); j >= 0 {
					res[rows[i]] = arg(j)
				}
			}
			return
		}
	}
	if f.Name == "nth_value" && ra.offset != nil {
		// IGNORE NULLS at a position of its own for every row.
		for i := range m {
			res[rows[i]] = columnar.NullValue(f.Type)
			s, e := fb.bounds(i)
			k, ok := ra.offsetAt(f, rows[i])
			for j := s; ok && k > 0 && j < e; j++ {
				if v := arg(j); !v.Null && !fb.excluded(i, j) {
					if k--; k == 0 {
						res[rows[i]] = v
					}
				}
			}
		}
		return
	}
	if sl := newFrameSlider(f, m, arg); sl != nil && slideFrames(fb, m, sl, rows, res, f.Type) {
		return // window_slide.go
	}
	acc := newWindowAcc(f)
	if f.Frame.StartUnbounded && f.Name != "last_value" && f.Frame.Exclude == ExcludeNoOthers {
		// Frames grow monotonically: accumulate.
		done := 0
		for i := range m {
			_, e := fb.bounds(i)
			for ; done < e; done++ {
				feed(acc, done)
			}
			res[rows[i]] = acc.result(f.Type)
		}
		return
	}
	for i := range m {
		s, e := fb.bounds(i)
		acc.reset()
		for k := s; k < e; k++ {
			if fb.excluded(i, k) {
				continue
			}
			if f.Name == "last_value" && !f.IgnoreNulls {
				acc.reset()
			}
			feed(acc, k)
		}
		res[rows[i]] = acc.result(f.Type)
	}
}

// ntile returns the bucket (1-based) of row i of m in n buckets: the first
// m % n buckets hold one row more.
func ntile(i, m, n int64) int64 {
	if n <= 0 {
		return 1
	}
	q, r := m/n, m%n
	if q == 0 {
		return i + 1
	}
	big := r * (q + 1)
	if i < big {
		return i/(q+1) + 1
	}
	return (i-big)/q + r + 1
}
