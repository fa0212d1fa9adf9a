package executor

import "github.com/b2sql/b2sql/columnar"

// A HashJoin with no keys is a nested-loop join: every build row is a
// candidate for every probe row, and Cond (if any) decides. The build keeps
// the list of all its rows (j.all); a probe batch pairs each of its live
// rows with each of them.

// buildAll records the live rows of b, stored from build row base on, as
// candidates for every probe row.
func (j *HashJoin) buildAll(b *columnar.Batch, base int32) {
	for k := 0; k < b.Live(); k++ {
		j.all = append(j.all, base+int32(k))
	}
}

// probeAll makes the candidate pairs of the current left batch: each live
// row with every build row.
func (j *HashJoin) probeAll() {
	for k := range j.lrows {
		for _, r := range j.all {
			j.pairL = append(j.pairL, int32(k))
			j.pairR = append(j.pairR, r)
		}
	}
}
