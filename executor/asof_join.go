package executor

import (
	"context"
	"io"
	"slices"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
	"github.com/b2sql/b2sql/executor/memory"
)

// AsofOp is the inequality of an ASOF join, left op right.
type AsofOp uint8

const (
	AsofGE AsofOp = iota // left >= right: the greatest right value not above the left one
	AsofGT               // left > right: the greatest right value below it
	AsofLE               // left <= right: the least right value not below it
	AsofLT               // left < right: the least right value above it
)

func (o AsofOp) String() string { return [...]string{">=", ">", "<=", "<"}[o] }

// AsofJoin is DuckDB's ASOF JOIN: each left row meets the one right row
// whose equality keys equal its own and whose inequality value is the
// nearest one on the side Op allows (a reading taken "as of" the left
// row's time). A left row with no such row is dropped, or with Outer
// (LEFT ASOF JOIN) kept with NULLs. NULL keys or values never match.
//
// The right input is read whole (reserved under the query's memory
// manager) and its rows grouped by key, each group sorted by value; each
// left row then finds its match by binary search. Output: the left
// columns, then the right ones, in left order.
type AsofJoin struct {
	Left, Right         Operator
	LeftKeys, RightKeys []Expr // the equality keys (may be none)
	LeftOn, RightOn     Expr   // the inequality's operands
	Op                  AsofOp
	Outer               bool

	mem    *memory.Manager
	res    *memory.Reservation
	store  *chunkedStore    // the right rows
	vals   []columnar.Value // per right row: its inequality value
	keys   hashtab.Map      // right keys → group id
	groups [][]int32        // per group: its right rows by value (ties in input order)
	gids   []int32
	lrows  []int32 // scratch: the left rows sent
	rrows  []int32 // scratch: their right rows (-1 none)
	out    *columnar.Batch
}

func (j *AsofJoin) Types() []columnar.Type {
	return append(append([]columnar.Type(nil), j.Left.Types()...), j.Right.Types()...)
}
func (j *AsofJoin) Children() []Operator { return []Operator{j.Left, j.Right} }
func (j *AsofJoin) String() string {
	kind := "AsofJoin"
	if j.Outer {
		kind = "AsofJoin left"
	}
	return kind + " " + j.Op.String()
}

// SetMemory makes the join account the right rows it holds to m.
func (j *AsofJoin) SetMemory(m *memory.Manager) { j.mem = m }

func (j *AsofJoin) Open(ctx context.Context) error {
	if err := j.Right.Open(ctx); err != nil {
		return err
	}
	if err := j.build(ctx); err != nil {
		return err
	}
	j.out = columnar.NewBatch(j.Types(), columnar.MaxBatch)
	return j.Left.Open(ctx)
}

// keyTypes are the types of ks' results.
func keyTypes(ks []Expr, b *columnar.Batch) ([]*columnar.Vector, []columnar.Type, error) {
	vecs := make([]*columnar.Vector, len(ks))
	types := make([]columnar.Type, len(ks))
	for i, k := range ks {
		v, err := k.Eval(b)
		if err != nil {
			return nil, nil, err
		}
		vecs[i], types[i] = v, v.Type
	}
	return vecs, types, nil
}

// build reads the right input and groups its rows.
func (j *AsofJoin) build(ctx context.Context) error {
	j.store = newChunkedStore(j.Right.Types(), 0)
	j.res = j.mem.Reserve("asof join", false)
	j.vals, j.groups = nil, nil
	j.keys = nil
	var gidOf []int32 // per right row: its group, -1 none
	for {
		b, err := j.Right.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		keys, types, err := keyTypes(j.RightKeys, b)
		if err != nil {
			return err
		}
		on, err := j.RightOn.Eval(b)
		if err != nil {
			return err
		}
		if err := j.res.Grow(storeBytes(b, b.Cols) + int64(b.Live())*40); err != nil {
			return err
		}
		if j.keys == nil {
			j.keys = hashtab.New(types)
		}
		j.gids = slices.Grow(j.gids[:0], b.Len)[:b.Len]
		if len(keys) > 0 {
			j.keys.Assign(b, keys, j.gids)
		}
		for k := 0; k < b.Live(); k++ {
			r := b.Row(k)
			v := valueAt(on, r)
			g := int32(0)
			if len(keys) > 0 {
				g = j.gids[r]
			}
			if v.Null || anyNull(keys, r) {
				g = -1
			}
			gidOf = append(gidOf, g)
			j.vals = append(j.vals, v)
		}
		j.store.appendRows(b, b.Cols)
	}
	for r, g := range gidOf {
		if g < 0 {
			continue
		}
		for int(g) >= len(j.groups) {
			j.groups = append(j.groups, nil)
		}
		j.groups[g] = append(j.groups[g], int32(r))
	}
	for _, rows := range j.groups {
		slices.SortStableFunc(rows, func(a, b int32) int { return columnar.Compare(j.vals[a], j.vals[b]) })
	}
	return nil
}

// anyNull reports whether one of keys is NULL in row r.
func anyNull(keys []*columnar.Vector, r int) bool {
	for _, k := range keys {
		if k.Const {
			if k.IsNull(0) {
				return true
			}
			continue
		}
		if k.IsNull(r) {
			return true
		}
	}
	return false
}

// match returns the right row for a left row of group g and value v, or -1.
func (j *AsofJoin) match(g int32, v columnar.Value) int32 {
	if g < 0 || int(g) >= len(j.groups) {
		return -1
	}
	rows := j.groups[g]
	// lo: the first row whose value is >= v; hi: the first > v.
	lo, _ := slices.BinarySearchFunc(rows, v, func(r int32, v columnar.Value) int {
		if columnar.Compare(j.vals[r], v) < 0 {
			return -1
		}
		return 1
	})
	hi, _ := slices.BinarySearchFunc(rows, v, func(r int32, v columnar.Value) int {
		if columnar.Compare(j.vals[r], v) <= 0 {
			return -1
		}
		return 1
	})
	i := -1
	switch j.Op {
	case AsofGE:
		i = hi - 1
	case AsofGT:
		i = lo - 1
	case AsofLE:
		i = lo
	case AsofLT:
		i = hi
	}
	if i < 0 || i >= len(rows) {
		return -1
	}
	return rows[i]
}

func (j *AsofJoin) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		b, err := j.Left.Next(ctx)
		if err != nil {
			return nil, err
		}
		keys, _, err := keyTypes(j.LeftKeys, b)
		if err != nil {
			return nil, err
		}
		on, err := j.LeftOn.Eval(b)
		if err != nil {
			return nil, err
		}
		j.gids = slices.Grow(j.gids[:0], b.Len)[:b.Len]
		switch {
		case len(keys) == 0:
			clear(j.gids)
		case j.keys == nil: // no right rows
			for i := range j.gids {
				j.gids[i] = -1
			}
		default:
			j.keys.Find(b, keys, j.gids)
		}
		j.lrows, j.rrows = j.lrows[:0], j.rrows[:0]
		for k := 0; k < b.Live(); k++ {
			r := b.Row(k)
			m := int32(-1)
			if v := valueAt(on, r); !v.Null && !anyNull(keys, r) {
				m = j.match(j.gids[r], v)
			}
			if m < 0 && !j.Outer {
				continue
			}
			j.lrows = append(j.lrows, int32(r))
			j.rrows = append(j.rrows, m)
		}
		if len(j.lrows) == 0 {
			continue
		}
		j.emit(b)
		return j.out, nil
	}
}

// emit fills j.out with the left rows lrows of b beside their right rows.
func (j *AsofJoin) emit(b *columnar.Batch) {
	n := len(j.lrows)
	nl := len(b.Cols)
	for c, v := range b.Cols {
		gatherInto(j.out.Cols[c], v, j.lrows)
	}
	rows := make([]int32, n)
	for i, r := range j.rrows {
		rows[i] = max(r, 0)
	}
	for c := range j.Right.Types() {
		v := j.out.Cols[nl+c]
		if j.store.n == 0 {
			v.Reset(n)
			for i := range n {
				v.SetNull(i, n)
			}
			continue
		}
		j.store.gatherCol(v, c, rows)
		for i, r := range j.rrows {
			if r < 0 {
				v.SetNull(i, n)
			}
		}
	}
	j.out.Len, j.out.Sel = n, nil
}

// gatherInto sets v to the rows of src (its one value, when constant).
func gatherInto(v, src *columnar.Vector, rows []int32) {
	if src.Const {
		n := len(rows)
		v.Reset(n)
		for i := range n {
			v.CopyRow(i, src, 0, n)
		}
		return
	}
	v.Gather(src, rows)
}

func (j *AsofJoin) Close() error {
	j.store, j.vals, j.groups, j.keys = nil, nil, nil, nil
	j.res.Free()
	j.res = nil
	err := j.Right.Close()
	if lerr := j.Left.Close(); err == nil {
		err = lerr
	}
	return err
}
