package executor

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
)

// A probe batch's candidate pairs are not made at once: a key that a
// hundred thousand build rows share (a join on a region) gives every probe
// row as many pairs, and a batch of them a hundred million. The join
// probes probeStep live rows at a time instead, few enough that one call
// to the index makes at most probePairs pairs whatever the keys (the
// index bounds what one probe row can match: MaxMatches), emits them one
// output batch at a time and checks the query's context before probing
// the next rows. A join whose keys match few rows each probes a whole
// batch in one call, as before.

// probePairs bounds the pairs one probe call makes (8 bytes each), unless
// a single probe row matches more.
const probePairs = 16 * columnar.MaxBatch

// probe starts a left batch: its live rows, their keys, the first pairs.
func (j *HashJoin) probe(b *columnar.Batch) error {
	j.lb = b
	n := b.Live()
	j.lrows = j.lrows[:0]
	for k := 0; k < n; k++ {
		j.lrows = append(j.lrows, b.Row(k))
	}
	j.lmatch = resetBools(j.lmatch, n)
	j.lnull = resetBools(j.lnull, n)
	j.pairL, j.pairR = j.pairL[:0], j.pairR[:0]
	if j.blk != nil {
		j.loadMarks() // nestedloop_spill.go
	}
	if len(j.LeftKeys) == 0 {
		return j.probeAll() // nestedloop.go
	}
	if len(j.pkeys) != len(j.LeftKeys) {
		j.pkeys = make([]*columnar.Vector, len(j.LeftKeys))
	}
	for i, e := range j.LeftKeys {
		v, err := e.Eval(b)
		if err != nil {
			return err
		}
		j.pkeys[i] = v
	}
	j.nextProbe = 0
	j.probeStep = max(1, probePairs/max(1, j.index.MaxMatches()))
	j.probeRows()
	return nil
}

// probeRows makes the pairs of the next probeStep live rows of the batch.
func (j *HashJoin) probeRows() {
	from := j.nextProbe
	to := min(from+j.probeStep, len(j.lrows))
	j.nextProbe = to
	j.pos = 0
	j.pairL, j.pairR = j.index.Probe(j.pkeys, j.lrows[from:to], j.lnull[from:to], j.pairL[:0], j.pairR[:0], &j.probeSc)
	if from > 0 {
		// Probe numbered the rows from 0 within the slice.
		for k := range j.pairL {
			j.pairL[k] += int32(from)
		}
	}
}

// morePairs makes the next pairs of the current batch once the previous
// ones are emitted; false when the batch has none left to make.
func (j *HashJoin) morePairs(ctx context.Context) (bool, error) {
	if len(j.LeftKeys) == 0 {
		return j.moreNested(ctx) // nestedloop.go
	}
	if j.nextProbe >= len(j.lrows) {
		return false, nil
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	j.probeRows()
	return true, nil
}
