package executor

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// Distinct passes each distinct row the first time it is seen, streaming:
// an aggregate without aggregates, whose new groups are its output.
//
// Its key table is reserved from the query's memory manager. When the
// manager refuses more, the table stops growing, as a spilling hash
// aggregate's does: a row whose key is in the table was output already
// and is dropped, a row with a new key is written to one of spillParts
// partition files by a hash of the key. Once the input ends the table is
// freed and each partition is made distinct in turn by a Distinct of its
// own, which spills again (by other hash bits) if it is still too big.
// No spilled key was ever output: it was not in the table when its rows
// came, and the table took no key after that.
type Distinct struct {
	Input Operator

	mem   *memory.Manager
	res   *memory.Reservation
	level int // 0, or the spill depth of a partition's Distinct
	seen  hashtab.Map
	held  int64 // bytes of seen reserved
	gids  []int32
	out   columnar.Batch
	spill *distinctSpill

	parts respill // the spilled partitions, replayed (respill.go)
}

// distinctSpill is a Distinct's spilled input: the partitions being
// written, then the partition being made distinct.
type distinctSpill struct {
	parts   *partWriter
	files   []*spill.File
	missing []int
	dec     []columnar.Vector
	cols    []*columnar.Vector
}

func (d *Distinct) Types() []columnar.Type      { return d.Input.Types() }
func (d *Distinct) Children() []Operator        { return []Operator{d.Input} }
func (d *Distinct) String() string              { return "Distinct" }
func (d *Distinct) SetMemory(m *memory.Manager) { d.mem = m }

// MemoryUse adds the partitions' figures to the table's.
func (d *Distinct) MemoryUse() (int64, int64) {
	return d.parts.figures(d.res.Peak(), d.res.SpilledBytes())
}

func (d *Distinct) Close() error {
	d.dropSpill()
	d.seen = nil
	d.res.Free()
	d.held = 0
	return d.Input.Close()
}

func (d *Distinct) Open(ctx context.Context) error {
	d.dropSpill()
	d.parts.restart(0, nil)
	d.seen = hashtab.New(d.Input.Types())
	if d.res == nil {
		d.res = d.mem.Reserve("distinct", memory.Spillable)
	}
	d.res.Free()
	d.held = 0
	return d.Input.Open(ctx)
}

func (d *Distinct) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		if sp := d.spill; sp != nil && sp.files != nil {
			return d.nextSpilled(ctx)
		}
		b, err := d.Input.Next(ctx)
		if err == io.EOF && d.spill != nil {
			if d.spill.files, err = d.spill.parts.finish(ctx); err != nil {
				return nil, err
			}
			d.replay()
			continue
		}
		if err != nil {
			return nil, err
		}
		d.gids = growIDs(d.gids, b.Len)
		if d.spill == nil && d.held > 0 {
			// Reserved before the table grows (the first batch always goes in:
			// progress): refused, the batch spills.
			if err := d.account(d.seen.Growth(b.Live())); err != nil {
				return nil, err
			}
		}
		if d.spill != nil {
			if err := d.spillBatch(ctx, b); err != nil {
				return nil, err
			}
			continue
		}
		fresh := d.seen.Assign(b, b.Cols, d.gids)
		if err := d.account(0); err != nil {
			return nil, err
		}
		if len(fresh) == 0 {
			continue
		}
		d.out = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: fresh}
		return &d.out, nil
	}
}

// account reserves what the table holds now and ahead bytes more (what
// its next Assign may allocate: hashtab.Map.Growth); when refused, the
// table stops growing and new keys spill.
func (d *Distinct) account(ahead int64) error {
	if spill, err := reserveTo(d.res, d.mem, &d.held, d.seen.Bytes(), ahead); !spill {
		return err
	}
	types := d.Input.Types()
	d.spill = &distinctSpill{parts: newPartWriter(d.mem, d.res, types, newPartHash(d.level)),
		dec: make([]columnar.Vector, len(types)), cols: make([]*columnar.Vector, len(types))}
	return nil
}

// spillBatch writes the rows of b whose key is not in the table out.
func (d *Distinct) spillBatch(ctx context.Context, b *columnar.Batch) error {
	sp := d.spill
	d.seen.Find(b, b.Cols, d.gids)
	sp.missing = sp.missing[:0]
	b.ForEach(func(i int) {
		if d.gids[i] < 0 {
			sp.missing = append(sp.missing, i)
		}
	})

	if len(sp.missing) == 0 {
		return nil
	}
	view := columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: sp.missing}
	for k, v := range b.Cols[:len(sp.cols)] {
		sp.cols[k] = decodeLive(v, &view, &sp.dec[k])
	}
	return sp.parts.add(ctx, &view, sp.cols, sp.cols)
}

// replay makes the partitions' Distincts the rest of the output.
func (d *Distinct) replay() {
	sp, types := d.spill, d.Input.Types()
	d.parts.restart(len(sp.files), func(p int) memoryOp {
		f := sp.files[p]
		if f == nil {
			return nil
		}
		sp.files[p] = nil // the partition's scan removes it
		return &Distinct{Input: &spillScan{f: f, types: types}, mem: d.mem, level: d.level + 1}
	})
}

// nextSpilled returns the distinct rows of the partitions, one after
// another, once the table is freed.
func (d *Distinct) nextSpilled(ctx context.Context) (*columnar.Batch, error) {
	if d.seen != nil {
		d.seen = nil
		d.res.Free()
		d.held = 0
	}
	return d.parts.next(ctx)
}

// dropSpill removes the files written or being written.
func (d *Distinct) dropSpill() {
	sp := d.spill
	if sp == nil {
		return
	}
	d.parts.end()
	d.spill = nil
	sp.parts.close()
	removeFiles(sp.files)
}
