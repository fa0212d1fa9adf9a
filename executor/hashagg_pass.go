package executor

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
)

// Pre-aggregation bail-out. A partial aggregate of a parallel GROUP BY
// (PartitionMerge's partials) exists to shrink the rows its final sees.
// When the keys are nearly unique it shrinks nothing and costs a second
// hash table as large as the final's, built and emitted for nothing. So,
// as DuckDB's radix-partitioned aggregate does, a partial watches the
// ratio of groups to rows: once passCheckRows rows are in and at least
// passRatio of them made a new group, it stops building. It emits the
// groups it has, then passes every further input row on as a group of its
// own: its keys and the partial state of one row (count 1, the sum of one
// value, …), which the final merges as it merges any partial group.

//
// A partial that sees fewer rows than passCheckRows (TPC-H Q16's, about
// 60,000 each, grouping by four keys that are almost all distinct) would
// build its whole table for nothing; so it is also judged early, after
// passEarlyRows rows, by a stricter ratio: uniformly drawn keys reach it
// only from about 200,000 distinct values, which the late check passes
// too (it passes from about 142,000). What the early check passes that
// the late one would not is an input whose first rows are distinct and
// whose keys come back later (sorted runs, a key cycling every 20,000
// rows). For those it keeps its table (a few thousand groups) and looks
// up passProbeRows rows of one passed batch in passProbeEvery: when at
// least passRepeat of them find a group, the keys do repeat, and it stops passing for good,
// goes on building the table it kept and emits it at the end (the final
// merges passed rows and groups alike, in any order).

const (
	passCheckRows  = 1 << 16 // rows seen before the ratio is judged
	passRatio      = 0.8     // groups per row at which pre-aggregation stops
	passEarlyRows  = 1 << 13 // rows seen before the early judgement
	passEarlyRatio = 0.98    // groups per row at which it passes early
	passProbeEvery = 4       // passed batches per batch looked up in the kept table
	passRepeat     = 0.25    // share of a probed batch's rows found that ends passing
	passProbeRows  = 64      // rows of a probed batch looked up
)

// keptTable is the state of a table an early pass keeps: its aggregate
// states and per-aggregate code minimum/maximum, and its group count
// (HashAgg's fields serve the passed batches meanwhile).
type keptTable struct {
	states  []*aggState
	minMax  []codeMinMax
	ngroups int
}

// shouldPass reports whether a partial aggregate that has seen rows input
// rows, live of them in the last batch, should stop building its table; an
// early pass keeps the table (h.kept).
func (h *HashAgg) shouldPass(rows, live int) bool {
	if !h.Partial || h.groups == nil || h.spill != nil || h.revoked {
		return false
	}
	if rows >= passCheckRows {
		return float64(h.ngroups) >= passRatio*float64(rows)
	}
	if rows < passEarlyRows || rows-live >= passEarlyRows || float64(h.ngroups) < passEarlyRatio*float64(rows) {
		return false
	}
	for _, a := range h.Aggs {
		if a.Distinct {
			return false // its pairs are folded once, at the end of Open
		}
	}
	h.kept = &keptTable{states: h.states, minMax: h.minMax, ngroups: h.ngroups}
	h.states = make([]*aggState, len(h.Aggs))
	h.minMax = make([]codeMinMax, len(h.Aggs))
	h.ngroups, h.pos = 0, 0
	return true
}

// probeKept reports whether at least passRepeat of the first passProbeRows
// live rows of b (keys keys) have a group in the kept table: a sample, as
// looking up whole batches cost count(DISTINCT user_id) a fifth of its
// time. It uses h.gids.
func (h *HashAgg) probeKept(b *columnar.Batch, keys []*columnar.Vector) bool {
	sel := make([]int, 0, passProbeRows)
	for k := 0; k < b.Live() && len(sel) < passProbeRows; k++ {
		sel = append(sel, b.Row(k))
	}
	sample := columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: sel}
	gids := h.gids[:b.Len]
	h.groups.Find(&sample, keys, gids)
	found := 0
	for _, i := range sel {
		if gids[i] >= 0 {
			found++
		}
	}
	return float64(found) >= passRepeat*float64(len(sel))
}

// unkeep ends an early pass: the kept table's states come back, and the
// input goes on into the table from batch b (nil: none, the input ended).
func (h *HashAgg) unkeep(ctx context.Context, b *columnar.Batch) error {
	k := h.kept
	h.kept, h.passing = nil, false
	h.states, h.minMax, h.ngroups, h.pos = k.states, k.minMax, k.ngroups, 0
	if b == nil {
		return nil
	}
	h.revoked = true
	if err := h.build(ctx, b); err != nil {
		return err
	}
	return h.finishSpill(ctx)
}

// nextPassed returns the next input batch as one-row partial groups, once
// the table's groups are out. The table is freed first: its keys were
// copied by whoever kept them (PartitionMerge's dealer owns its copies).
func (h *HashAgg) nextPassed(ctx context.Context) (*columnar.Batch, error) {
	if h.groups != nil && h.kept == nil {
		h.groups = nil
		clear(h.states) // the table's states go with it: a pass batch's are a batch long
		h.minMax = make([]codeMinMax, len(h.Aggs))
		h.res.Free()
		h.held = 0
	}
	ng := len(h.Groups)
	for {
		b, err := h.Input.Next(ctx)
		if err == ioEOF {
			h.passing = false // the next call ends at once
			if h.kept != nil {
				h.unkeep(ctx, nil) // the kept table's groups are emitted next
				return h.Next(ctx)
			}
		}
		if err != nil {
			return nil, err
		}
		n := b.Live()
		if n == 0 {
			continue
		}
		if cap(h.gids) < b.Len {
			h.gids = make([]int32, max(b.Len, columnar.MaxBatch))
		}
		gids := h.gids[:b.Len]
		if h.kept != nil {
			if h.probed++; h.probed%passProbeEvery == 0 {
				keys := make([]*columnar.Vector, len(h.Groups))
				for i, g := range h.Groups {
					if keys[i], err = g.Eval(b); err != nil {
						return nil, err
					}
				}
				if h.probeKept(b, keys) {
					if err := h.unkeep(ctx, b); err != nil {
						return nil, err
					}
					return h.Next(ctx)
				}
			}
		}
		h.passRows = h.passRows[:0]
		for k := 0; k < n; k++ {
			i := b.Row(k)
			gids[i] = int32(k)
			h.passRows = append(h.passRows, int32(i))
		}
		for i, g := range h.Groups {
			v, err := g.Eval(b)
			if err != nil {
				return nil, err
			}
			gatherRows(h.out.Cols[i], v, h.passRows)
		}
		// Fresh states, one group per live row: the batch's states are
		// read out below and no longer needed at the next batch, whose
		// states take over their slices (recycled).
		h.ngroups = n
		for i, a := range h.Aggs {
			h.states[i] = recycled(a, h.states[i])
			h.states[i].grow(n)
		}
		shareValues(h.states)
		if err := h.update(b); err != nil {
			return nil, err
		}
		for i, s := range h.states {
			v := h.out.Cols[ng+i]
			v.Reset(n)
			s.result(v, 0, n)
		}
		h.pos = n
		h.passed += n
		h.out.Len, h.out.Sel = n, nil
		return h.out, nil
	}
}

// gatherRows sets dst to rows of v (which may be constant or coded).
func gatherRows(dst, v *columnar.Vector, rows []int32) {
	if !v.Const {
		dst.Gather(v, rows)
		return
	}
	dst.Reset(len(rows))
	for r, i := range rows {
		dst.CopyRow(r, v, int(i), len(rows))
	}
}

// recycled returns a fresh state of a, which takes over old's per-group
// slices, emptied, when a is a plain count, sum, average, minimum or
// maximum (their state is those slices and nothing else). Passing 10M
// rows of GROUP BY user_id on allocated two new slices a batch per
// aggregate, 200 MB a query, and the garbage collector ran a cycle every
// few milliseconds to free them.
func recycled(a AggSpec, old *aggState) *aggState {
	s := newAggState(a)
	if old == nil || a.Distinct || old.valsFrom != nil {
		return s
	}
	switch a.Kind {
	case AggCountStar, AggCount, AggSum, AggAvg, AggMin, AggMax:
	default:
		return s
	}
	// floats and wsum are left out: whether they are nil tells which
	// accumulation a state is in (aggstate_int.go, aggstate_widesum.go).
	s.count, s.ints, s.uints, s.isum, s.keys16 = old.count[:0], old.ints[:0], old.uints[:0], old.isum[:0], old.keys16[:0]
	return s
}
