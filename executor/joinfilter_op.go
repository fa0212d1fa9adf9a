package executor

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// JoinFilterOp sits right above a scan on a hash join's probe side and
// drops the rows whose key column Col fails Filter's membership test (and
// rows with a NULL key, which no join key matches), so the join probes
// only rows that may match. It passes batches through untouched until the
// filter is ready, and stops testing when the test drops almost nothing
// (the build side holds most probe keys), where it would only cost time.
// When the scan applies the test itself (JoinFilter.InScan: the planner
// handed it the filter as an index.InSet predicate), the op passes every
// batch through and only shows the filter in EXPLAIN.
type JoinFilterOp struct {
	Input  Operator
	Col    int
	Filter *JoinFilter

	seen, dropped int64 // rows tested and dropped by this copy
	off           bool  // stopped testing (index.SetTestPays)
	sel           []int
	out           columnar.Batch
}

func (o *JoinFilterOp) Types() []columnar.Type { return o.Input.Types() }
func (o *JoinFilterOp) Children() []Operator   { return []Operator{o.Input} }
func (o *JoinFilterOp) String() string         { return "JoinFilter " + o.Filter.String() }
func (o *JoinFilterOp) Close() error           { return o.Input.Close() }

func (o *JoinFilterOp) Open(ctx context.Context) error {
	o.seen, o.dropped, o.off = 0, 0, false
	return o.Input.Open(ctx)
}

func (o *JoinFilterOp) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		b, err := o.Input.Next(ctx)
		if err != nil || o.off || !o.Filter.Ready() || o.Filter.InScan() {
			return b, err
		}
		if out := o.apply(b); out != nil {
			return out, nil
		}
	}
}

// apply returns b restricted to the rows that pass, or nil when none does.
func (o *JoinFilterOp) apply(b *columnar.Batch) *columnar.Batch {
	v := b.Cols[o.Col]
	n := b.Live()
	o.sel = o.sel[:0]
	pass := 0
	if v.Const {
		if !v.IsNull(0) && o.Filter.MayContain(v.Ints[0]) {
			pass = n
		}
	} else {
		f, vals := o.Filter, v.Ints
		for k := range n {
			i := b.Row(k)
			if (v.Valid == nil || v.Valid.Get(i)) && f.MayContain(vals[i]) {
				o.sel = append(o.sel, i)
			}
		}
		pass = len(o.sel)
	}
	dropped := int64(n - pass)
	o.seen += int64(n)
	o.dropped += dropped
	o.Filter.Dropped.Add(dropped)
	if !index.SetTestPays(o.seen, o.dropped) {
		o.off = true
	}
	switch pass {
	case 0:
		return nil
	case n:
		return b
	}
	o.out = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: o.sel}
	return &o.out
}
