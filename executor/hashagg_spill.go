package executor

import (
	"context"
	"errors"
	"hash/maphash"
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// Spilling hash aggregation. HashAgg reserves the bytes of its key table
// and states as they grow. When the memory manager refuses more, the table
// stops taking new groups: from then on a row whose key is already in the
// table is aggregated there as before, and a row with a new key is written
// out (its key and aggregate arguments, evaluated) to one of aggSpillParts
// spill files chosen by a hash of the key. The groups in memory are then
// complete — none of their rows went to disk — and are emitted first; the
// table is freed, and each partition is aggregated in turn by a HashAgg of
// its own over the file, which spills again (partitioning by other hash
// bits) if it is still too big. A partition's aggregate always keeps at
// least the groups of its first batch in memory, so every round makes
// progress. Nothing of the aggregate states is serialized, so every
// aggregate function spills, and rows reach their group in input order
// (first(), string_agg and list() see the order they would in memory).

// aggSpillParts is the fan-out of a spill: with P partitions a spilled
// input needs about log_P(size/limit) rounds.
const aggSpillParts = 16

// aggSpill is a HashAgg's spilled input: the partition files being written,
// then the partition being aggregated.
type aggSpill struct {
	types  []columnar.Type // the group keys, then each aggregate's Arg and Arg2
	argCol [][2]int        // per aggregate: columns of Arg and Arg2 (-1: none)

	seed    maphash.Seed
	salt    uint64 // the level's hash mix: a partition re-spills by other bits
	hashes  []uint64
	buf     []*columnar.Batch // per partition, rows waiting to be written
	arena   [][]byte          // per partition, the bytes of buf's strings
	w       []*spill.Writer
	files   []*spill.File
	found   []int
	missing []int
	dec     []columnar.Vector // decoded (dictionary-free) spilled columns
	cols    []*columnar.Vector

	cur int      // next partition to aggregate
	sub *HashAgg // the partition being emitted
}

// account reserves the bytes the table and the states hold now; when the
// manager refuses, the aggregate stops adding groups and spills new keys.
func (h *HashAgg) account() error {
	if h.groups == nil || h.res == nil {
		return nil
	}
	// The states' bytes are estimated (two words per group and aggregate):
	// the key table reports its own exactly.
	size := h.groups.Bytes() + int64(h.ngroups)*16*int64(len(h.Aggs))
	need := size - h.held
	if need <= 0 {
		return nil
	}
	err := h.res.Grow(need)
	if err == nil {
		h.held = size
		return nil
	}
	var oom *memory.OutOfMemory
	// A table that could not reserve even its first batch still spills:
	// it holds that batch's groups and the rest goes to disk.
	if errors.Is(err, memory.ErrSpill) || errors.As(err, &oom) && h.held == 0 && h.mem.TempDir() != "" {
		h.startSpill()
		return nil
	}
	return err
}

// startSpill switches the aggregate to spilling new keys.
func (h *HashAgg) startSpill() {
	sp := &aggSpill{seed: maphash.MakeSeed(), salt: 0x2d358dccaa6c78a5 ^ uint64(h.level+1)*0x9e3779b97f4a7c15}
	for _, g := range h.Groups {
		sp.types = append(sp.types, g.Type())
	}
	sp.argCol = make([][2]int, len(h.Aggs))
	for i, a := range h.Aggs {
		sp.argCol[i] = [2]int{-1, -1}
		for k, e := range []Expr{a.Arg, a.Arg2} {
			if e != nil {
				sp.argCol[i][k] = len(sp.types)
				sp.types = append(sp.types, e.Type())
			}
		}
	}
	sp.buf = make([]*columnar.Batch, aggSpillParts)
	sp.arena = make([][]byte, aggSpillParts)
	sp.w = make([]*spill.Writer, aggSpillParts)
	sp.dec = make([]columnar.Vector, len(sp.types))
	sp.cols = make([]*columnar.Vector, len(sp.types))
	h.spill = sp
}

// spillBatch aggregates the rows of b whose group is in the table and
// writes the others out.
func (h *HashAgg) spillBatch(ctx context.Context, b *columnar.Batch, keys []*columnar.Vector) error {
	if cap(h.gids) < b.Len {
		h.gids = make([]int32, max(b.Len, columnar.MaxBatch))
	}
	gids := h.gids[:b.Len]
	h.groups.Find(b, keys, gids)
	sp := h.spill
	sp.found, sp.missing = sp.found[:0], sp.missing[:0]
	for k, n := 0, b.Live(); k < n; k++ {
		i := b.Row(k)
		if gids[i] >= 0 {
			sp.found = append(sp.found, i)
		} else {
			sp.missing = append(sp.missing, i)
		}
	}
	view := *b
	if len(sp.found) > 0 {
		view.Sel = sp.found
		if err := h.update(&view); err != nil {
			return err
		}
	}
	if len(sp.missing) == 0 {
		return nil
	}
	view.Sel = sp.missing
	for k, v := range keys {
		sp.cols[k] = decodeLive(v, &view, &sp.dec[k])
	}
	for i, a := range h.Aggs {
		for k, e := range []Expr{a.Arg, a.Arg2} {
			if c := sp.argCol[i][k]; c >= 0 {
				v, err := e.Eval(&view)
				if err != nil {
					return err
				}
				sp.cols[c] = decodeLive(v, &view, &sp.dec[c])
			}
		}
	}
	return h.deal(ctx, &view, len(keys))
}

// deal appends the live rows of view (columns sp.cols) to the buffers of
// their partitions, writing a buffer out when it is full.
func (h *HashAgg) deal(ctx context.Context, view *columnar.Batch, nkeys int) error {
	sp := h.spill
	if cap(sp.hashes) < view.Len {
		sp.hashes = make([]uint64, max(view.Len, columnar.MaxBatch))
	}
	hs := sp.hashes[:view.Len]
	forEach(view, func(i int) { hs[i] = sp.salt })
	d := dealer{seed: sp.seed}
	for _, v := range sp.cols[:nkeys] {
		d.hashColumn(view, v, hs)
	}
	for _, i := range view.Sel {
		p, _ := bits.Mul64(hs[i], aggSpillParts)
		buf := sp.buf[p]
		if buf == nil {
			buf = columnar.NewBatch(sp.types, columnar.MaxBatch)
			sp.buf[p] = buf
		}
		r := buf.Len
		for c, v := range sp.cols {
			dst := buf.Cols[c]
			if dst.Type.IsNested() { // the input's payloads go with its batch
				dst.CopyRowOwned(r, v, i, columnar.MaxBatch)
				continue
			}
			dst.CopyRow(r, v, i, columnar.MaxBatch)
			if dst.Type.Phys() == columnar.PhysBytes && !dst.IsNull(r) {
				// The input's bytes are only valid until its next batch.
				at := len(sp.arena[p])
				sp.arena[p] = append(sp.arena[p], dst.Bytes[r]...)
				dst.Bytes[r] = sp.arena[p][at:len(sp.arena[p]):len(sp.arena[p])]
			}
		}
		buf.Len++
		if buf.Len == columnar.MaxBatch {
			if err := h.flushPart(ctx, int(p)); err != nil {
				return err
			}
		}
	}
	return nil
}

// flushPart writes partition p's buffered rows to its file.
func (h *HashAgg) flushPart(ctx context.Context, p int) error {
	sp := h.spill
	buf := sp.buf[p]
	if buf == nil || buf.Len == 0 {
		return nil
	}
	if sp.w[p] == nil {
		w, err := h.mem.SpillDir().Create(sp.types, h.mem.MaxTemp())
		if err != nil {
			return err
		}
		sp.w[p] = w
	}
	buf.Sel = nil
	if err := sp.w[p].Write(ctx, buf); err != nil {
		return err
	}
	buf.Len = 0
	for _, v := range buf.Cols {
		v.Reset(columnar.MaxBatch)
	}
	sp.arena[p] = sp.arena[p][:0]
	return nil
}

// finishSpill completes the partition files once the input is read.
func (h *HashAgg) finishSpill(ctx context.Context) error {
	sp := h.spill
	if sp == nil {
		return nil
	}
	sp.files = make([]*spill.File, aggSpillParts)
	for p := range sp.w {
		if err := h.flushPart(ctx, p); err != nil {
			return err
		}
		sp.buf[p], sp.arena[p] = nil, nil
		if sp.w[p] == nil {
			continue
		}
		f, err := sp.w[p].Finish()
		sp.w[p] = nil
		if err != nil {
			return err
		}
		h.res.Spilled(f.Bytes)
		sp.files[p] = f
	}
	return nil
}

// nextSpilled returns the groups of the spilled partitions, one partition's
// aggregate after another; the table's groups were emitted before.
func (h *HashAgg) nextSpilled(ctx context.Context) (*columnar.Batch, error) {
	sp := h.spill
	if h.groups != nil {
		// The table's groups are out: free them before the partitions grow.
		h.groups, h.states = nil, nil
		h.res.Free()
		h.held = 0
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if sp.sub != nil {
			b, err := sp.sub.Next(ctx)
			if err != ioEOF {
				return b, err
			}
			h.endSub()
		}
		if sp.cur >= len(sp.files) {
			return nil, ioEOF
		}
		f := sp.files[sp.cur]
		sp.cur++
		if f == nil {
			continue
		}
		sub := h.partitionAgg(f)
		sp.sub = sub
		if err := sub.Open(ctx); err != nil {
			return nil, err
		}
	}
}

// partitionAgg is the aggregate of one spilled partition: the same groups
// and aggregates, over the file's columns.
func (h *HashAgg) partitionAgg(f *spill.File) *HashAgg {
	sp := h.spill
	groups := make([]Expr, len(h.Groups))
	for k := range groups {
		groups[k] = ColumnExpr(k, sp.types[k])
	}
	aggs := make([]AggSpec, len(h.Aggs))
	for i, a := range h.Aggs {
		aggs[i] = a
		if c := sp.argCol[i][0]; c >= 0 {
			aggs[i].Arg = ColumnExpr(c, sp.types[c])
		}
		if c := sp.argCol[i][1]; c >= 0 {
			aggs[i].Arg2 = ColumnExpr(c, sp.types[c])
		}
	}
	return &HashAgg{Input: &spillScan{f: f, types: sp.types}, Groups: groups, Aggs: aggs, mem: h.mem, level: h.level + 1}
}

// endSub closes the partition's aggregate, keeping its figures.
func (h *HashAgg) endSub() {
	sp := h.spill
	sp.sub.Close()
	peak, spilled := sp.sub.MemoryUse()
	h.subPeak = max(h.subPeak, peak)
	h.subSpilled += spilled
	sp.sub = nil
}

// dropSpill removes the aggregate's spill files, written or being written.
func (h *HashAgg) dropSpill() {
	sp := h.spill
	if sp == nil {
		return
	}
	if sp.sub != nil {
		h.endSub()
	}
	h.spill = nil
	for _, w := range sp.w {
		if w != nil {
			w.Close()
		}
	}
	for _, f := range sp.files {
		if f != nil {
			f.Remove()
		}
	}
}

// SetMemory makes the aggregate reserve its table from m and spill.
func (h *HashAgg) SetMemory(m *memory.Manager) { h.mem = m }

// spillScan reads a spill file as an operator; Close removes the file.
type spillScan struct {
	f     *spill.File
	types []columnar.Type
	r     *spill.Reader
}

func (s *spillScan) Types() []columnar.Type { return s.types }
func (s *spillScan) Children() []Operator   { return nil }
func (s *spillScan) String() string         { return "SpillScan" }

func (s *spillScan) Open(ctx context.Context) error {
	r, err := s.f.Open()
	if err != nil {
		return err
	}
	s.r = r
	return nil
}

func (s *spillScan) Next(ctx context.Context) (*columnar.Batch, error) {
	return s.r.Next(ctx)
}

func (s *spillScan) Close() error {
	if s.r != nil {
		s.r.Close()
		s.r = nil
	}
	s.f.Remove()
	return nil
}
