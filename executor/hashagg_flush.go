package executor

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
)

// Flushing a partial aggregate whose keys arrive in order. A partial of a
// parallel GROUP BY one integer column over input clustered by it
// (lineitem by l_orderkey: TPC-H Q18's sum(l_quantity) per order, 1.5M
// groups of about four rows) builds a table of every key it sees, though
// no key comes back once passed: its table and states held 60 MB at once,
// twice that in heap between collections. Any partial may emit its groups
// at any time and start a new table, as the final merges a key's partial
// groups however many there are; with keys in order, a key emitted never
// comes back (but the last one, which the next batch may continue), so
// emitting the table each time it reaches flushGroups groups costs no
// reduction. So a partial grouping by one plain integer key watches its
// keys while it builds: while every batch's keys are non-decreasing and
// none is below the previous batch's last, it emits its table once it
// holds flushGroups groups and builds the next from the following input.
// A key out of order (another worker's stretch of keys, a NULL) ends the
// watch for good: the table then grows as before, and the keys flushed
// before stay correct.

// flushGroups is the size at which a partial over ordered keys emits its
// table: large enough that the emission costs little per group, small
// enough to stay in the caches.
const flushGroups = 1 << 16

// keyOrder watches a key column for order.
type keyOrder struct {
	on    bool  // watching: the keys so far are in order
	seen  bool  // last holds a key
	last  int64 // the previous batch's last key
	start int64 // the first key of the table being built
}

// watchOrder starts watching the keys of a partial that groups by one
// plain integer column and has no DISTINCT aggregate (whose pairs are
// folded only at the end of Open).
func (h *HashAgg) watchOrder() {
	h.order = keyOrder{on: h.Partial && len(h.Groups) == 1 && hashtab.IsPlainInt(h.Groups[0].Type())}
	for _, a := range h.Aggs {
		if a.Distinct {
			h.order.on = false
		}
	}
}

// next reports whether the live keys of v (of batch b) continue the order,
// ending the watch if they do not.
func (o *keyOrder) next(b *columnar.Batch, v *columnar.Vector) bool {
	if !o.on {
		return false
	}
	n := b.Live()
	if n == 0 {
		return true
	}
	if v.Valid != nil || v.Dict != nil {
		o.on = false
		return false
	}
	prev, seen := o.last, o.seen
	if !seen {
		o.start = v.Ints[idx(v, b.Row(0))]
	}
	if v.Const {
		o.on = !seen || v.Ints[0] >= prev
		o.last, o.seen = v.Ints[0], true
		return o.on
	}
	if b.Sel == nil {
		for _, x := range v.Ints[:n] {
			if seen && x < prev {
				o.on = false
				return false
			}
			prev, seen = x, true
		}
	} else {
		for _, i := range b.Sel[:n] {
			x := v.Ints[i]
			if seen && x < prev {
				o.on = false
				return false
			}
			prev, seen = x, true
		}
	}
	o.last, o.seen = prev, seen
	return true
}

// shouldFlush reports whether the partial should emit its table now.
func (h *HashAgg) shouldFlush() bool {
	return h.order.on && h.ngroups >= flushGroups && h.spill == nil && h.kept == nil && !h.passing
}

// nextFlushed starts a new table once a flushed one is emitted, builds
// it from the rest of the input and emits it (h.Next), or ends.
func (h *HashAgg) nextFlushed(ctx context.Context) (*columnar.Batch, error) {
	h.flushing = false
	gtypes := make([]columnar.Type, len(h.Groups))
	for i, g := range h.Groups {
		gtypes[i] = g.Type()
	}
	h.groups = hashtab.New(gtypes)
	// The next table's keys follow the last one's, about as many over
	// about the same span: its direct table starts at the first of them
	// (hashtab.Expect), not at 0, where it would not be dense enough to be
	// used and the keys would go to the hash table.
	span := h.order.last - h.order.start
	h.order.start = h.order.last
	if span >= 0 && h.order.last+span >= h.order.last {
		hashtab.Reserve(h.groups, hashtab.Expect{Keys: flushGroups, Ranged: true, Lo: h.order.last, Hi: h.order.last + span})
	}
	for i, a := range h.Aggs {
		h.states[i] = recycled(a, h.states[i])
	}
	shareValues(h.states)
	h.minMax = make([]codeMinMax, len(h.Aggs))
	h.ngroups, h.pos = 0, 0
	h.res.Free()
	h.held = 0
	if err := h.build(ctx, nil); err != nil {
		return nil, err
	}
	if h.kept == nil {
		if err := h.finishSpill(ctx); err != nil {
			return nil, err
		}
	}
	return h.Next(ctx)
}
