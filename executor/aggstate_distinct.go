package executor

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// distinctPairs remembers the (group, value) pairs a DISTINCT aggregate
// has folded in, in a hashtab.Map keyed on the group id and the value.
//
// The table is reserved from the query's memory manager (attach). When the
// manager refuses it more, it stops taking pairs, as a spilling Distinct
// does: a pair in the table was folded in already and is dropped, a new
// pair is written to one of spillParts partition files by a hash of the
// pair and folded in later. Once the input ends (finish) the table is
// freed and each partition is made distinct by a Distinct of its own
// (which spills again if still too big); its pairs, new by construction,
// are folded into the states of their groups. The groups stay in memory
// meanwhile: a spilling aggregate keeps the groups whose rows it took,
// and the pairs name them by id. Pairs thus reach their group out of
// input order once spilled, which DISTINCT aggregates do not promise.
type distinctPairs struct {
	pairTable                 // the Map and its keying (aggstate_distinct_pack.go)
	gid       columnar.Vector // the batch's group ids, as a key column
	ids       []int32
	sel       []int
	in        columnar.Batch

	ctx   context.Context // the aggregate's Open: spill writes check it
	mem   *memory.Manager
	res   *memory.Reservation // nil: no accounting
	held  int64               // bytes of pairs reserved
	level int                 // the aggregate's spill depth
	spill *pairSpill          // non-nil once the table is full
}

// pairSpill is the pairs written out and the partitions replayed.
type pairSpill struct {
	types []columnar.Type // group id (INTEGER), value
	w     *partWriter
	files []*spill.File // once written; entries are taken by parts
	parts respill
	dec   columnar.Vector
	cols  [2]*columnar.Vector
	gids  []int32
}

// attach makes the pairs reserve from res and spill through mem, with
// ctx for the spill writes of the aggregate's Open.
func (d *distinctPairs) attach(ctx context.Context, mem *memory.Manager, res *memory.Reservation, level int) {
	d.ctx, d.mem, d.res, d.level = ctx, mem, res, level
}

// fresh returns the live rows of b whose argument is not NULL and whose
// (group, value) pair is new, in increasing order (the caller's until the
// next call). Once the table is full it returns none: new pairs go to
// disk and come back through finish.
func (d *distinctPairs) fresh(b *columnar.Batch, arg *columnar.Vector, gids []int32) ([]int, error) {
	d.gid.Type = columnar.TInt32
	d.gid.Reset(b.Len)
	d.sel = d.sel[:0]
	b.ForEach(func(i int) {
		if arg.IsNull(idx(arg, i)) {
			return
		}
		d.gid.Ints[i] = int64(gids[i])
		d.sel = append(d.sel, i)
	})

	if len(d.sel) == 0 {
		return d.sel, nil
	}
	keys := d.pairKeys(b.Len, &d.gid, arg, d.sel)
	d.in = columnar.Batch{Cols: keys, Len: b.Len, Sel: d.sel}
	d.ids = growIDs(d.ids, b.Len)
	if d.spill == nil && d.held > 0 {
		// Reserved before the table grows (the first batch always goes in:
		// progress): refused, the batch spills.
		if err := d.account(arg.Type, d.pairs.Growth(len(d.sel))); err != nil {
			return nil, err
		}
	}
	if d.spill != nil {
		return nil, d.spillNew(arg)
	}
	fresh := d.pairs.Assign(&d.in, keys, d.ids)
	return fresh, d.account(arg.Type, 0)
}

// account reserves what the table holds now and ahead bytes more (what
// its next Assign may allocate); when refused, the table stops growing
// and new pairs spill.
func (d *distinctPairs) account(argType columnar.Type, ahead int64) error {
	if spill, err := reserveTo(d.res, d.mem, &d.held, d.pairs.Bytes(), ahead); !spill {
		return err
	}
	sp := &pairSpill{types: []columnar.Type{columnar.TInt32, argType}}
	sp.w = newPartWriter(d.mem, d.res, sp.types, newPartHash(d.level))
	d.spill = sp
	return nil
}

// spillNew writes the pairs of d.in that are not in the table out.
func (d *distinctPairs) spillNew(arg *columnar.Vector) error {
	d.pairs.Find(&d.in, d.in.Cols, d.ids)
	missing := d.sel[:0]
	for _, i := range d.in.Sel {
		if d.ids[i] < 0 {
			missing = append(missing, i)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sp := d.spill
	view := columnar.Batch{Cols: d.keys[:], Len: d.in.Len, Sel: missing}
	sp.cols[0], sp.cols[1] = &d.gid, decodeLive(arg, &view, &sp.dec)
	return sp.w.add(d.ctx, &view, sp.cols[:], sp.cols[:])
}

// finish folds the spilled pairs in, partition by partition, once the
// input is read: fold gets batches of distinct new pairs (the value and
// the group ids, by row). Without a spill it does nothing.
func (d *distinctPairs) finish(ctx context.Context, fold func(b *columnar.Batch, arg *columnar.Vector, gids []int32) error) error {
	sp := d.spill
	if sp == nil || sp.w == nil {
		return nil
	}
	files, err := sp.w.finish(ctx)
	sp.w = nil
	if err != nil {
		return err
	}
	sp.files = files
	// Every pair of the table is folded in: free it before the
	// partitions grow.
	d.pairs = nil
	d.res.Free()
	d.held = 0
	sp.parts.restart(len(files), func(p int) memoryOp {
		f := sp.files[p]
		if f == nil {
			return nil
		}
		sp.files[p] = nil // the partition's scan removes it
		return &Distinct{Input: &spillScan{f: f, types: sp.types}, mem: d.mem, level: d.level + 1}
	})
	for {
		b, err := sp.parts.next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		sp.gids = growIDs(sp.gids, b.Len)
		ids := b.Cols[0].Ints
		b.ForEach(func(i int) { sp.gids[i] = int32(ids[i]) })
		if err := fold(b, b.Cols[1], sp.gids); err != nil {
			return err
		}
	}
}

// drop removes the files written or being written and frees the table.
// It answers the partitions' figures (EXPLAIN ANALYZE): the table's own
// are its reservation's.
func (d *distinctPairs) drop() (peak, spilled int64) {
	if sp := d.spill; sp != nil {
		sp.parts.end()
		peak, spilled = sp.parts.figures(0, 0)
		if sp.w != nil {
			sp.w.close()
		}
		removeFiles(sp.files)
		d.spill = nil
	}
	d.pairs = nil
	d.res.Free()
	d.held = 0
	return peak, spilled
}

// foldPairs folds pairs known to be new (from finish) into the states of
// their groups, past the distinct check.
func (s *aggState) foldPairs(b *columnar.Batch, arg *columnar.Vector, gids []int32) error {
	d := s.distinct
	s.distinct = nil
	err := s.update(b, arg, gids)
	s.distinct = d
	return err
}

// attachDistinct gives each DISTINCT aggregate's pairs a reservation of
// the aggregate's own, kept across runs for EXPLAIN ANALYZE, and, in a
// parallel GROUP BY's final, the pairs to expect (at most the rows of
// its partition, under the groups it reserved).
func (h *HashAgg) attachDistinct(ctx context.Context, groups int) {
	if h.dres == nil {
		h.dres = make([]*memory.Reservation, len(h.Aggs))
	}
	rows := 0
	if src := partitionSourceOf(h.Input); src != nil && !h.Partial && groups > 0 {
		rows = src.rows()
	}
	for i, s := range h.states {
		if s.distinct == nil {
			continue
		}
		if h.dres[i] == nil {
			h.dres[i] = h.mem.Reserve("DISTINCT aggregate", memory.Spillable)
		}
		s.distinct.attach(ctx, h.mem, h.dres[i], h.level)
		s.distinct.expectPairs, s.distinct.expectGroups = rows, groups
	}
}

// finishDistinct folds the DISTINCT aggregates' spilled pairs in, once the
// input is read and before any group is emitted.
func (h *HashAgg) finishDistinct(ctx context.Context) error {
	for _, s := range h.states {
		if s.distinct == nil {
			continue
		}
		if err := s.distinct.finish(ctx, s.foldPairs); err != nil {
			return err
		}
		h.dropPairs(s.distinct)
	}
	return nil
}

// dropDistinct frees the DISTINCT aggregates' pairs and removes their
// files.
func (h *HashAgg) dropDistinct() {
	for _, s := range h.states {
		if s != nil && s.distinct != nil {
			h.dropPairs(s.distinct)
		}
	}
}

// dropPairs frees one aggregate's pairs, keeping its partitions' figures.
func (h *HashAgg) dropPairs(d *distinctPairs) {
	peak, spilled := d.drop()
	h.pairsPeak = max(h.pairsPeak, peak)
	h.pairsSpilled += spilled
}

// distinctUse is the DISTINCT aggregates' part of MemoryUse: their tables
// are held beside the groups', their partitions after.
func (h *HashAgg) distinctUse() (peak, spilled int64) {
	for _, r := range h.dres {
		peak += r.Peak()
		spilled += r.SpilledBytes()
	}
	return max(peak, h.pairsPeak), spilled + h.pairsSpilled
}
