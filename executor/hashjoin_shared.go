package executor

import (
	"context"
	"sync"
)

// JoinBuild is one build side shared by the copies of a HashJoin that a
// parallel plan runs, one per worker, each probing with its own share of
// the probe side's units. The first copy to open reads Right and builds the
// hash table; the others wait for it and then probe the same table, which
// nobody writes any more. The build is made once per query execution.
//
// Right and Full joins (and Right Semi and Right Anti) emit, after the
// probe, the build rows no probe row matched: each copy marks the rows its
// own probe rows match, and when its probe side ends it merges its marks
// into the shared ones (endProbe); the last of the Probes copies to end
// emits the build rows from the merged marks, once.
type JoinBuild struct {
	Right Operator
	// Probes is how many join copies probe this build (the planner counts
	// them as it makes them).
	Probes int

	once sync.Once
	err  error
	// The built state, copied into each HashJoin (read-only from then on).
	done    *HashJoin
	spilled *graceBuild // the build's partitions, when it spilled (hashjoin_grace.go)
	blocks  *blockBuild // a nested loop's build in a file, read in blocks (nestedloop_spill.go)

	mu    sync.Mutex
	ended int    // copies whose probe side ended
	marks []bool // per build row: matched by some ended copy's probe
}

// open builds the shared side (first caller) or waits for it, then gives j
// the built table.
func (s *JoinBuild) open(ctx context.Context, j *HashJoin) error {
	s.once.Do(func() {
		s.err = j.buildSide(ctx, s.Right)
		s.done = j
		if j.grace != nil {
			s.spilled = j.grace.b
		}
	})
	if s.err != nil {
		return s.err
	}
	if s.blocks != nil {
		return j.joinBlocks(s.blocks)
	}
	if s.done != j {
		j.build, j.index, j.all, j.buildNull, j.rng = s.done.build, s.done.index, s.done.all, s.done.buildNull, s.done.rng
		if s.spilled != nil {
			// A spilled build: this copy deals its own probe rows.
			j.grace = &graceJoin{b: s.spilled}
		}
	}
	return nil
}

// endProbe merges the build-row marks of a copy whose probe side ended and
// returns the merged marks to the last copy to end (the one that emits the
// build tail), nil to the others. matched belongs to the build from then on.
func (s *JoinBuild) endProbe(matched []bool) []bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.marks == nil {
		s.marks = matched
	} else {
		for i, m := range matched {
			if m {
				s.marks[i] = true
			}
		}
	}
	s.ended++
	if s.ended < max(s.Probes, 1) {
		return nil
	}
	return s.marks
}
