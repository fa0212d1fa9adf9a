package executor

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// Block nested loop. A nested-loop (or range) join has no keys to
// partition by, so when the memory manager refuses its build more room it
// keeps the rows it holds as one block, reads its whole probe side against
// them, and then takes the next block of build rows and replays the probe
// side from a spool (which spills itself) against it, block after block.
// Each output pair is made once, by the block holding its build row.
//
// What a join keeps besides its pairs is carried across the blocks:
//   - build rows (Right, Full, Right semi/anti): a block's marks are
//     complete after its pass, so its unmatched (or matched) rows come out
//     then;
//   - probe rows (Left, Full, Single, Semi, Anti, Mark): each pass ORs a
//     probe row's matches into one bit per spooled row (in spool order,
//     the same in every pass), and a last pass over the spool, with no
//     block, emits the rows as the join kind says.
//
// The copies of a parallel join (JoinBuild) share one build side: the
// first copy to open writes it, held rows and rest, to a spool file
// (blockBuild), and every copy spools its own probe rows, then reads the
// build file a block at a time (at most its share of the limit, so that
// the copies do not starve each other) and replays its probe rows
// against each block. No copy waits for another. Build rows' marks are
// ORed into one shared bit per build row, and the last copy to end reads
// the build file once more and emits the rows they select.

// blockLoop is a block nested loop's state, one per join copy.
type blockLoop struct {
	next   func(context.Context) (*columnar.Batch, error) // the build rows, a block at a time
	done   bool                                           // next is exhausted
	pass   int                                            // the probe pass: 0 reads Left (spooling it)
	probe  *spool                                         // the probe rows
	rd     *spoolReader                                   // replaying the probe rows
	share  int64                                          // the most a block holds (0: until refused)
	loaded int                                            // build rows read before the block
	base   int                                            // … the block's first build row

	// Probe-side marks (probeTails): per spooled probe row, whether an
	// earlier block matched it.
	seen     []uint64
	seenRes  int64 // bytes of seen reserved
	row, cur int   // the next probe row's position in the spool; the current batch's
	tail     bool  // the last pass: no block, the probe rows' tails come out

	shared *blockBuild // a parallel join's shared build file
	srd    *spoolReader
	final  bool // shared: the last copy emitting the build rows' tails
}

// blockBuild is the build side of a parallel block nested loop, on disk and
// shared by the join's copies.
type blockBuild struct {
	rows  *spool // every build row, in a spill file
	n     int    // build rows
	res   *memory.Reservation
	users int // copies holding the file: the last to release removes it

	mu    sync.Mutex
	marks []uint64 // per build row: matched by some copy (buildMarks)
	ended int      // copies whose passes are done
}

// blockable reports whether the join may build in blocks.
func (j *HashJoin) blockable() bool {
	return len(j.RightKeys) == 0 && len(j.ProbeFilters) == 0 && j.mem.TempDir() != ""
}

// probeTails reports whether the kind emits probe rows by their marks.
func (j *HashJoin) probeTails() bool {
	switch j.Kind {
	case JoinLeft, JoinFull, JoinSingle, JoinSemi, JoinAnti, JoinMark:
		return true
	}
	return false
}

// buildMarks reports whether the kind emits build rows by their marks.
func (j *HashJoin) buildMarks() bool {
	switch j.Kind {
	case JoinRight, JoinFull, JoinRightSemi, JoinRightAnti:
		return true
	}
	return false
}

// newBlockLoop starts a block loop whose probe rows spool under the join's
// spool reservation.
func (j *HashJoin) newBlockLoop() *blockLoop {
	if j.spoolRes == nil {
		j.spoolRes = j.mem.Reserve("nested loop join probe spool", memory.Spillable)
	}
	return &blockLoop{probe: newSpool(j.Left.Types(), j.mem, j.spoolRes)}
}

// startBlocks makes a refused nested-loop build the first block: the rest
// of right is read after the probe side has passed over it. A parallel
// join writes its build to a shared file instead (spoolBuild).
func (j *HashJoin) startBlocks(ctx context.Context, right Operator) error {
	if j.Shared != nil {
		return j.spoolBuild(ctx, right)
	}
	bl := j.newBlockLoop()
	bl.next = right.Next
	j.blk = bl
	return nil
}

// spoolBuild writes the build rows held and the rest of right to the shared
// build file and frees the rows held; every copy then joins in blocks
// (joinBlocks).
func (j *HashJoin) spoolBuild(ctx context.Context, right Operator) error {
	types := right.Types()
	bb := &blockBuild{res: j.mem.Reserve("nested loop join build marks", false), users: max(j.Shared.Probes, 1)}
	bb.rows = newSpool(types, j.mem, j.res)
	err := func() error {
		if err := bb.rows.spillNow(ctx); err != nil {
			return err
		}
		if err := j.build.eachBatch(types, func(b *columnar.Batch) error { return bb.rows.add(ctx, b) }); err != nil {
			return err
		}
		j.build, j.all = newChunkedStore(types, 0), j.all[:0]
		j.res.Free()
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			b, err := right.Next(ctx)
			if err == io.EOF {
				return bb.rows.finish()
			}
			if err != nil {
				return err
			}
			if err := bb.rows.add(ctx, b); err != nil {
				return err
			}
		}
	}()
	if err != nil {
		bb.rows.drop()
		return err
	}
	bb.n = bb.rows.n
	if j.buildMarks() {
		bb.marks = make([]uint64, (bb.n+63)/64)
		bb.res.Force(int64(8 * len(bb.marks)))
	}
	j.Shared.blocks = bb
	return nil
}

// joinBlocks makes a copy of a parallel join whose build was written to a
// file read it in blocks, each at most the copy's share of the limit; its
// first pass only spools its probe rows.
func (j *HashJoin) joinBlocks(bb *blockBuild) error {
	bl := j.newBlockLoop()
	bl.shared = bb
	if l := j.mem.Limit(); l > 0 {
		bl.share = max(l/int64(max(j.Shared.Probes, 1)), 1)
	}
	rd, err := bb.rows.reader()
	if err != nil {
		return err
	}
	bl.srd, bl.next = rd, rd.next
	j.blk = bl
	j.build, j.all, j.rng, j.index = newChunkedStore(bb.rows.types, 0), nil, nil, nil
	return nil
}

// buildMore adds build rows to the block until the manager refuses more
// (the refused batch, held past the limit, ends the block: every block
// makes progress), the block holds its share, or the build rows end.
func (j *HashJoin) buildMore(ctx context.Context) error {
	bl := j.blk
	j.build = newChunkedStore(j.rightOp().Types(), 0)
	j.all, j.rng = j.all[:0], nil
	j.res.Free()
	bl.base = bl.loaded
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := bl.next(ctx)
		if err == io.EOF {
			bl.done = true
			break
		}
		if err != nil {
			return err
		}
		need := storeBytes(b, b.Cols)
		err = j.res.Grow(need)
		var oom *memory.OutOfMemory
		if err != nil && !errors.Is(err, memory.ErrSpill) && !errors.As(err, &oom) {
			return err
		}
		if err != nil {
			j.res.Force(need) // the batch ends the block
		}
		base := int32(j.build.n)
		j.build.appendRows(b, b.Cols)
		j.buildAll(b, base)
		bl.loaded += b.Live()
		if err != nil || bl.share > 0 && j.res.Size() >= bl.share {
			break
		}
	}
	if bl.final {
		return nil // only the marked rows come out: no pairs to find
	}
	return j.sortRanges(ctx, j.rightOp().Types())
}

// nextBlock starts what follows a pass once the probe side has passed
// over the current block: the next block's pass, the probe tails' pass,
// or (the last copy of a parallel join) the build tails' blocks. It
// returns the phase to go on with (2: a probe pass, 3: a build tail), or
// false when the join is done.
func (j *HashJoin) nextBlock(ctx context.Context) (int, bool, error) {
	bl := j.blk
	if bl == nil {
		return 0, false, nil
	}
	if bl.final {
		return j.finalBlock(ctx)
	}
	if bl.pass == 0 {
		if err := bl.probe.finish(); err != nil {
			return 0, false, err
		}
		if bl.shared != nil && bl.probe.held > bl.share/4 {
			// A copy's probe rows held in memory would leave its blocks,
			// and the other copies', too little room.
			if err := bl.probe.spillNow(ctx); err != nil {
				return 0, false, err
			}
			if err := bl.probe.finish(); err != nil {
				return 0, false, err
			}
		}
	}
	if !bl.done {
		if err := j.buildMore(ctx); err != nil {
			return 0, false, err
		}
		if j.build.n > 0 {
			j.matched = nil
			if j.buildMarks() {
				j.matched = make([]bool, j.build.n)
			}
			return 2, true, j.replay()
		}
	}
	// Every block has had its pass.
	j.build, j.all, j.rng, j.matched = newChunkedStore(j.rightOp().Types(), 0), j.all[:0], nil, nil
	j.res.Free()
	if j.probeTails() && !bl.tail {
		bl.tail = true
		return 2, true, j.replay()
	}
	if bl.shared != nil && j.buildMarks() && bl.shared.end() {
		bl.final, bl.done, bl.loaded = true, false, 0
		bl.srd.close()
		rd, err := bl.shared.rows.reader()
		if err != nil {
			return 0, false, err
		}
		bl.srd, bl.next = rd, rd.next
		return j.finalBlock(ctx)
	}
	return 0, false, nil
}

// replay starts a pass over the spooled probe rows.
func (j *HashJoin) replay() error {
	bl := j.blk
	bl.pass++
	bl.row = 0
	bl.rd.close()
	rd, err := bl.probe.reader()
	bl.rd = rd
	return err
}

// finalBlock loads the next block of a parallel join's build file with its
// marks, for its build tail; false when the file is read.
func (j *HashJoin) finalBlock(ctx context.Context) (int, bool, error) {
	bl := j.blk
	if bl.done {
		return 0, false, nil
	}
	if err := j.buildMore(ctx); err != nil || j.build.n == 0 {
		return 0, false, err
	}
	j.matched = make([]bool, j.build.n)
	for k := range j.matched {
		i := bl.base + k
		j.matched[k] = bl.shared.marks[i/64]&(1<<(i%64)) != 0
	}
	j.tailPos = 0
	return 3, true, nil
}

// endPass ends a copy's pass over a block: a parallel join's build marks
// go to the shared marks (the tails come out at the end), a serial join's
// stay for its build tail.
func (j *HashJoin) endPass() {
	bl := j.blk
	if bl.shared == nil || j.matched == nil {
		return
	}
	bb := bl.shared
	bb.mu.Lock()
	for k, m := range j.matched {
		if m {
			i := bl.base + k
			bb.marks[i/64] |= 1 << (i % 64)
		}
	}
	bb.mu.Unlock()
	j.matched = nil
}

// end records that a copy's passes are done; true for the last copy.
func (bb *blockBuild) end() bool {
	bb.mu.Lock()
	defer bb.mu.Unlock()
	bb.ended++
	return bb.ended >= bb.users
}

// release drops one copy's use of the build file, removing it after the
// last.
func (bb *blockBuild) release() {
	bb.mu.Lock()
	bb.users--
	last := bb.users <= 0
	bb.mu.Unlock()
	if last {
		bb.rows.drop()
		bb.res.Free()
	}
}

// loadMarks starts a probe batch of a block pass: its live rows' marks
// from the earlier blocks' passes.
func (j *HashJoin) loadMarks() {
	bl := j.blk
	bl.cur = bl.row
	bl.row += len(j.lrows)
	if !j.probeTails() {
		return
	}
	for k := range j.lmatch {
		i := bl.cur + k
		if i/64 < len(bl.seen) && bl.seen[i/64]&(1<<(i%64)) != 0 {
			j.lmatch[k] = true
		}
	}
}

// saveMarks keeps a probe batch's marks for the later passes; true when
// the batch's tail is to wait for the last pass.
func (j *HashJoin) saveMarks() bool {
	bl := j.blk
	if !j.probeTails() || bl.tail {
		return false
	}
	end := bl.cur + len(j.lmatch)
	if n := (end + 63) / 64; n > len(bl.seen) {
		bl.seen = append(bl.seen, make([]uint64, n-len(bl.seen))...)
		if grow := int64(8*cap(bl.seen)) - bl.seenRes; grow > 0 {
			j.spoolRes.Force(grow) // one bit per probe row
			bl.seenRes += grow
		}
	}
	for k, m := range j.lmatch {
		if m {
			i := bl.cur + k
			bl.seen[i/64] |= 1 << (i % 64)
		}
	}
	return true
}

// leftBlock returns the next probe batch of a block nested loop: from
// Left (spooled) in the first pass, replayed from the spool after.
func (j *HashJoin) leftBlock(ctx context.Context) (*columnar.Batch, error) {
	bl := j.blk
	if bl.pass > 0 {
		return bl.rd.next(ctx)
	}
	b, err := j.Left.Next(ctx)
	if err != nil {
		return nil, err
	}
	return b, bl.probe.add(ctx, b)
}

// closeBlocks removes the spooled probe rows and drops this copy's use of
// a shared build file.
func (j *HashJoin) closeBlocks() {
	if bl := j.blk; bl != nil {
		bl.rd.close()
		bl.srd.close()
		bl.probe.drop()
		j.spoolRes.Shrink(bl.seenRes)
		if bl.shared != nil {
			bl.shared.release()
		}
		j.blk = nil
	}
}
