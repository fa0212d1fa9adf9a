package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// fanOutSides is a build of 20000 rows whose key takes 4 values (5000 rows
// each) and a probe of 600 rows whose key takes 5 (120 rows each; key 4
// matches nothing), integer or string keys: 480 × 5000 = 2,400,000 pairs.
func fanOutSides(n int, typ columnar.Type) (probe, build *source) {
	key := func(i int) columnar.Value {
		if typ == columnar.TVarchar {
			return str(fmt.Sprint("region-", i))
		}
		return i64(int64(i))
	}
	probe = &source{types: []columnar.Type{typ, columnar.TInt64}, n: n}
	for i := range 600 {
		probe.rows = append(probe.rows, []columnar.Value{key(i % 5), i64(int64(i))})
	}
	build = &source{types: []columnar.Type{typ, columnar.TInt64}, n: n}
	for i := range 20000 {
		build.rows = append(build.rows, []columnar.Value{key(i % 4), i64(int64(i))})
	}
	return probe, build
}

// countChecked drains op, checking every batch, and counts its rows.
func countChecked(t *testing.T, op Operator, check func(*columnar.Batch)) int {
	t.Helper()
	ctx := context.Background()
	if err := op.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	n := 0
	for {
		b, err := op.Next(ctx)
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		check(b)
		n += b.Live()
	}
}

// A hash join with a large fan-out (every probe row matches 5000 build
// rows) never emits more than MaxBatch rows at once nor holds more than
// about probePairs pairs, at every batch size, with integer (a range
// table) and string keys (a Map), and keeps each kind's answer: counted
// by formula from the sides above.
func TestHashJoinFanOutBounded(t *testing.T) {
	for _, typ := range []columnar.Type{columnar.TInt64, columnar.TVarchar} {
		for _, tc := range []struct {
			kind JoinKind
			want int
		}{
			{JoinInner, 2400000}, {JoinLeft, 2400120}, {JoinRight, 2400000}, {JoinFull, 2400120},
			{JoinSemi, 480}, {JoinAnti, 120}, {JoinMark, 600}, {JoinRightSemi, 20000}, {JoinRightAnti, 0},
		} {
			t.Run(fmt.Sprintf("%s/%s", typ, joinKindNames[tc.kind]), func(t *testing.T) {
				runSizes(t, func(t *testing.T, n int) {
					probe, build := fanOutSides(n, typ)
					j := &HashJoin{Left: probe, Right: build, Kind: tc.kind,
						LeftKeys: []Expr{ColumnExpr(0, typ)}, RightKeys: []Expr{ColumnExpr(0, typ)}}
					got := countChecked(t, j, func(b *columnar.Batch) {
						if b.Len > columnar.MaxBatch {
							t.Fatalf("%d rows in one batch", b.Len)
						}
						if cap(j.pairL) > 2*probePairs {
							t.Fatalf("%d pairs held", cap(j.pairL))
						}
					})
					if got != tc.want {
						t.Fatalf("%d rows, want %d", got, tc.want)
					}
				})
			})
		}
	}
}

// A fan-out join whose condition never holds produces no batch for a long
// time (600 probe rows × 5000 matches, over and over); cancelling the
// context stops it within milliseconds, not at the end of a probe batch.
func TestHashJoinFanOutCancel(t *testing.T) {
	probe, build := fanOutSides(columnar.MaxBatch, columnar.TInt64)
	for range 6 { // 3600 probe rows: 14.4M pairs
		probe.rows = append(probe.rows, probe.rows[:600]...)
	}
	never := mustCall(t, "<", columnar.TBool, ColumnExpr(3, columnar.TInt64), ColumnExpr(1, columnar.TInt64))
	for _, row := range probe.rows {
		row[1] = i64(-1) // build id < -1: never
	}
	j := &HashJoin{Left: probe, Right: build, Kind: JoinInner, Cond: never,
		LeftKeys: []Expr{ColumnExpr(0, columnar.TInt64)}, RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := j.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	cancelled := make(chan time.Time, 1)
	time.AfterFunc(20*time.Millisecond, func() { cancelled <- time.Now(); cancel() })
	_, err := j.Next(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the cancellation", err)
	}
	if d := time.Since(<-cancelled); d > 100*time.Millisecond {
		t.Fatalf("stopped %v after the cancel", d)
	}
}
