package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
)

// distinctPairs remembers the (group, value) pairs a DISTINCT aggregate
// has folded in, in a hashtab.Map keyed on the group id and the value.
type distinctPairs struct {
	pairs hashtab.Map
	gid   columnar.Vector // the batch's group ids, as a key column
	keys  [2]*columnar.Vector
	ids   []int32
	sel   []int
	in    columnar.Batch
}

// fresh returns the live rows of b whose argument is not NULL and whose
// (group, value) pair is new, in increasing order (the caller's until the
// next call).
func (d *distinctPairs) fresh(b *columnar.Batch, arg *columnar.Vector, gids []int32) []int {
	if d.pairs == nil {
		d.pairs = hashtab.New([]columnar.Type{columnar.TInt32, arg.Type})
		d.gid.Type = columnar.TInt32
	}
	d.gid.Reset(b.Len)
	d.sel = d.sel[:0]
	forEach(b, func(i int) {
		if arg.IsNull(idx(arg, i)) {
			return
		}
		d.gid.Ints[i] = int64(gids[i])
		d.sel = append(d.sel, i)
	})
	if len(d.sel) == 0 {
		return d.sel
	}
	d.keys[0], d.keys[1] = &d.gid, arg
	d.in = columnar.Batch{Cols: d.keys[:], Len: b.Len, Sel: d.sel}
	d.ids = growIDs(d.ids, b.Len)
	return d.pairs.Assign(&d.in, d.keys[:], d.ids)
}
