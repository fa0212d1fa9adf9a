package executor

import (
	"context"
	"errors"
	"fmt"
	"github.com/b2sql/b2sql/executor/executortest"
	"runtime"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// setRows makes n rows (k, "s<k>" or NULL) with k = (i*mul) % mod: a
// multiset with repeats, whose rendering per row is returned beside it.
func setRows(n, mul, mod int) ([][]columnar.Value, []string) {
	rows := make([][]columnar.Value, n)
	keys := make([]string, n)
	for i := range rows {
		k := (i * mul) % mod
		s, r := str(fmt.Sprintf("s%d", k%97)), fmt.Sprintf("%d|s%d", k, k%97)
		if k%11 == 0 {
			s, r = null(columnar.TVarchar), fmt.Sprintf("%d|NULL", k)
		}
		rows[i] = []columnar.Value{i64(int64(k)), s}
		keys[i] = r
	}
	return rows, keys
}

var setTypes = []columnar.Type{columnar.TInt64, columnar.TVarchar}

// wantSetOp computes a set operation over the rendered rows with Go maps.
func wantSetOp(kind SetOpKind, all bool, left, right []string) []string {
	cl, cr := map[string]int{}, map[string]int{}
	for _, k := range left {
		cl[k]++
	}
	for _, k := range right {
		cr[k]++
	}
	var out []string
	add := func(k string, n int) {
		for range n {
			out = append(out, k)
		}
	}
	switch kind {
	case SetUnion:
		for k := range cr {
			cl[k] += 0
		}
		for k := range cl {
			add(k, 1)
		}
	case SetIntersect:
		for k, n := range cl {
			if m := min(n, cr[k]); m > 0 {
				add(k, map[bool]int{true: m, false: 1}[all])
			}
		}
	case SetExcept:
		for k, n := range cl {
			if all {
				add(k, max(n-cr[k], 0))
			} else if cr[k] == 0 {
				add(k, 1)
			}
		}
	}
	slices.Sort(out)
	return out
}

// spillCheck drains op under m and checks the answer, that it spilled,
// and that nothing is held or left on disk after Close.
func spillCheck(t *testing.T, op Operator, m *memory.Manager, tmp string, want []string) {
	t.Helper()
	got := drain(t, op)
	slices.Sort(got)
	if !equalStrings(got, want) {
		t.Fatalf("got %d rows, want %d (first %v, want %v)", len(got), len(want), got[:min(3, len(got))], want[:min(3, len(want))])
	}
	if _, spilled := op.(MemoryReporter).MemoryUse(); spilled == 0 {
		t.Fatal("did not spill")
	}
	executortest.Released(t, tmp, m, -1)
}

// A limit far below the distinct keys makes DISTINCT and the set
// operations spill, several rounds deep; the answers are Go's maps'.
func TestSetOpSpills(t *testing.T) {
	lrows, lkeys := setRows(6000, 7919, 2500)
	rrows, rkeys := setRows(4500, 104729, 1500)
	t.Run("Distinct", func(t *testing.T) {
		rows, keys := setRows(30000, 7919, 20000)
		want := wantSetOp(SetUnion, false, keys, nil)
		runSizes(t, func(t *testing.T, n int) {
			tmp := t.TempDir()
			m := memory.NewManager(16<<10, tmp, 0)
			d := &Distinct{Input: &source{types: setTypes, rows: rows, n: n}}
			d.SetMemory(m)
			spillCheck(t, d, m, tmp, want)
			if d.parts.spilled == 0 {
				t.Fatal("one round of spilling: the test wants several")
			}
		})
	})
	for _, kind := range []SetOpKind{SetUnion, SetIntersect, SetExcept} {
		for _, all := range []bool{false, true} {
			if kind == SetUnion && all {
				continue // UNION ALL holds nothing
			}
			want := wantSetOp(kind, all, lkeys, rkeys)
			op := &SetOp{Kind: kind, All: all}
			t.Run(op.String(), func(t *testing.T) {
				runSizes(t, func(t *testing.T, n int) {
					tmp := t.TempDir()
					m := memory.NewManager(16<<10, tmp, 0)
					s := &SetOp{Left: &source{types: setTypes, rows: lrows, n: n}, Right: &source{types: setTypes, rows: rrows, n: n}, Kind: kind, All: all}
					s.SetMemory(m)
					spillCheck(t, s, m, tmp, want)
				})
			})
		}
	}
}

// EXCEPT spills on the left side too: the right input fits, the left
// keys it outputs (and remembers) do not.
func TestExceptSpillsLeft(t *testing.T) {
	lrows, lkeys := setRows(20000, 7919, 20000)
	rrows, rkeys := setRows(50, 3, 1000)
	want := wantSetOp(SetExcept, false, lkeys, rkeys)
	tmp := t.TempDir()
	m := memory.NewManager(64<<10, tmp, 0)
	s := &SetOp{Left: &source{types: setTypes, rows: lrows, n: 1024}, Right: &source{types: setTypes, rows: rrows, n: 1024}, Kind: SetExcept}
	s.SetMemory(m)
	spillCheck(t, s, m, tmp, want)
}

// Without a temp directory DISTINCT over the limit fails naming itself;
// cancelling mid-spill leaves no file and no goroutine.
func TestDistinctOutOfMemoryAndCancel(t *testing.T) {
	rows, _ := setRows(20000, 7919, 20000)
	m := memory.NewManager(16<<10, "", 0)
	d := &Distinct{Input: &source{types: setTypes, rows: rows, n: 64}}
	d.SetMemory(m)
	err := drainErr(d)
	var oom *memory.OutOfMemory
	if !errors.As(err, &oom) || oom.Operator != "distinct" {
		t.Fatalf("got %v, want out of memory in distinct", err)
	}

	before := runtime.NumGoroutine()
	tmp := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m = memory.NewManager(16<<10, tmp, 0)
	d = &Distinct{Input: &cancelAfter{Operator: &source{types: setTypes, rows: rows, n: 64}, after: 200, cancel: cancel}}
	d.SetMemory(m)
	err = d.Open(ctx)
	for err == nil {
		_, err = d.Next(ctx)
	}
	d.Close()
	executortest.Cancelled(t, err)
	executortest.Released(t, tmp, m, before)
}
