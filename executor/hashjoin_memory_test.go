package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// A join's build side is reserved from the query's memory manager: within
// the limit the join answers and frees everything on Close; over it, with
// spilling off (no temp directory), the query fails with an error naming
// the join's build and the limit (hashjoin_grace_test.go: with one, it
// spills).
func TestHashJoinReservesBuild(t *testing.T) {
	build := &source{types: []columnar.Type{columnar.TInt64, columnar.TVarchar}, n: 7}
	for i := range 2000 {
		build.rows = append(build.rows, []columnar.Value{i64(int64(i)), str(fmt.Sprintf("name-%04d", i))})
	}
	probe := &source{types: []columnar.Type{columnar.TInt64}, n: 7, rows: [][]columnar.Value{{i64(5)}, {i64(1999)}, {i64(4000)}}}
	join := func() *HashJoin {
		return &HashJoin{Left: probe, Right: build, Kind: JoinInner,
			LeftKeys: []Expr{ColumnExpr(0, columnar.TInt64)}, RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
	}
	m := memory.NewManager(10<<20, t.TempDir(), 0)
	j := join()
	j.SetMemory(m)
	got := drain(t, j)
	if want := []string{"5|5|name-0005", "1999|1999|name-1999"}; !equalStrings(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if j.res.Peak() < 2000*16 {
		t.Fatalf("the build of 2000 rows reserved at most %d bytes", j.res.Peak())
	}
	if m.Used() != 0 {
		t.Fatalf("%d bytes reserved after Close", m.Used())
	}

	small := memory.NewManager(20_000, "", 0)
	j = join()
	j.SetMemory(small)
	err := j.Open(context.Background())
	j.Close()
	var oom *memory.OutOfMemory
	if !errors.As(err, &oom) || oom.Operator != "hash join build" || !strings.Contains(err.Error(), "memory_limit is 19.5 KiB") {
		t.Fatalf("got %v, want an out-of-memory error naming the hash join build", err)
	}
	if small.Used() != 0 {
		t.Fatalf("%d bytes reserved after a failed Open and Close", small.Used())
	}
}
