package executor

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// Spilling hash aggregation. HashAgg reserves the bytes of its key table
// and states as they grow. When the memory manager refuses more, the table
// stops taking new groups: from then on a row whose key is already in the
// table is aggregated there as before, and a row with a new key is written
// out (its key and aggregate arguments, evaluated) to one of spillParts
// spill files chosen by a hash of the key. The groups in memory are then
// complete — none of their rows went to disk — and are emitted first; the
// table is freed, and each partition is aggregated in turn by a HashAgg of
// its own over the file, which spills again (partitioning by other hash
// bits) if it is still too big. A partition's aggregate always keeps at
// least the groups of its first batch in memory, so every round makes
// progress. Nothing of the aggregate states is serialized, so every
// aggregate function spills, and rows reach their group in input order
// (first(), string_agg and list() see the order they would in memory).

// aggSpill is a HashAgg's spilled input: the partition files being written,
// then the partition being aggregated.
type aggSpill struct {
	types  []columnar.Type // the group keys, then each aggregate's Arg, Arg2 and Filter
	argCol [][3]int        // per aggregate: columns of Arg, Arg2 and Filter (-1: none)

	parts   *partWriter   // the partitions being written (spill_parts.go)
	files   []*spill.File // … once written
	found   []int
	missing []int
	dec     []columnar.Vector // decoded (dictionary-free) spilled columns
	cols    []*columnar.Vector
}

// account reserves the bytes the table and the states hold now and ahead
// bytes more (what the table's next Assign may allocate); when the
// manager refuses, the aggregate stops adding groups and spills new keys.
func (h *HashAgg) account(ahead int64) error {
	if h.groups == nil || h.res == nil {
		return nil
	}
	// The states' bytes are estimated (two words per group and aggregate):
	// the key table reports its own exactly.
	size := h.groups.Bytes() + int64(h.ngroups)*16*int64(len(h.Aggs))
	if spill, err := reserveTo(h.res, h.mem, &h.held, size, ahead); !spill {
		return err
	}
	h.startSpill()
	return nil
}

// startSpill switches the aggregate to spilling new keys.
func (h *HashAgg) startSpill() {
	sp := &aggSpill{}
	for _, g := range h.Groups {
		sp.types = append(sp.types, g.Type())
	}
	sp.argCol = make([][3]int, len(h.Aggs))
	for i, a := range h.Aggs {
		sp.argCol[i] = [3]int{-1, -1, -1}
		for k, e := range []Expr{a.Arg, a.Arg2, a.Filter} {
			if e != nil {
				sp.argCol[i][k] = len(sp.types)
				sp.types = append(sp.types, e.Type())
			}
		}
	}
	sp.parts = newPartWriter(h.mem, h.res, sp.types, newPartHash(h.level))
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
		for k, e := range []Expr{a.Arg, a.Arg2, a.Filter} {
			if c := sp.argCol[i][k]; c >= 0 {
				v, err := e.Eval(&view)
				if err != nil {
					return err
				}
				sp.cols[c] = decodeLive(v, &view, &sp.dec[c])
			}
		}
	}
	return sp.parts.add(ctx, &view, sp.cols, sp.cols[:len(keys)])
}

// finishSpill completes the partition files once the input is read, and
// makes their aggregates the output after the table's groups.
func (h *HashAgg) finishSpill(ctx context.Context) error {
	sp := h.spill
	if sp == nil {
		return nil
	}
	files, err := sp.parts.finish(ctx)
	sp.files = files
	h.parts.restart(len(files), func(p int) memoryOp {
		if f := sp.files[p]; f != nil {
			return h.partitionAgg(f)
		}
		return nil
	})
	return err
}

// nextSpilled returns the groups of the spilled partitions, one partition's
// aggregate after another; the table's groups were emitted before.
func (h *HashAgg) nextSpilled(ctx context.Context) (*columnar.Batch, error) {
	if h.groups != nil {
		// The table's groups are out: free them before the partitions grow.
		h.groups, h.states = nil, nil
		h.res.Free()
		h.held = 0
	}
	return h.parts.next(ctx)
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
		if c := sp.argCol[i][2]; c >= 0 {
			aggs[i].Filter = ColumnExpr(c, sp.types[c])
		}
	}
	return &HashAgg{Input: &spillScan{f: f, types: sp.types}, Groups: groups, Aggs: aggs, mem: h.mem, level: h.level + 1}
}

// dropSpill removes the aggregate's spill files, written or being written.
func (h *HashAgg) dropSpill() {
	h.dropDistinct()
	sp := h.spill
	if sp == nil {
		return
	}
	h.parts.end()
	h.spill = nil
	sp.parts.close()
	removeFiles(sp.files)
}

// SetMemory makes the aggregate reserve its table from m and spill.
func (h *HashAgg) SetMemory(m *memory.Manager) { h.mem = m }

// spillScan reads a spill file as an operator; Close removes the file,
// unless keep (a file read again later, or by others).
type spillScan struct {
	f     *spill.File
	types []columnar.Type
	keep  bool
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
	if !s.keep {
		s.f.Remove()
	}
	return nil
}
