package executor

import (
	"context"
	"errors"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// Block nested loop. A nested-loop (or range) join has no keys to
// partition by, so when the memory manager refuses its build more room it
// keeps the rows it holds as one block, reads its whole probe side against
// them, and then takes the next block of build rows and replays the probe
// side from a spool (which spills itself) against it, block after block.
// Each output pair is made once, by the block holding its build row. An
// inner join and the joins that keep or mark build rows (Right, Right
// semi, Right anti) finish each block's build rows after its pass; the
// joins that keep or mark probe rows (Left, Full, Semi, Anti, Mark) would
// have to carry each probe row's match across the blocks, and fail with
// an out-of-memory error as before.

// blockLoop is a block nested loop's state.
type blockLoop struct {
	right Operator            // the build input, read a block at a time
	done  bool                // right is exhausted
	pass  int                 // the probe pass: 0 reads Left (spooling it)
	probe *spool              // the probe rows
	res   *memory.Reservation // what the spool holds
	rd    *spoolReader        // replaying the probe rows
}

// blockable reports whether the join may build in blocks.
func (j *HashJoin) blockable() bool {
	if len(j.RightKeys) > 0 || j.Shared != nil || len(j.ProbeFilters) > 0 || j.mem.TempDir() == "" {
		return false
	}
	switch j.Kind {
	case JoinInner, JoinRight, JoinRightSemi, JoinRightAnti:
		return true
	}
	return false
}

// startBlocks makes a refused nested-loop build the first block: the rest
// of right is read after the probe side has passed over it.
func (j *HashJoin) startBlocks(right Operator) {
	bl := &blockLoop{right: right, res: j.mem.Reserve("nested loop join probe", memory.Spillable)}
	bl.probe = newSpool(j.Left.Types(), j.mem, bl.res)
	j.blk = bl
}

// buildMore adds build rows from right to the block until the manager
// refuses more (the refused batch, held past the limit, ends the block:
// every block makes progress) or right ends.
func (j *HashJoin) buildMore(ctx context.Context) error {
	bl := j.blk
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := bl.right.Next(ctx)
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
		if err != nil {
			break
		}
	}
	return j.sortRanges(ctx, bl.right.Types())
}

// nextBlock starts the next block's pass once the probe side has passed
// over the current one; false when there is none.
func (j *HashJoin) nextBlock(ctx context.Context) (bool, error) {
	bl := j.blk
	if bl == nil || bl.done {
		return false, nil
	}
	if bl.pass == 0 {
		if err := bl.probe.finish(); err != nil {
			return false, err
		}
	}
	bl.pass++
	bl.rd.close()
	rd, err := bl.probe.reader()
	if err != nil {
		return false, err
	}
	bl.rd = rd
	j.build = newChunkedStore(bl.right.Types(), 0)
	j.all, j.rng = j.all[:0], nil
	j.res.Free()
	if err := j.buildMore(ctx); err != nil {
		return false, err
	}
	if j.matched != nil {
		j.matched = make([]bool, j.build.n)
	}
	return true, nil
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

// closeBlocks removes the spooled probe rows.
func (j *HashJoin) closeBlocks() {
	if bl := j.blk; bl != nil {
		bl.rd.close()
		bl.probe.drop()
		bl.res.Free()
		j.blk = nil
	}
}
