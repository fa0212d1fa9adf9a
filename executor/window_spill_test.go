package executor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/executortest"
	"github.com/b2sql/b2sql/executor/memory"
)

// windowSpillInput makes n rows (i, g, v) with g = "g<(i*7919)%groups>" and
// v = i%97, and the expected rendering of each row followed by
// row_number() OVER (PARTITION BY g ORDER BY i), sum(v) OVER (PARTITION BY
// g) and lag(i, 1, 0) OVER (PARTITION BY g ORDER BY i), computed here.
func windowSpillInput(n, groups int) ([][]columnar.Value, []string) {
	rows := make([][]columnar.Value, n)
	members := map[string][]int{}
	sums := map[string]int64{}
	for i := range rows {
		g := fmt.Sprintf("g%d", (i*7919)%groups)
		rows[i] = []columnar.Value{i64(int64(i)), str(g), i64(int64(i % 97))}
		members[g] = append(members[g], i) // in increasing i
		sums[g] += int64(i % 97)
	}
	var want []string
	for g, is := range members {
		for k, i := range is {
			lag := 0
			if k > 0 {
				lag = is[k-1]
			}
			want = append(want, fmt.Sprintf("%d|%s|%d|%d|%d|%d", i, g, i%97, k+1, sums[g], lag))
		}
	}
	slices.Sort(want)
	return rows, want
}

func spillingWindow(n int, rows [][]columnar.Value) *Window {
	types := []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TInt64}
	id, g, v := ColumnExpr(0, types[0]), ColumnExpr(1, types[1]), ColumnExpr(2, types[2])
	part, ord := []Expr{g}, []SortKey{{Expr: id}}
	return &Window{Input: &source{types: types, rows: rows, n: n}, Partitioned: true, Funcs: []WindowFunc{
		{Name: "row_number", Partition: part, Order: ord, Type: columnar.TInt64},
		{Name: "sum", Args: []Expr{v}, Partition: part, Type: columnar.TInt64, Frame: WindowFrame{StartUnbounded: true, EndUnbounded: true}},
		{Name: "lag", Args: []Expr{id}, Partition: part, Order: ord, Type: columnar.TInt64, Offset: 1, Default: i64(0)},
	}}
}

// A limit far below the input makes the window spill by partitions,
// several rounds deep; the answers are computed by formula.
func TestWindowSpills(t *testing.T) {
	rows, want := windowSpillInput(20000, 700)
	runSizes(t, func(t *testing.T, n int) {
		tmp := t.TempDir()
		m := memory.NewManager(64<<10, tmp, 0)
		w := spillingWindow(n, rows)
		w.SetMemory(m)
		spillCheck(t, w, m, tmp, want)
		if w.parts.spilled == 0 {
			t.Fatal("one round of spilling: the test wants several")
		}
	})
}

// One PARTITION BY value bigger than the limit cannot be split, and a
// window without PARTITION BY cannot spill by partitions: with a function
// that cannot stream either (a median over the whole partition), an error
// naming both, not an endless spill. Nothing stays reserved or on disk.
func TestWindowSpillLimits(t *testing.T) {
	rows, _ := windowSpillInput(20000, 1)
	tmp := t.TempDir()
	m := memory.NewManager(64<<10, tmp, 0)
	spillingWindow := func(n int, rows [][]columnar.Value) *Window {
		w := spillingWindow(n, rows)
		w.Funcs[1].Name, w.Funcs[1].Type = "median", columnar.TFloat64
		return w
	}
	w := spillingWindow(1024, rows)
	w.SetMemory(m)
	err := drainErr(w)
	var oom *memory.OutOfMemory
	if !errors.As(err, &oom) || oom.Operator != "window (one PARTITION BY value too big for the limit) (median does not stream)" {
		t.Fatalf("got %v", err)
	}
	w = spillingWindow(1024, rows)
	w.Partitioned = false
	w.SetMemory(m)
	if err := drainErr(w); !errors.As(err, &oom) || oom.Operator != "window (median does not stream)" {
		t.Fatalf("got %v", err)
	}
	executortest.Released(t, tmp, m, -1)
	_ = context.Background
}

// Cancelling a spilling window, while it deals its input to partition
// files or while it reads them back, stops it with the context's error
// and leaves no file, no reservation and no goroutine.
func TestWindowCancelMidSpill(t *testing.T) {
	rows, _ := windowSpillInput(20000, 700)
	for _, phase := range []string{"input", "output"} {
		t.Run(phase, func(t *testing.T) {
			before := runtime.NumGoroutine()
			tmp := t.TempDir()
			m := memory.NewManager(64<<10, tmp, 0)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			w := spillingWindow(64, rows)
			spilling := false
			if phase == "input" {
				// Cancelled at the first batch after a spill file appears.
				w.Input = &cancelWhen{Operator: w.Input, cancel: cancel, when: func() bool {
					spilling = spilling || hasFiles(tmp)
					return spilling
				}}
			}
			w.SetMemory(m)
			err := w.Open(ctx)
			for k := 0; err == nil; k++ {
				if k == 5 {
					cancel()
				}
				_, err = w.Next(ctx)
			}
			if phase == "output" {
				_, spilled := w.MemoryUse()
				spilling = spilled > 0
			}
			w.Close()
			executortest.Cancelled(t, err)
			if !spilling {
				t.Fatal("cancelled before any spill: the test checks nothing")
			}
			executortest.Released(t, tmp, m, before)
		})
	}
}

// cancelWhen calls cancel before the first Next at which when holds.
type cancelWhen struct {
	Operator
	cancel func()
	when   func() bool
}

func (c *cancelWhen) Next(ctx context.Context) (*columnar.Batch, error) {
	if c.when() {
		c.cancel()
	}
	return c.Operator.Next(ctx)
}

// hasFiles reports whether some regular file lies under dir.
func hasFiles(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		found = found || err == nil && d.Type().IsRegular()
		return nil
	})
	return found
}
