package executor

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

func seq(n, rows int) *source {
	vals := make([]columnar.Value, rows)
	for i := range vals {
		vals[i] = i64(int64(i))
	}
	return ints(n, vals...)
}

// A nested loop of 300 × 500 rows under l < r: every output batch holds at
// most MaxBatch rows, the pair scratch never grows past it, and the pairs
// are those of the formula (l < r for l in 0..299, r in 0..499: sum over l
// of 499 - l = 300*499 - 299*300/2 = 104850). LEFT adds no row (every l
// has some r > l), RIGHT adds r = 0 only.
func TestNestedLoopBounded(t *testing.T) {
	for _, tc := range []struct {
		kind JoinKind
		want int
	}{{JoinInner, 104850}, {JoinLeft, 104850}, {JoinRight, 104851}, {JoinSemi, 300}, {JoinAnti, 0}} {
		runSizes(t, func(t *testing.T, n int) {
			cond := mustCall(t, "<", columnar.TBool, ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TInt64))
			j := &HashJoin{Left: seq(n, 300), Right: seq(n, 500), Kind: tc.kind, Cond: cond}
			rows := drainChecked(t, j, func(b *columnar.Batch) {
				if b.Len > columnar.MaxBatch {
					t.Fatalf("%d rows in one batch", b.Len)
				}
				if cap(j.pairL) > columnar.MaxBatch {
					t.Fatalf("%d pairs held", cap(j.pairL))
				}
			})
			if len(rows) != tc.want {
				t.Fatalf("%s: %d rows, want %d", joinKindNames[tc.kind], len(rows), tc.want)
			}
		})
	}
}

// A cross join whose condition never holds produces no batch for a long
// time; cancelling the context stops it within milliseconds.
func TestNestedLoopCancel(t *testing.T) {
	cond := mustCall(t, "<", columnar.TBool, ColumnExpr(1, columnar.TInt64), ColumnExpr(0, columnar.TInt64))
	// 20000 × 20000 = 4e8 pairs, r < l never for l < 0 … use l = -i.
	left := seq(columnar.MaxBatch, 20000)
	for _, row := range left.rows {
		row[0] = i64(-row[0].I)
	}
	j := &HashJoin{Left: left, Right: seq(columnar.MaxBatch, 20000), Kind: JoinInner, Cond: cond}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := j.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := j.Next(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("stopped %v after the start (cancelled at 50ms)", d)
	}
}
