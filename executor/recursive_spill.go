package executor

import (
	"cmp"
	"context"
	"errors"
	"io"
	"slices"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// Spilling the UNION key table of a recursive CTE. The table holds every
// row produced so far. When the memory manager refuses it more, its keys
// move to disk, dealt to spillParts partitions by a 64-bit hash of the row,
// and the table is freed. From then on every row a round produces is a
// candidate, written to its partition's file of the round. At the end of
// each round every partition that got candidates is settled: the
// candidates are taken into a key table (as many as the memory allows, a
// segment), the rows seen before that could equal one of them are looked
// up, and the others are new: they go to the round's work table, to the
// result and to the partition's seen rows.
//
// A partition keeps its seen rows in runs (recRun): spill files sorted by
// the row hash, written with an index of where each batch starts and the
// least and greatest hash in it. Settling reads only the batches whose
// hash range holds a candidate's hash, so a round reads what its
// candidates need instead of every row seen so far. Each settled segment
// adds a run; runs are merged in pairs as a binary counter does (a run is
// merged into the one before it once it is at least half its size), so a
// partition keeps O(log n) runs and every seen row is rewritten O(log n)
// times in all.
type recSpill struct {
	mem   *memory.Manager
	res   *memory.Reservation // the key table's: the segments reserve here, and spilled bytes count here
	types []columnar.Type
	h     partHash
	seen  [spillParts][]*recRun
	keys  []*spill.File // the key table's rows, per partition, until they become runs
	cand  *partWriter   // the round's candidates
	dec   []columnar.Vector
	cols  []*columnar.Vector
	read  int64 // batches of seen runs read, for tests
}

// recRun is one sorted run of seen rows: the row's columns and, last, its
// hash; lo and hi are the least and greatest hash of each batch.
type recRun struct {
	f      *spill.File
	lo, hi []uint64
}

// newRecSpill writes the keys of table out, dealt to partitions: the
// caller frees the table, and the first settle makes them runs.
func newRecSpill(ctx context.Context, mem *memory.Manager, res *memory.Reservation, types []columnar.Type, table hashtab.Map) (*recSpill, error) {
	sp := &recSpill{mem: mem, res: res, types: types, h: newPartHash(0),
		dec: make([]columnar.Vector, len(types)), cols: make([]*columnar.Vector, len(types))}
	w := newPartWriter(mem, res, types, sp.h)
	keys := columnar.NewBatch(types, columnar.MaxBatch)
	for from := 0; from < table.Len(); from += columnar.MaxBatch {
		to := min(from+columnar.MaxBatch, table.Len())
		table.Keys(keys.Cols, from, to)
		keys.Len = to - from
		if err := w.add(ctx, keys, keys.Cols, keys.Cols); err != nil {
			w.close()
			return nil, err
		}
	}
	files, err := w.finish(ctx)
	if err != nil {
		return nil, err
	}
	sp.keys = files
	sp.cand = newPartWriter(mem, res, types, sp.h)
	return sp, nil
}

// add writes the live rows of b out as candidates.
func (sp *recSpill) add(ctx context.Context, b *columnar.Batch) error {
	for k, v := range b.Cols[:len(sp.cols)] {
		sp.cols[k] = decodeLive(v, b, &sp.dec[k])
	}
	return sp.cand.add(ctx, b, sp.cols, sp.cols)
}

// settle ends a round: each partition's new rows are passed to add and
// kept as seen; a new candidate writer takes the next round's.
func (sp *recSpill) settle(ctx context.Context, add func(*columnar.Batch) error) error {
	// The key table's rows first: distinct, nothing to look up.
	for p, f := range sp.keys {
		if f == nil {
			continue
		}
		sp.keys[p] = nil
		if err := sp.settlePart(ctx, p, f, nil); err != nil {
			return err
		}
	}
	files, err := sp.cand.finish(ctx)
	sp.cand = newPartWriter(sp.mem, sp.res, sp.types, sp.h)
	if err != nil {
		return err
	}
	for p, f := range files {
		if f == nil {
			continue
		}
		files[p] = nil
		if err := sp.settlePart(ctx, p, f, add); err != nil {
			removeFiles(files)
			return err
		}
	}
	return nil
}

// settlePart passes the rows of candidates file f not among partition p's
// seen rows to add, once each, and adds them to those; it removes f. With
// add nil the rows are known to be new: they are only kept.
func (sp *recSpill) settlePart(ctx context.Context, p int, f *spill.File, add func(*columnar.Batch) error) error {
	defer f.Remove()
	r, err := f.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	seg := sp.newSegment()
	defer sp.res.Free()
	for {
		b, err := r.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		full, err := seg.add(b)
		if err == nil && full {
			// The memory holds no more candidates: settle these, then
			// take the others (looked up against these too).
			if err = sp.settleSegment(ctx, p, seg, add); err == nil {
				seg = sp.newSegment()
				_, err = seg.add(b)
			}
		}
		if err != nil {
			return err
		}
	}
	return sp.settleSegment(ctx, p, seg, add)
}

// recSegment is candidates of one partition taken at once: a key table
// numbering the distinct ones, and each one's hash.
type recSegment struct {
	sp     *recSpill
	table  hashtab.Map
	hashes []uint64 // by key id
	gids   []int32
	rowH   []uint64 // scratch: a batch's row hashes
	rows   int64    // bytes reserved for the keys' hashes and copies
}

func (sp *recSpill) newSegment() *recSegment {
	sp.res.Free()
	return &recSegment{sp: sp, table: hashtab.New(sp.types)}
}

// add takes the rows of b (plain columns, no selection) into the table;
// full reports, with nothing taken, that the memory manager refused the
// room and the segment holds keys already. Its first batch is always
// taken (forced): a segment must make progress. What is reserved is the
// table and, per key, its hash and its copy when the new keys are copied
// out to be sorted (the table is dropped then, but both are held for a
// moment).
func (sg *recSegment) add(b *columnar.Batch) (full bool, err error) {
	perRow := 8 + (chunkBytes(b, b.Cols)+int64(b.Len)*8)/int64(max(b.Len, 1))
	need := sg.table.Growth(b.Len) + int64(b.Len)*perRow
	if err := sg.sp.res.Grow(need); err != nil {
		var oom *memory.OutOfMemory
		if !errors.Is(err, memory.ErrSpill) && !errors.As(err, &oom) {
			return false, err
		}
		if sg.table.Len() > 0 {
			return true, nil
		}
		sg.sp.res.Force(need)
	}
	sg.rowH = sg.sp.rowHashes(b, sg.rowH)
	sg.gids = growIDs(sg.gids, b.Len)
	added := sg.table.Assign(b, b.Cols, sg.gids)
	for _, i := range added {
		sg.hashes = append(sg.hashes, sg.rowH[i])
	}
	// Keep what the new keys take, not what was asked for.
	sg.rows += int64(len(added)) * perRow
	if held := sg.table.Bytes() + sg.rows; held < sg.sp.res.Size() {
		sg.sp.res.Shrink(sg.sp.res.Size() - held)
	}
	return false, nil
}

// rowHashes returns the 64-bit hash of each row of b (plain columns, no
// selection), as the partitions are dealt.
func (sp *recSpill) rowHashes(b *columnar.Batch, hs []uint64) []uint64 {
	if cap(hs) < b.Len {
		hs = make([]uint64, max(b.Len, columnar.MaxBatch))
	}
	hs = hs[:b.Len]
	for i := range hs {
		hs[i] = sp.h.salt
	}
	d := dealer{seed: sp.h.seed}
	for _, v := range b.Cols[:len(sp.types)] {
		d.hashColumn(b, v, hs)
	}
	return hs
}

// settleSegment looks the segment's candidates up among partition p's
// seen rows, passes the others to add (unless nil) and writes them as a
// new run of p.
func (sp *recSpill) settleSegment(ctx context.Context, p int, sg *recSegment, add func(*columnar.Batch) error) error {
	n := sg.table.Len()
	if n == 0 {
		return nil
	}
	found := make([]bool, n)
	if add != nil {
		sorted := slices.Clone(sg.hashes)
		if err := quickSort(ctx, sorted, cmp.Compare[uint64]); err != nil {
			return err
		}
		for _, run := range sp.seen[p] {
			if err := sp.lookUp(ctx, run, sorted, sg, found); err != nil {
				return err
			}
		}
	}
	// The new keys with their hashes, sorted by hash, become a run.
	types := append(slices.Clip(sp.types), columnar.TUint64)
	st := newChunkedStore(types, 0)
	keys := columnar.NewBatch(types, columnar.MaxBatch)
	sel := make([]int, 0, columnar.MaxBatch) // never nil: nil selects every row
	for from := 0; from < n; from += columnar.MaxBatch {
		to := min(from+columnar.MaxBatch, n)
		sg.table.Keys(keys.Cols[:len(sp.types)], from, to)
		h := keys.Cols[len(sp.types)]
		h.Reset(to - from)
		sel = sel[:0]
		for g := from; g < to; g++ {
			h.Uints[g-from] = sg.hashes[g]
			if !found[g] {
				sel = append(sel, g-from)
			}
		}
		keys.Len, keys.Sel = to-from, sel
		st.appendRows(keys, keys.Cols)
	}
	sg.table, sg.hashes = nil, nil
	if st.n == 0 {
		return nil
	}
	perm, err := sortPerm(ctx, st, []int{len(sp.types)}, []SortKey{{}})
	if err != nil {
		return err
	}
	out := columnar.NewBatch(types, columnar.MaxBatch)
	run, err := sp.writeRun(ctx, types, func(w func(*columnar.Batch) error) error {
		for from := 0; from < len(perm); from += columnar.MaxBatch {
			st.gather(out, perm, from, min(from+columnar.MaxBatch, len(perm)))
			if add != nil {
				if err := add(&columnar.Batch{Cols: out.Cols[:len(sp.types)], Len: out.Len}); err != nil {
					return err
				}
			}
			if err := w(out); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	sp.seen[p] = append(sp.seen[p], run)
	return sp.mergeRuns(ctx, p, types)
}

// lookUp marks found the candidates of sg equal to a row of run: it reads
// only the run's batches whose hash range holds one of the candidates'
// sorted hashes, and of those only the rows whose hash is one of them.
func (sp *recSpill) lookUp(ctx context.Context, run *recRun, sorted []uint64, sg *recSegment, found []bool) error {
	has := func(h uint64) bool {
		_, ok := slices.BinarySearch(sorted, h)
		return ok
	}
	for k := 0; k < len(run.lo); {
		i, _ := slices.BinarySearch(sorted, run.lo[k])
		if i == len(sorted) || sorted[i] > run.hi[k] {
			k++
			continue
		}
		// Batches k.. while each holds a candidate's hash, read at once.
		end := k + 1
		for end < len(run.lo) {
			j, _ := slices.BinarySearch(sorted, run.lo[end])
			if j == len(sorted) || sorted[j] > run.hi[end] {
				break
			}
			end++
		}
		r, err := run.f.OpenRange(k, end)
		if err != nil {
			return err
		}
		for {
			b, err := r.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				r.Close()
				return err
			}
			sp.read++
			var sel []int
			for i, h := range b.Cols[len(sp.types)].Uints[:b.Len] {
				if has(h) {
					sel = append(sel, i)
				}
			}
			if len(sel) == 0 {
				continue
			}
			view := &columnar.Batch{Cols: b.Cols[:len(sp.types)], Len: b.Len, Sel: sel}
			sg.gids = growIDs(sg.gids, b.Len)
			sg.table.Find(view, view.Cols, sg.gids)
			for _, i := range sel {
				if g := sg.gids[i]; g >= 0 {
					found[g] = true
				}
			}
		}
		r.Close()
		k = end
	}
	return nil
}

// writeRun writes the batches fill hands it (sorted by the hash, the last
// column of types) to a new indexed file, noting each batch's hash range.
func (sp *recSpill) writeRun(ctx context.Context, types []columnar.Type, fill func(w func(*columnar.Batch) error) error) (*recRun, error) {
	w, err := sp.mem.SpillDir().Create(types, sp.mem.MaxTemp())
	if err != nil {
		return nil, err
	}
	w.Index()
	run := &recRun{}
	err = fill(func(b *columnar.Batch) error {
		if b.Len == 0 {
			return nil
		}
		h := b.Cols[len(types)-1].Uints
		run.lo, run.hi = append(run.lo, h[0]), append(run.hi, h[b.Len-1])
		return w.Write(ctx, b)
	})
	if err != nil {
		w.Close()
		return nil, err
	}
	if run.f, err = w.Finish(); err != nil {
		return nil, err
	}
	sp.res.Spilled(run.f.Bytes)
	return run, nil
}

// mergeRuns merges partition p's last run into the one before while it is
// at least half that one's size, so that run sizes fall by half or more
// from the first to the last.
func (sp *recSpill) mergeRuns(ctx context.Context, p int, types []columnar.Type) error {
	runs := sp.seen[p]
	for len(runs) >= 2 && 2*runs[len(runs)-1].f.Rows >= runs[len(runs)-2].f.Rows {
		a, b := runs[len(runs)-2], runs[len(runs)-1]
		m, err := openMerge([]*spill.File{a.f, b.f}, []int{len(types) - 1}, []SortKey{{}})
		if err != nil {
			return err
		}
		out := columnar.NewBatch(types, columnar.MaxBatch)
		merged, err := sp.writeRun(ctx, types, func(w func(*columnar.Batch) error) error {
			for {
				if err := m.next(ctx, out, columnar.MaxBatch); err != nil {
					return err
				}
				if out.Len == 0 {
					return nil
				}
				if err := w(out); err != nil {
					return err
				}
			}
		})
		m.close()
		if err != nil {
			return err
		}
		a.f.Remove()
		b.f.Remove()
		runs = append(runs[:len(runs)-2], merged)
		sp.seen[p] = runs
	}
	return nil
}

// drop removes every file of the spill.
func (sp *recSpill) drop() {
	if sp.cand != nil {
		sp.cand.close()
	}
	removeFiles(sp.keys)
	for p := range sp.seen {
		for _, run := range sp.seen[p] {
			run.f.Remove()
		}
		sp.seen[p] = nil
	}
}
