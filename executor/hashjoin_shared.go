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
type JoinBuild struct {
	Right Operator

	once sync.Once
	err  error
	// The built state, copied into each HashJoin (read-only from then on).
	done *HashJoin
}

// open builds the shared side (first caller) or waits for it, then gives j
// the built table.
func (s *JoinBuild) open(ctx context.Context, j *HashJoin) error {
	s.once.Do(func() {
		s.err = j.buildSide(ctx, s.Right)
		s.done = j
	})
	if s.err != nil {
		return s.err
	}
	if s.done != j {
		j.build, j.table, j.ints, j.multi, j.all, j.buildNull = s.done.build, s.done.table, s.done.ints, s.done.multi, s.done.all, s.done.buildNull
	}
	return nil
}
