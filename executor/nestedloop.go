package executor

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
)

// A HashJoin with no keys is a nested-loop join: every build row is a
// candidate for every probe row, and Cond (if any) decides. The build keeps
// the list of all its rows (j.all). A probe batch's pairs (live rows ×
// build rows, up to a thousand times a million) are not made at once:
// probeAll makes the first MaxBatch of them and moreNested the next, so
// the join holds one output batch of pairs at a time and checks the
// query's context between them, however many pairs a batch has and
// however few pass Cond.

// nestedCursor is the next pair to make: probe row k (a position in
// j.lrows) with build row j.all[r].
type nestedCursor struct {
	k, r   int
	active bool
	// A range join's (rangejoin.go): probe row k's candidates are the
	// sorted positions [r, hi), entered (run computed) when started.
	hi      int
	started bool
}

// buildAll records the live rows of b, stored from build row base on, as
// candidates for every probe row.
func (j *HashJoin) buildAll(b *columnar.Batch, base int32) {
	for k := 0; k < b.Live(); k++ {
		j.all = append(j.all, base+int32(k))
	}
}

// probeAll starts the pairs of the current left batch: each live row with
// every build row (a range join: with its candidates), in that order.
func (j *HashJoin) probeAll() error {
	j.nested = nestedCursor{active: len(j.all) > 0}
	if j.rng != nil {
		var err error
		if j.rngLeft, err = j.rng.probe(j.lb, j.rngLeft[:0]); err != nil {
			return err
		}
	}
	j.fillNested()
	return nil
}

// moreNested makes the next chunk of the current batch's pairs; false when
// they are all made (or the join is not a nested loop).
func (j *HashJoin) moreNested(ctx context.Context) (bool, error) {
	if !j.nested.active {
		return false, nil
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	j.pos = 0
	j.fillNested()
	return len(j.pairL) > 0, nil
}

// fillNested makes up to MaxBatch pairs from the cursor on.
func (j *HashJoin) fillNested() {
	c := &j.nested
	if cap(j.pairL) < columnar.MaxBatch {
		j.pairL, j.pairR = make([]int32, 0, columnar.MaxBatch), make([]int32, 0, columnar.MaxBatch)
	}
	j.pairL, j.pairR = j.pairL[:0], j.pairR[:0]
	if j.rng != nil {
		j.fillRange() // rangejoin.go
	}
	settled := j.oneMatchSettles()
	for j.rng == nil && c.k < len(j.lrows) && len(j.pairL) < columnar.MaxBatch {
		if settled && j.lmatch[c.k] {
			c.k, c.r = c.k+1, 0 // matched already: no more pairs to try
			continue
		}
		take := min(len(j.all)-c.r, columnar.MaxBatch-len(j.pairL))
		for _, r := range j.all[c.r : c.r+take] {
			j.pairL = append(j.pairL, int32(c.k))
			j.pairR = append(j.pairR, r)
		}
		if c.r += take; c.r == len(j.all) {
			c.k, c.r = c.k+1, 0
		}
	}
	if c.k >= len(j.lrows) {
		c.active = false
	}
}

// oneMatchSettles reports whether a probe row's outcome is settled by its
// first match (SEMI, ANTI, MARK): its further pairs are not made, neither
// in the rest of the build rows nor in the later blocks of a block nested
// loop (whose earlier blocks' matches loadMarks puts in lmatch), which
// re-probed every row against every block.
func (j *HashJoin) oneMatchSettles() bool {
	switch j.Kind {
	case JoinSemi, JoinAnti, JoinMark:
		return true
	}
	return false
}
