package executor

import (
	"context"
	"io"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// Unnest emits, for each input row, as many rows as its longest list
// among Exprs (none when every list is NULL or empty): the input's
// columns repeated, then one column per list holding its k-th element
// (NULL past its end), as DuckDB's unnest in a select list. An input row
// may span several output batches.
//
// Pass, when non-nil, picks the input columns repeated (by position, in
// output order); nil repeats them all. The planner leaves out the columns
// nobody reads above, above all the list itself: gathering a list once per
// element copies it element-count times.
type Unnest struct {
	Input     Operator
	Exprs     []Expr // LIST-valued
	Names     []string
	Pass      []int
	PassNames []string // for String

	in    *columnar.Batch
	lists []*columnar.Vector
	live  []int // the input batch's live rows
	row   int   // next live row
	k     int32 // next element of that row
	rows  []int32
	elems [][]int32 // per list: the child row of each output row, -1 past the end
	out   columnar.Batch
	cols  []columnar.Vector
	fixed []int32 // elements' rows with -1 pointed at row 0
	pass  []*columnar.Vector
}

func (u *Unnest) Types() []columnar.Type {
	in := u.Input.Types()
	t := append([]columnar.Type(nil), in...)
	if u.Pass != nil {
		t = t[:0]
		for _, c := range u.Pass {
			t = append(t, in[c])
		}
	}
	for _, e := range u.Exprs {
		t = append(t, e.Type().Elem())
	}
	return t
}

func (u *Unnest) Children() []Operator { return []Operator{u.Input} }
func (u *Unnest) String() string {
	s := "Unnest " + strings.Join(u.Names, ", ")
	if u.Pass != nil {
		s += " pass=[" + strings.Join(u.PassNames, ", ") + "]"
	}
	return s
}
func (u *Unnest) Open(ctx context.Context) error { return u.Input.Open(ctx) }
func (u *Unnest) Close() error                   { return u.Input.Close() }

func (u *Unnest) Next(ctx context.Context) (*columnar.Batch, error) {
	if u.elems == nil {
		u.elems = make([][]int32, len(u.Exprs))
		u.lists = make([]*columnar.Vector, len(u.Exprs))
	}
	for {
		if u.in == nil || u.row >= len(u.live) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			b, err := u.Input.Next(ctx)
			if err != nil {
				return nil, err
			}
			if b == nil {
				return nil, io.EOF // tolerated from inputs that say it this way
			}
			for i, e := range u.Exprs {
				if u.lists[i], err = e.Eval(b); err != nil {
					return nil, err
				}
			}
			u.in, u.row, u.k = b, 0, 0
			u.live = u.live[:0]
			b.ForEach(func(i int) { u.live = append(u.live, i) })
		}
		u.fill()
		if len(u.rows) > 0 {
			return u.emit(), nil
		}
	}
}

// fill picks up to a batch of output rows from the current input batch.
func (u *Unnest) fill() {
	u.rows = u.rows[:0]
	for e := range u.elems {
		u.elems[e] = u.elems[e][:0]
	}
	if len(u.lists) == 1 {
		u.fillOne()
		return
	}
	for u.row < len(u.live) && len(u.rows) < columnar.MaxBatch {
		i := u.live[u.row]
		n := int32(0)
		for _, l := range u.lists {
			if j := idx(l, i); !l.IsNull(j) {
				n = max(n, l.Ends[j]-l.Starts[j])
			}
		}
		if u.k >= n {
			u.row, u.k = u.row+1, 0
			continue
		}
		u.rows = append(u.rows, int32(i))
		for e, l := range u.lists {
			j := idx(l, i)
			r := int32(-1)
			if !l.IsNull(j) && u.k < l.Ends[j]-l.Starts[j] {
				r = l.Starts[j] + u.k
			}
			u.elems[e] = append(u.elems[e], r)
		}
		u.k++
	}
}

// fillOne is fill for a single list, the common case: an input row's
// elements are consecutive child rows with no NULL padding, taken a run at
// a time instead of one element per pass over the lists.
func (u *Unnest) fillOne() {
	l := u.lists[0]
	rows, el := u.rows, u.elems[0]
	for u.row < len(u.live) && len(rows) < columnar.MaxBatch {
		i := u.live[u.row]
		j := idx(l, i)
		n := int32(0)
		if !l.IsNull(j) {
			n = l.Ends[j] - l.Starts[j]
		}
		take := min(n-u.k, int32(columnar.MaxBatch-len(rows)))
		for q, s := int32(0), l.Starts[j]+u.k; q < take; q++ {
			rows = append(rows, int32(i))
			el = append(el, s+q)
		}
		if u.k += max(take, 0); u.k >= n {
			u.row, u.k = u.row+1, 0
		}
	}
	u.rows, u.elems[0] = rows, el
}

// emit builds the output batch of the rows fill picked.
func (u *Unnest) emit() *columnar.Batch {
	ins := u.in.Cols
	if u.Pass != nil {
		u.pass = u.pass[:0]
		for _, c := range u.Pass {
			u.pass = append(u.pass, ins[c])
		}
		ins = u.pass
	}
	if u.cols == nil {
		u.cols = make([]columnar.Vector, len(ins)+len(u.Exprs))
		u.out.Cols = make([]*columnar.Vector, len(ins)+len(u.Exprs))
	}
	m := len(u.rows)
	for c, v := range ins {
		if v.Const {
			u.out.Cols[c] = v
			continue
		}
		g := &u.cols[c]
		g.Type = v.Type
		g.Gather(v, u.rows)
		u.out.Cols[c] = g
	}
	for e, l := range u.lists {
		g := &u.cols[len(ins)+e]
		g.Type = l.Type.Elem()
		u.elements(g, l.Kids[0], u.elems[e])
		u.out.Cols[len(ins)+e] = g
	}
	u.out.Len, u.out.Sel = m, nil
	return &u.out
}

// elements sets g to the child rows rows of kid, NULL where a row is -1
// (past the end of its list): one Gather (a plain loop per type) with the
// -1 rows pointed at row 0, then those rows made NULL.
func (u *Unnest) elements(g, kid *columnar.Vector, rows []int32) {
	m := len(rows)
	past, some := false, false
	for _, r := range rows {
		past, some = past || r < 0, some || r >= 0
	}
	if !past {
		g.Gather(kid, rows)
		return
	}
	if kid.Const || !some {
		// Nothing to gather from: every row is NULL (Gather needs rows).
		g.Reset(m)
		for q := range m {
			g.SetValue(q, m, columnar.NullValue(g.Type))
		}
		return
	}
	u.fixed = append(u.fixed[:0], rows...)
	for q, r := range u.fixed {
		if r < 0 {
			u.fixed[q] = 0
		}
	}
	g.Gather(kid, u.fixed)
	for q, r := range rows {
		if r < 0 {
			g.SetValue(q, m, columnar.NullValue(g.Type))
		}
	}
}
