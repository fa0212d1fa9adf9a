package executor

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
)

// Lambda functions: list_transform, list_filter and list_reduce apply a
// lambda (planner.Lambda) to a list's elements. The body is evaluated
// vectorized over chunks of up to lambdaChunk elements of many rows at
// once: an inner batch whose columns are the parameters (the elements,
// their 1-based positions, the accumulators) and then the captured input
// columns, gathered so that each element's row sees its own values.

// lambdaChunk bounds the rows of an inner batch.
const lambdaChunk = columnar.MaxBatch

// Lambda is a compiled lambda: body over the parameters then the
// captures (evaluated on the outer batch). It is an argument of a lambda
// function only; it has no value of its own.
type Lambda struct {
	body   Expr
	caps   []Expr
	params []columnar.Type
}

// NewLambda returns a lambda whose body reads columns 0..len(params)-1 as
// its parameters and the next ones as caps, evaluated on the input.
func NewLambda(body Expr, caps []Expr, params []columnar.Type) *Lambda {
	return &Lambda{body: body, caps: caps, params: params}
}

func (l *Lambda) Type() columnar.Type { return l.body.Type() }

func (l *Lambda) Eval(*columnar.Batch) (*columnar.Vector, error) {
	return nil, errorf("a lambda is only valid as an argument of a lambda function")
}

func (l *Lambda) String() string { return fmt.Sprintf("lambda(%d) -> %v", len(l.params), l.body) }

// lambdaRun evaluates a lambda's body for (outer row, parameters) pairs.
type lambdaRun struct {
	l     *Lambda
	capv  []*columnar.Vector // the captures over the outer batch
	capg  []columnar.Vector  // gathered captures
	cols  []*columnar.Vector
	inner columnar.Batch
}

func newLambdaRun(l *Lambda) *lambdaRun {
	return &lambdaRun{l: l, capv: make([]*columnar.Vector, len(l.caps)), capg: make([]columnar.Vector, len(l.caps))}
}

// start evaluates the captures over the outer batch b.
func (r *lambdaRun) start(b *columnar.Batch) error {
	for i, c := range r.l.caps {
		v, err := c.Eval(b)
		if err != nil {
			return err
		}
		r.capv[i] = v
	}
	return nil
}

// eval evaluates the body for len(rows) pairs: params hold the parameter
// values, rows the outer row of each.
func (r *lambdaRun) eval(params []*columnar.Vector, rows []int32) (*columnar.Vector, error) {
	r.cols = append(r.cols[:0], params...)
	for i, v := range r.capv {
		if v.Const {
			r.cols = append(r.cols, v)
			continue
		}
		g := &r.capg[i]
		g.Type = v.Type
		g.Gather(v, rows)
		r.cols = append(r.cols, g)
	}
	r.inner = columnar.Batch{Len: len(rows), Cols: r.cols}
	return r.l.body.Eval(&r.inner)
}

// listLambdaExpr is list_transform or list_filter.
type listLambdaExpr struct {
	filter bool
	list   Expr
	run    *lambdaRun
	t      columnar.Type
	out    columnar.Vector
	elem   columnar.Vector
	pos    columnar.Vector
	rows   []int32 // per element: its outer row
	elems  []int32 // per element: its child row
	keep   []bool
}

func newListLambda(fn string, args []Expr, t columnar.Type) (Expr, error) {
	l, ok := args[1].(*Lambda)
	if !ok {
		return nil, errorf("%s expects a lambda as its second argument", fn)
	}
	e := &listLambdaExpr{filter: fn == "list_filter", list: args[0], run: newLambdaRun(l), t: t}
	e.out.Type = t
	e.elem.Type = args[0].Type().Elem()
	e.pos.Type = columnar.TInt64
	return e, nil
}

func (e *listLambdaExpr) Type() columnar.Type { return e.t }

func (e *listLambdaExpr) String() string {
	return fmt.Sprintf("list_%s(%v, %v)", map[bool]string{false: "transform", true: "filter"}[e.filter], e.list, e.run.l)
}

func (e *listLambdaExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	lv, err := e.list.Eval(b)
	if err != nil {
		return nil, err
	}
	if err := e.run.start(b); err != nil {
		return nil, err
	}
	e.rows, e.elems, e.keep = e.rows[:0], e.elems[:0], e.keep[:0]
	b.ForEach(func(i int) {
		j := idx(lv, i)
		if lv.IsNull(j) {
			return
		}
		for r := lv.Starts[j]; r < lv.Ends[j]; r++ {
			e.rows = append(e.rows, int32(i))
			e.elems = append(e.elems, r)
		}
	})

	n := b.Len
	out := &e.out
	out.Reset(n)
	kid := lv.Kids[0]
	for lo := 0; lo < len(e.rows); lo += lambdaChunk {
		hi := min(lo+lambdaChunk, len(e.rows))
		rows, elems := e.rows[lo:hi], e.elems[lo:hi]
		e.elem.Gather(kid, elems)
		params := []*columnar.Vector{&e.elem}
		if len(e.run.l.params) > 1 {
			e.pos.Reset(len(rows))
			for k, r := range elems {
				e.pos.Ints[k] = int64(r-lv.Starts[idx(lv, int(rows[k]))]) + 1
			}
			params = append(params, &e.pos)
		}
		res, err := e.run.eval(params, rows)
		if err != nil {
			return nil, err
		}
		for k := range rows {
			if !e.filter {
				out.AppendKid(res, k)
				continue
			}
			q := idx(res, k)
			e.keep = append(e.keep, !res.IsNull(q) && res.Bools[q])
		}
	}
	p := int32(0)
	b.ForEach(func(i int) {
		j := idx(lv, i)
		if lv.IsNull(j) {
			out.SetNull(i, n)
			out.Starts[i], out.Ends[i] = int32(out.KidLen), int32(out.KidLen)
			return
		}
		cnt := lv.Ends[j] - lv.Starts[j]
		if !e.filter {
			out.Starts[i], out.Ends[i] = p, p+cnt
			p += cnt
			return
		}
		out.Starts[i] = int32(out.KidLen)
		for q := p; q < p+cnt; q++ {
			if e.keep[q] {
				out.AppendKid(kid, int(e.elems[q]))
			}
		}
		p += cnt
		out.Ends[i] = int32(out.KidLen)
	})

	return out, nil
}

// listReduceExpr is list_reduce(list, (acc, x[, i]) -> body[, initial]):
// step k applies the body to every row whose list is long enough, the
// rows' accumulators side by side.
type listReduceExpr struct {
	list, init Expr
	run        *lambdaRun
	t          columnar.Type
	acc        columnar.Vector // per outer row
	accg, elem columnar.Vector
	pos        columnar.Vector
	live       []int32 // rows still reducing
	rows       []int32
	elems      []int32
}

func newListReduce(args []Expr, t columnar.Type) (Expr, error) {
	l, ok := args[1].(*Lambda)
	if !ok {
		return nil, errorf("list_reduce expects a lambda as its second argument")
	}
	e := &listReduceExpr{list: args[0], run: newLambdaRun(l), t: t}
	if len(args) > 2 {
		e.init = args[2]
	}
	e.acc.Type, e.accg.Type = t, t
	e.elem.Type = args[0].Type().Elem()
	e.pos.Type = columnar.TInt64
	return e, nil
}

func (e *listReduceExpr) Type() columnar.Type { return e.t }

func (e *listReduceExpr) String() string {
	if e.init != nil {
		return fmt.Sprintf("list_reduce(%v, %v, %v)", e.list, e.run.l, e.init)
	}
	return fmt.Sprintf("list_reduce(%v, %v)", e.list, e.run.l)
}

func (e *listReduceExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	lv, err := e.list.Eval(b)
	if err != nil {
		return nil, err
	}
	var iv *columnar.Vector
	if e.init != nil {
		if iv, err = e.init.Eval(b); err != nil {
			return nil, err
		}
	}
	if err := e.run.start(b); err != nil {
		return nil, err
	}
	n := b.Len
	acc := &e.acc
	acc.Reset(n)
	// The accumulators start as the initial value or the first element;
	// k is the next element's offset in each list.
	e.live = e.live[:0]
	first := int32(1)
	if iv != nil {
		first = 0
	}
	var ferr error
	null := columnar.ConstVector(columnar.NullValue(e.t))
	b.ForEach(func(i int) {
		j := idx(lv, i)
		switch {
		case lv.IsNull(j):
			acc.CopyRow(i, null, 0, n)
		case iv != nil:
			acc.CopyRow(i, iv, idx(iv, i), n)
			e.live = append(e.live, int32(i))
		case lv.Ends[j] == lv.Starts[j]:
			if ferr == nil {
				ferr = errorf("cannot perform list_reduce on an empty input list")
			}
		default:
			acc.CopyRow(i, lv.Kids[0], int(lv.Starts[j]), n)
			e.live = append(e.live, int32(i))
		}
	})

	if ferr != nil {
		return nil, ferr
	}
	kid := lv.Kids[0]
	for k := first; len(e.live) > 0; k++ {
		// Rows whose list has an element at offset k.
		next := e.live[:0]
		for _, i := range e.live {
			j := idx(lv, int(i))
			if lv.Starts[j]+k < lv.Ends[j] {
				next = append(next, i)
			}
		}
		e.live = next
		for lo := 0; lo < len(e.live); lo += lambdaChunk {
			rows := e.live[lo:min(lo+lambdaChunk, len(e.live))]
			e.elems = e.elems[:0]
			for _, i := range rows {
				e.elems = append(e.elems, lv.Starts[idx(lv, int(i))]+k)
			}
			e.accg.Gather(acc, rows)
			e.elem.Gather(kid, e.elems)
			params := []*columnar.Vector{&e.accg, &e.elem}
			if len(e.run.l.params) > 2 {
				e.pos.Reset(len(rows))
				for q := range rows {
					e.pos.Ints[q] = int64(k) + 1
				}
				params = append(params, &e.pos)
			}
			res, err := e.run.eval(params, rows)
			if err != nil {
				return nil, err
			}
			for q, i := range rows {
				acc.CopyRow(int(i), res, idx(res, q), n)
			}
		}
	}
	return acc, nil
}
