package executor

import (
	"context"
	"hash/maphash"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// spillParts is the fan-out of a partitioned spill (hash aggregation, hash
// join): with P partitions an input needs about log_P(size/limit) rounds.
const spillParts = 16

// partHash is how rows are dealt to partitions: the seed of a query's
// spill and the mix of its level, so that a partition spilled again
// splits by other bits. The two sides of a join deal with one partHash,
// so that equal keys meet in the same partition.
type partHash struct {
	seed maphash.Seed
	salt uint64
}

func newPartHash(level int) partHash {
	return partHash{seed: maphash.MakeSeed(), salt: 0x2d358dccaa6c78a5 ^ uint64(level+1)*0x9e3779b97f4a7c15}
}

// partWriter deals rows to spillParts spill files by a hash of their keys,
// buffering flushAt rows per partition before writing them.
type partWriter struct {
	mem    *memory.Manager
	res    *memory.Reservation // the spilled bytes are counted here
	types  []columnar.Type
	h      partHash
	hashes []uint64
	buf    []*columnar.Batch // per partition, rows waiting to be written
	arena  [][]byte          // per partition, the bytes of buf's strings
	w      []*spill.Writer
	// bufs reserves what the buffers take: they are the minimum a spill
	// needs, so they are counted (forced), never refused.
	bufs    *memory.Reservation
	flushAt int // rows buffered per partition before a write
}

// hold counts n more bytes of buffers.
func (pw *partWriter) hold(n int64) {
	if pw.bufs == nil {
		pw.bufs = pw.mem.Reserve(pw.res.Name()+" partition buffers", false)
	}
	pw.bufs.Force(n)
}

// release returns the buffers' bytes.
func (pw *partWriter) release() { pw.bufs.Free() }

func newPartWriter(mem *memory.Manager, res *memory.Reservation, types []columnar.Type, h partHash) *partWriter {
	return &partWriter{mem: mem, res: res, types: types, h: h, flushAt: flushRows(mem.Limit(), types),
		buf: make([]*columnar.Batch, spillParts), arena: make([][]byte, spillParts), w: make([]*spill.Writer, spillParts)}
}

// flushRows is how many rows a partition buffers before writing them: a
// batch, or fewer under a small limit, so that the buffers of one writer
// take about an eighth of it (at least 16 rows each: a spill file of
// one-row records would be mostly headers).
func flushRows(limit int64, types []columnar.Type) int {
	if limit <= 0 {
		return columnar.MaxBatch
	}
	n := limit / (8 * spillParts * rowEstimate(types))
	return int(min(max(n, 16), columnar.MaxBatch))
}

// rowEstimate is the bytes a buffered row takes, strings at 16 bytes.
func rowEstimate(types []columnar.Type) int64 {
	return int64(len(types))*24 + 1
}

// add deals the live rows of view: cols (plain vectors over view's rows,
// of the writer's types) are written, keys (vectors over the same rows,
// coded or not) choose the partition.
func (pw *partWriter) add(ctx context.Context, view *columnar.Batch, cols, keys []*columnar.Vector) error {
	if cap(pw.hashes) < view.Len {
		pw.hashes = make([]uint64, max(view.Len, columnar.MaxBatch))
	}
	hs := pw.hashes[:view.Len]
	view.ForEach(func(i int) { hs[i] = pw.h.salt })
	d := dealer{seed: pw.h.seed}
	for _, v := range keys {
		d.hashColumn(view, v, hs)
	}
	var err error
	view.ForEach(func(i int) {
		if err != nil {
			return
		}
		p := partitionOf(hs[i], spillParts)
		buf := pw.buf[p]
		if buf == nil {
			buf = columnar.NewBatch(pw.types, pw.flushAt)
			pw.buf[p] = buf
			pw.hold(int64(pw.flushAt) * rowEstimate(pw.types))
		}
		r := buf.Len
		for c, v := range cols {
			dst := buf.Cols[c]
			if dst.Type.IsNested() {
				dst.CopyRowOwned(r, v, i, pw.flushAt)
				continue
			}
			dst.CopyRow(r, v, i, pw.flushAt)
			if dst.Type.Phys() == columnar.PhysBytes && !dst.IsNull(r) {

				at, was := len(pw.arena[p]), cap(pw.arena[p])
				pw.arena[p] = append(pw.arena[p], dst.Bytes[r]...)
				if c := cap(pw.arena[p]); c > was {
					pw.hold(int64(c - was))
				}
				dst.Bytes[r] = pw.arena[p][at:len(pw.arena[p]):len(pw.arena[p])]
			}
		}
		buf.Len++
		if buf.Len == pw.flushAt {
			err = pw.flush(ctx, int(p))
		}
	})

	return err
}

// flush writes partition p's buffered rows to its file.
func (pw *partWriter) flush(ctx context.Context, p int) error {
	buf := pw.buf[p]
	if buf == nil || buf.Len == 0 {
		return nil
	}
	if pw.w[p] == nil {
		w, err := pw.mem.SpillDir().Create(pw.types, pw.mem.MaxTemp())
		if err != nil {
			return err
		}
		pw.w[p] = w
	}
	buf.Sel = nil
	if err := pw.w[p].Write(ctx, buf); err != nil {
		return err
	}
	buf.Len = 0
	for _, v := range buf.Cols {
		v.Reset(pw.flushAt)
	}
	pw.arena[p] = pw.arena[p][:0]
	return nil
}

// finish writes what is buffered and completes the files: one per
// partition, nil for a partition that got no row. On error the files
// written are removed.
func (pw *partWriter) finish(ctx context.Context) ([]*spill.File, error) {
	files := make([]*spill.File, spillParts)
	for p := range pw.w {
		err := pw.flush(ctx, p)
		pw.buf[p], pw.arena[p] = nil, nil
		if err == nil && pw.w[p] != nil {
			files[p], err = pw.w[p].Finish()
			pw.w[p] = nil
			if files[p] != nil {
				pw.res.Spilled(files[p].Bytes)
			}
		}
		if err != nil {
			pw.close()
			removeFiles(files)
			return nil, err
		}
	}
	pw.release()
	return files, nil
}

// close abandons the files being written (removing them).
func (pw *partWriter) close() {
	for p, w := range pw.w {
		if w != nil {
			w.Close()
			pw.w[p] = nil
		}
	}
	pw.buf, pw.arena = make([]*columnar.Batch, spillParts), make([][]byte, spillParts)
	pw.release()
}

// removeFiles removes the files of a spill (nil entries are skipped).
func removeFiles(files []*spill.File) {
	for _, f := range files {
		f.Remove()
	}
}
