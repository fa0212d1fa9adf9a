package ctable

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// Vectors over decoded blocks.
//
// A float64 or int64 column is stored as the vector holds it: little-endian
// 8-byte items. When the scan's reader is consumed on its own goroutine
// (ScanUnits), the vector then points at the rows inside the decoder's
// cached block instead of receiving a copy, so that `SELECT sum(price)`
// reduces straight out of the decoded block: the bytes are written once,
// by the codec and the unshuffle, and read once, by the aggregate.

// sameLayout reports whether items convert to the vector's payload
// unchanged: plain 8-byte floats, or 8-byte signed integers (and
// datetimes) that need no scaling.
func (c *fixedConv) sameLayout() bool {
	if c.stride != 8 || c.off != 0 || c.dt.ItemSize != 8 {
		return false
	}
	switch c.out.Phys() {
	case columnar.PhysFloat:
		return c.dt.Kind == 'f'
	case columnar.PhysInt:
		return (c.dt.Kind == 'i' || c.dt.Kind == 'M') && c.mul == 1 && c.div == 1 &&
			c.out.ID != columnar.Interval
	}
	return false
}

// alias points output column i at the n items of raw when their layout is
// the vector's; false leaves the vector alone (convert then).
func (ob *outBatch) alias(i int, c *fixedConv, raw []byte, n int) bool {
	if !c.sameLayout() || len(raw) < 8*n {
		return false
	}
	if ob.owned == nil {
		ob.owned = make([]ownedPayload, len(ob.b.Cols))
	}
	v, o := ob.b.Cols[i], &ob.owned[i]
	if !o.aliased {
		o.floats, o.ints, o.aliased = v.Floats, v.Ints, true
	}
	if c.out.Phys() == columnar.PhysFloat {
		v.Floats = b2.Items[float64](raw[:8*n])
	} else {
		v.Ints = b2.Items[int64](raw[:8*n])
	}
	return true
}

// unalias gives output column i its own storage back.
func (ob *outBatch) unalias(i int) {
	if i >= len(ob.owned) || !ob.owned[i].aliased {
		return
	}
	v, o := ob.b.Cols[i], &ob.owned[i]
	v.Floats, v.Ints = o.floats, o.ints
	*o = ownedPayload{}
}

// viewFrames counts the arrays a scan of cols decodes blocks of per batch
// (_valid_rows, and each opened column's values, offsets, bytes, mask and
// batches): views
// stay valid across a batch only while they all fit in the decoder's
// block cache.
func (t *Table) viewFrames(cols []int) int {
	n := 1
	seen := map[int]bool{}
	for _, c := range cols {
		for _, s := range t.srcsOf(c) {
			if seen[s] {
				continue
			}
			seen[s] = true
			src := t.srcs[s]
			for _, used := range []bool{src.data != nil, src.blob != nil, src.mask != nil, src.ba != nil} {
				if used {
					n++
				}
			}
		}
	}
	return n
}
