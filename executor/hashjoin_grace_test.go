package executor

import (
	"context"
	"errors"
	"fmt"
	"github.com/b2sql/b2sql/executor/executortest"
	"os"
	"runtime"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// graceSides: a build of 6000 rows (k BIGINT: 1500 keys, 4 rows each, a
// NULL every 97th row; s VARCHAR; v BIGINT) and a probe of 3000 rows (id,
// k: keys up to 2000, a quarter unmatched, a NULL every 101st; v).
func graceSides(n int) (probe, build *source) {
	build = &source{types: []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TInt64}, n: n}
	for i := range 6000 {
		k := i64(int64(i % 1500))
		if i%97 == 0 {
			k = null(columnar.TInt64)
		}
		build.rows = append(build.rows, []columnar.Value{k, str(fmt.Sprintf("build-row-%05d", i)), i64(int64(i % 13))})
	}
	probe = &source{types: []columnar.Type{columnar.TInt64, columnar.TInt64, columnar.TInt64}, n: n}
	for i := range 3000 {
		k := i64(int64((i * 7) % 2000))
		if i%101 == 0 {
			k = null(columnar.TInt64)
		}
		probe.rows = append(probe.rows, []columnar.Value{i64(int64(i)), k, i64(int64(i % 11))})
	}
	return probe, build
}

// graceJoinOp is the join of the sides above on probe.k = build.k (and
// probe.v < build.v when cond), one copy or copies sharing one build,
// reserving from mem (nil: none).
func graceJoinOp(t *testing.T, kind JoinKind, n, copies int, cond bool, mem *memory.Manager) Operator {
	probe, build := graceSides(n)
	join := func(left Operator) *HashJoin {
		var c Expr // one per copy: an expression keeps scratch
		if cond {
			c = mustCall(t, "<", columnar.TBool, ColumnExpr(2, columnar.TInt64), ColumnExpr(5, columnar.TInt64))
		}
		j := &HashJoin{Left: left, Right: build, Kind: kind, Cond: c, NullAware: kind == JoinMark,
			LeftKeys: []Expr{ColumnExpr(1, columnar.TInt64)}, RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
		j.SetMemory(mem)
		return j
	}
	if copies == 1 {
		return join(probe)
	}
	shared := &JoinBuild{Right: build, Probes: copies}
	ins := make([]Operator, copies)
	for w := range ins {
		part := &source{types: probe.types, n: probe.n}
		for i, r := range probe.rows {
			if i%copies == w {
				part.rows = append(part.rows, r)
			}
		}
		j := join(part)
		j.Right, j.Shared = nil, shared
		ins[w] = j
	}
	return &Gather{Inputs: ins}
}

// A join whose build does not fit spills both sides to partitions, and a
// partition still too big spills again (the 6000-row build under a 16 KB
// limit: about 24 KB per partition of 16, so two rounds; two copies get
// 64 KB): every kind, with
// and without a residual condition, one copy or two sharing the build, at
// every batch size, gives the rows of the same join in memory, and leaves
// no file and no reservation.
func TestHashJoinGraceSpills(t *testing.T) {
	kinds := []JoinKind{JoinInner, JoinLeft, JoinRight, JoinFull, JoinSemi, JoinAnti, JoinMark, JoinRightSemi, JoinRightAnti}
	for _, kind := range kinds {
		for _, cond := range []bool{false, true} {
			for _, copies := range []int{1, 2} {
				t.Run(fmt.Sprintf("%s/cond=%v/copies=%d", joinKindNames[kind], cond, copies), func(t *testing.T) {
					want := drain(t, graceJoinOp(t, kind, columnar.MaxBatch, 1, cond, nil))
					slices.Sort(want)
					runSizes(t, func(t *testing.T, n int) {
						tmp := t.TempDir()
						// Two copies share the limit: each may be refused while
						// the other holds it, so they get a larger one.
						mem := memory.NewManager(int64(copies*copies)*16<<10, tmp, 0)
						op := graceJoinOp(t, kind, n, copies, cond, mem)
						got := drain(t, op)
						slices.Sort(got)
						if !equalStrings(got, want) {
							k := firstDiff(got, want)
							t.Fatalf("spilled: %d rows, in memory: %d (first diff at %d: %v vs %v)", len(got), len(want), k, got[k:min(k+3, len(got))], want[k:min(k+3, len(want))])
						}
						if copies == 1 {
							j := op.(*HashJoin)
							_, spilled := j.MemoryUse()
							if j.res.SpilledBytes() == 0 || j.subSpill == 0 {
								t.Fatalf("spilled %d bytes, partitions %d: want two rounds", spilled, j.subSpill)
							}
						}
						executortest.Released(t, tmp, mem, -1)
					})
				})
			}
		}
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// Without a temp directory a build that does not fit fails, naming the
// join's build and the limit.
func TestHashJoinGraceNoTempDir(t *testing.T) {
	mem := memory.NewManager(16<<10, "", 0)
	op := graceJoinOp(t, JoinInner, columnar.MaxBatch, 1, false, mem)
	err := op.Open(context.Background())
	op.Close()
	var oom *memory.OutOfMemory
	if !errors.As(err, &oom) || oom.Operator != "hash join build" {
		t.Fatalf("got %v, want out of memory in the hash join build", err)
	}
}

// A build whose rows all share one key cannot be split: after
// graceMaxLevel rounds the query fails, saying so, and leaves no file.
func TestHashJoinGraceOneKey(t *testing.T) {
	probe, build := graceSides(columnar.MaxBatch)
	for _, r := range build.rows {
		r[0] = i64(7)
	}
	tmp := t.TempDir()
	j := &HashJoin{Left: probe, Right: build, Kind: JoinInner,
		LeftKeys: []Expr{ColumnExpr(1, columnar.TInt64)}, RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
	j.SetMemory(memory.NewManager(16<<10, tmp, 0))
	ctx := context.Background()
	err := j.Open(ctx)
	for err == nil {
		_, err = j.Next(ctx)
	}
	j.Close()
	var oom *memory.OutOfMemory
	if !errors.As(err, &oom) || oom.Operator == "hash join build" {
		t.Fatalf("got %v, want out of memory saying a partition stays too big", err)
	}
	if e, _ := os.ReadDir(tmp); len(e) != 0 {
		t.Fatalf("left in the temp directory: %v", e)
	}
}

// Cancelling a spilled join in the middle (partitions written, some being
// joined) stops it with the context's error; Close leaves no file, no
// reservation and no goroutine.
func TestHashJoinGraceCancel(t *testing.T) {
	for _, copies := range []int{1, 2} {
		for _, after := range []int{0, 1, 5} {
			t.Run(fmt.Sprintf("copies=%d/after=%d", copies, after), func(t *testing.T) {
				before := runtime.NumGoroutine()
				tmp := t.TempDir()
				mem := memory.NewManager(16<<10, tmp, 0)
				op := graceJoinOp(t, JoinFull, 7, copies, false, mem)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				err := op.Open(ctx)
				for k := 0; err == nil; k++ {
					if k == after {
						cancel()
					}
					_, err = op.Next(ctx)
				}
				op.Close()
				executortest.Cancelled(t, err)
				executortest.Released(t, tmp, mem, before)
			})
		}
	}
}
