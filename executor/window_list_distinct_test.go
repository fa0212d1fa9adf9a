package executor

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// list(DISTINCT x) OVER a sliding ROWS frame and a growing one, in memory
// and (the sliding one) streamed past a 48 KB limit, give each row the
// frame's values without repeats in frame order, NULL once: the lists
// computed here by walking each frame. Rows: id 0..2999 (in a scrambled
// order), x = id%13-6, NULL when id%17 = 0 (streamRows).
func TestWindowListDistinct(t *testing.T) {
	const n = 3000
	rows := streamRows(n)
	xs := make([]columnar.Value, n) // by id
	for _, r := range rows {
		xs[r[0].I] = r[3]
	}
	distinct := func(lo, hi int) string { // ids [lo, hi] clipped
		var parts []string
		seen := map[string]bool{}
		for k := max(lo, 0); k <= min(hi, n-1); k++ {
			s := xs[k].String()
			if !seen[s] {
				seen[s] = true
				parts = append(parts, s)
			}
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	id, x := ColumnExpr(0, columnar.TInt64), ColumnExpr(3, columnar.TInt64)
	byID := []SortKey{{Expr: id}}
	lt := columnar.ListOf(columnar.TInt64)
	for _, c := range []struct {
		frame  WindowFrame
		lo, hi int // the frame of row id: ids [id+lo, id+hi]
		stream bool
	}{
		{WindowFrame{Rows: true, Start: -3, End: 2}, -3, 2, true},
		{WindowFrame{Rows: true, StartUnbounded: true}, -n, 0, false},
	} {
		t.Run(c.frame.String(), func(t *testing.T) {
			var want []string
			for k := range n {
				want = append(want, fmt.Sprintf("%d|%s|%s", k, xs[k], distinct(k+c.lo, k+c.hi)))
			}
			slices.Sort(want)
			f := WindowFunc{Name: "list", Args: []Expr{x}, Distinct: true, Order: byID, Frame: c.frame, Type: lt}
			project := func(w *Window) Operator {
				return &Project{Input: w, Exprs: []Expr{id, x, ColumnExpr(len(streamTypes), lt)}}
			}
			got := drain(t, project(&Window{Input: &source{types: streamTypes, rows: rows, n: 7}, Funcs: []WindowFunc{f}}))
			slices.Sort(got)
			if !equalStrings(got, want) {
				t.Fatalf("got %v…, want %v…", got[:3], want[:3])
			}
			if streamable(&f) != c.stream {
				t.Fatalf("streamable %v, want %v", streamable(&f), c.stream)
			}
			if !c.stream {
				return
			}
			tmp := t.TempDir()
			m := memory.NewManager(48<<10, tmp, 0)
			w := &Window{Input: &source{types: streamTypes, rows: rows, n: 1024}, Funcs: []WindowFunc{f}}
			w.SetMemory(m)
			got = drain(t, project(w))
			slices.Sort(got)
			if !equalStrings(got, want) {
				t.Fatalf("streamed: got %v…, want %v…", got[:3], want[:3])
			}
			if _, spilled := w.MemoryUse(); spilled == 0 {
				t.Fatal("did not spill")
			}
		})
	}
}
