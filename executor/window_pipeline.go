package executor

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
)

// windowPipeline is how a streaming Window computes its functions: its
// input (the rows it held, written out, then the rest) through a Sort and
// a windowStream per distinct PARTITION BY and ORDER BY (window_stream.go).
type windowPipeline struct {
	top   Operator
	sorts []*Sort
	perm  []int // output column i is the top's column perm[i]
	out   columnar.Batch
}

// canStream reports whether every function can be computed streaming.
func (w *Window) canStream() bool { return len(w.Funcs) > 0 && w.unstreamable() == nil }

// unstreamable returns the first function that cannot stream, or nil.
func (w *Window) unstreamable() *WindowFunc {
	for i := range w.Funcs {
		if !streamable(&w.Funcs[i]) {
			return &w.Funcs[i]
		}
	}
	return nil
}

// describe names f for an error: its name, DISTINCT, its frame.
func (f *WindowFunc) describe() string {
	d := f.Name
	if f.Distinct {
		d += "(DISTINCT)"
	}
	if fr := f.Frame.String(); fr != "" {
		d += " " + fr
	}
	return d
}

// startStream writes the rows held and the input columns of b out, frees
// them, and opens the pipeline that reads them and the rest of the input.
func (w *Window) startStream(ctx context.Context, b *columnar.Batch) error {
	types := w.Input.Types()
	wr, err := w.mem.SpillDir().Create(types, w.mem.MaxTemp())
	if err != nil {
		return err
	}
	defer wr.Close()
	err = w.store.eachBatch(types, func(b *columnar.Batch) error { return wr.Write(ctx, b) })
	if err != nil {
		return err
	}
	if err := wr.Write(ctx, &columnar.Batch{Cols: b.Cols[:w.nCols], Len: b.Len, Sel: b.Sel}); err != nil {
		return err
	}
	f, err := wr.Finish()
	if err != nil {
		return err
	}
	w.res.Spilled(f.Bytes)
	w.store = nil
	w.res.Free()
	p := &windowPipeline{}
	w.stream = p
	var op Operator = &windowReplay{held: &spillScan{f: f, types: types}, rest: w.Input}
	// Stages: the functions of one PARTITION BY and ORDER BY each.
	stage := make([]int, len(w.Funcs))
	var stages [][]WindowFunc
	var members [][]int
	for i, f := range w.Funcs {
		if k := f.SharesOrder - 1; k >= 0 && k < i {
			stage[i] = stage[k]
		} else {
			stage[i] = len(stages)
			stages, members = append(stages, nil), append(members, nil)
		}
		stages[stage[i]] = append(stages[stage[i]], f)
		members[stage[i]] = append(members[stage[i]], i)
	}
	p.perm = make([]int, w.nCols+len(w.Funcs))
	for c := range w.nCols {
		p.perm[c] = c
	}
	col := w.nCols
	for k, fs := range stages {
		keys := make([]SortKey, 0, len(fs[0].Partition)+len(fs[0].Order))
		for _, e := range fs[0].Partition {
			keys = append(keys, SortKey{Expr: e})
		}
		keys = append(keys, fs[0].Order...)
		if len(keys) > 0 {
			s := &Sort{Input: op, Keys: keys}
			s.SetMemory(w.mem)
			p.sorts = append(p.sorts, s)
			op = s
		}
		op = newWindowStream(op, fs, w.mem, w.res)
		for _, i := range members[k] {
			p.perm[w.nCols+i] = col
			col++
		}
	}
	p.top = op
	p.out.Cols = make([]*columnar.Vector, len(p.perm))
	return op.Open(ctx)
}

// next returns the top stage's rows with the columns in output order.
func (p *windowPipeline) next(ctx context.Context) (*columnar.Batch, error) {
	b, err := p.top.Next(ctx)
	if err != nil {
		return nil, err
	}
	for i, c := range p.perm {
		p.out.Cols[i] = b.Cols[c]
	}
	p.out.Len, p.out.Sel = b.Len, b.Sel
	return &p.out, nil
}

// close closes the stages (removing their files); nil does nothing.
func (p *windowPipeline) close() {
	if p != nil && p.top != nil {
		p.top.Close()
		p.top = nil
	}
}

// endStream closes the pipeline, keeping its figures.
func (w *Window) endStream() {
	if w.stream == nil {
		return
	}
	peak, spilled := w.stream.figures(0, 0)
	w.streamed[0] = max(w.streamed[0], peak)
	w.streamed[1] += spilled
	w.stream.close()
	w.stream = nil
}

// figures adds the stages' sorts' figures to the window's.
func (p *windowPipeline) figures(peak, spilled int64) (int64, int64) {
	if p == nil {
		return peak, spilled
	}
	for _, s := range p.sorts {
		peak = max(peak, s.res.Peak())
		spilled += s.res.SpilledBytes()
	}
	return peak, spilled
}

// windowReplay reads the rows a streaming Window wrote out, then the rest
// of its input (open already, and closed by the Window, not here).
type windowReplay struct {
	held *spillScan
	rest Operator
	done bool
}

func (r *windowReplay) Types() []columnar.Type { return r.held.types }
func (r *windowReplay) Children() []Operator   { return nil }
func (r *windowReplay) String() string         { return "WindowReplay" }
func (r *windowReplay) Open(ctx context.Context) error {
	r.done = false
	return r.held.Open(ctx)
}

func (r *windowReplay) Next(ctx context.Context) (*columnar.Batch, error) {
	if !r.done {
		b, err := r.held.Next(ctx)
		if err != io.EOF {
			return b, err
		}
		r.done = true
	}
	return r.rest.Next(ctx)
}

func (r *windowReplay) Close() error { return r.held.Close() }
