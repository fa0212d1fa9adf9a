package executor

import (
	"errors"
	"fmt"
	"github.com/b2sql/b2sql/executor/executortest"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// streamRows makes n rows (id, title, g, x, p) in a shuffled order:
// title = t<(id*7919)%n>, g = id/10 (peer groups of ten), x = id%13-6 or
// NULL when id%17 == 0, p = id%3.
func streamRows(n int) [][]columnar.Value {
	rows := make([][]columnar.Value, n)
	for k := range rows {
		i := (k * 104729) % n
		x := i64(int64(i%13 - 6))
		if i%17 == 0 {
			x = null(columnar.TInt64)
		}
		rows[k] = []columnar.Value{i64(int64(i)), str(fmt.Sprintf("t%06d", (i*7919)%n)), i64(int64(i / 10)), x, i64(int64(i % 3))}
	}
	return rows
}

var streamTypes = []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TInt64, columnar.TInt64, columnar.TInt64}

// streamFuncs are window functions without a common PARTITION BY, each of
// a shape the streamed window computes, grouped by order as the planner
// marks them (SharesOrder).
func streamFuncs() []WindowFunc {
	id, title, g, x, p := ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TVarchar), ColumnExpr(2, columnar.TInt64),
		ColumnExpr(3, columnar.TInt64), ColumnExpr(4, columnar.TInt64)
	byID, byTitle, byG := []SortKey{{Expr: id}}, []SortKey{{Expr: title}}, []SortKey{{Expr: g}}
	rows := func(s, e int64) WindowFrame { return WindowFrame{Rows: true, Start: s, End: e} }
	running := func(e int64) WindowFrame { return WindowFrame{Rows: true, StartUnbounded: true, End: e} }
	peers := WindowFrame{StartUnbounded: true}
	whole := WindowFrame{StartUnbounded: true, EndUnbounded: true}
	i, f := columnar.TInt64, columnar.TFloat64
	return []WindowFunc{
		{Name: "sum", Args: []Expr{x}, Order: byID, Frame: rows(-5, 0), Type: i},
		{Name: "row_number", Order: byTitle, Type: i},
		{Name: "lag", Args: []Expr{id}, Order: byID, Type: i, Offset: 3, Default: i64(-1), SharesOrder: 1},
		{Name: "lead", Args: []Expr{id}, Order: byID, Type: i, Offset: 2, Default: i64(-1), SharesOrder: 1},
		{Name: "count", Args: []Expr{x}, Order: byG, Frame: peers, Type: i},
		{Name: "rank", Order: byG, Type: i, SharesOrder: 5},
		{Name: "dense_rank", Order: byG, Type: i, SharesOrder: 5},
		{Name: "percent_rank", Order: byG, Type: f, SharesOrder: 5},
		{Name: "cume_dist", Order: byG, Type: f, SharesOrder: 5},
		{Name: "ntile", Order: byID, Type: i, Offset: 7, SharesOrder: 1},
		{Name: "sum", Args: []Expr{x}, Frame: whole, Type: i},
		{Name: "min", Args: []Expr{x}, Order: byID, Frame: rows(-2, 3), Type: i, SharesOrder: 1},
		{Name: "max", Args: []Expr{x}, Order: byID, Frame: running(-2), Type: i, SharesOrder: 1},
		{Name: "avg", Args: []Expr{x}, Order: byID, Frame: running(4), Type: f, SharesOrder: 1},
		{Name: "row_number", Partition: []Expr{p}, Order: byID, Type: i},
		{Name: "sum", Args: []Expr{id}, Partition: []Expr{p}, Frame: whole, Type: i},
		{Name: "lead", Args: []Expr{id}, Partition: []Expr{p}, Order: byID, Type: i, Offset: 1, Default: i64(-1), SharesOrder: 15},
	}
}

// streamWant computes streamFuncs' answers for streamRows(n) row by row,
// rendered as drain renders them, sorted.
func streamWant(n int) []string {
	x := func(j int) (int64, bool) { return int64(j%13 - 6), j%17 != 0 }
	I := func(v int64) string { return i64(v).String() }
	F := func(v float64) string { return f64(v).String() }
	N := null(columnar.TInt64).String()
	agg := func(lo, hi int, fn func(acc, v int64) int64) string { // over rows [lo, hi)
		var acc int64
		has := false
		for j := max(lo, 0); j < min(hi, n); j++ {
			if v, ok := x(j); ok {
				if !has {
					acc, has = v, true
				} else {
					acc = fn(acc, v)
				}
			}
		}
		if !has {
			return N
		}
		return I(acc)
	}
	sum := func(a, b int64) int64 { return a + b }
	lesser := func(a, b int64) int64 { return min(a, b) }
	greater := func(a, b int64) int64 { return max(a, b) }
	var total int64
	partSum := [3]int64{}
	for j := range n {
		if v, ok := x(j); ok {
			total += v
		}
		partSum[j%3] += int64(j)
	}
	// ntile(7): the first n%7 buckets hold n/7+1 rows.
	bucket := make([]int64, n)
	for j, b := 0, int64(1); j < n; b++ {
		size := n / 7
		if int(b) <= n%7 {
			size++
		}
		for k := 0; k < size; k++ {
			bucket[j+k] = b
		}
		j += size
	}
	var want []string
	for i := range n {
		xv := N
		if v, ok := x(i); ok {
			xv = I(v)
		}
		g := i / 10
		groupEnd := min(n, (g+1)*10)
		cnt := 0
		for j := range groupEnd {
			if _, ok := x(j); ok {
				cnt++
			}
		}
		lag, lead, plead := int64(-1), int64(-1), int64(-1)
		if i >= 3 {
			lag = int64(i - 3)
		}
		if i+2 < n {
			lead = int64(i + 2)
		}
		if i+3 < n {
			plead = int64(i + 3)
		}
		avg := N
		var s, c int64
		for j := 0; j <= min(i+4, n-1); j++ {
			if v, ok := x(j); ok {
				s, c = s+v, c+1
			}
		}
		if c > 0 {
			avg = F(float64(s) / float64(c))
		}
		cols := []string{I(int64(i)), fmt.Sprintf("t%06d", (i*7919)%n), I(int64(g)), xv, I(int64(i % 3)),
			agg(i-5, i+1, sum), I(int64((i*7919)%n + 1)), I(lag), I(lead), I(int64(cnt)),
			I(int64(g*10 + 1)), I(int64(g + 1)), F(float64(g*10) / float64(n-1)), F(float64(groupEnd) / float64(n)),
			I(bucket[i]), I(total), agg(i-2, i+4, lesser), agg(0, i-1, greater), avg,
			I(int64(i/3 + 1)), I(partSum[i%3]), I(plead)}
		r := cols[0]
		for _, c := range cols[1:] {
			r += "|" + c
		}
		want = append(want, r)
	}
	slices.Sort(want)
	return want
}

// Under a limit far below its input, a window without a common PARTITION
// BY sorts (spilling) and streams: every function's answer, computed here
// row by row, at every batch size, with nothing left reserved or on disk.
func TestWindowStreams(t *testing.T) {
	const n = 6000
	rows, want := streamRows(n), streamWant(n)
	runSizes(t, func(t *testing.T, bs int) {
		tmp := t.TempDir()
		m := memory.NewManager(64<<10, tmp, 0)
		w := &Window{Input: &source{types: streamTypes, rows: rows, n: bs}, Funcs: streamFuncs()}
		w.SetMemory(m)
		spillCheck(t, w, m, tmp, want)
		if w.stream != nil {
			t.Fatal("the pipeline outlived Close")
		}
	})
	// Without a limit the same functions give the same answers in memory.
	w := &Window{Input: &source{types: streamTypes, rows: rows, n: 1024}, Funcs: streamFuncs()}
	got := drain(t, w)
	slices.Sort(got)
	if !equalStrings(got, want) {
		t.Fatalf("in memory: got %v, want %v", got[:3], want[:3])
	}
}

// One PARTITION BY value bigger than the limit streams once the partition
// files cannot split it further.
func TestWindowStreamsOnePartition(t *testing.T) {
	rows, want := windowSpillInput(20000, 1)
	runSizes(t, func(t *testing.T, n int) {
		tmp := t.TempDir()
		m := memory.NewManager(64<<10, tmp, 0)
		w := spillingWindow(n, rows)
		w.SetMemory(m)
		spillCheck(t, w, m, tmp, want)
	})
}

// Frames of every streamed shape give the in-memory answers, across
// partition boundaries (PARTITION BY p, three partitions).
func TestWindowStreamFrames(t *testing.T) {
	const n = 3000
	rows := streamRows(n)
	id, title, x, p := ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TVarchar), ColumnExpr(3, columnar.TInt64), ColumnExpr(4, columnar.TInt64)
	byX := []SortKey{{Expr: x, Desc: true}, {Expr: id}}
	frames := []WindowFrame{
		{Rows: true, Start: -3, End: 2}, {Rows: true, Start: 1, End: 4}, {Rows: true, Start: -6, End: -2},
		{Rows: true, Start: 2, End: 1}, {Rows: true, StartUnbounded: true, End: 3},
		{Rows: true, StartUnbounded: true, End: -1}, {StartUnbounded: true}, {Groups: true, StartUnbounded: true},
		{StartUnbounded: true, EndUnbounded: true},
	}
	names := []string{"sum", "count_star", "avg", "min", "max", "first_value", "last_value", "nth_value", "arg_max"}
	var funcs []WindowFunc
	for _, fr := range frames {
		for _, name := range names {
			f := WindowFunc{Name: name, Args: []Expr{x}, Partition: []Expr{p}, Order: byX, Frame: fr, Type: columnar.TInt64, Offset: 2}
			switch name {
			case "count_star":
				f.Args = nil
			case "avg":
				f.Type = columnar.TFloat64
			case "arg_max":
				f.Args, f.Type = []Expr{title, id}, columnar.TVarchar
			}
			funcs = append(funcs, f)
		}
		if fr.Rows && !fr.StartUnbounded {
			for _, name := range []string{"median", "string_agg"} {
				f := WindowFunc{Name: name, Args: []Expr{x}, Partition: []Expr{p}, Order: byX, Frame: fr, Type: columnar.TFloat64, Param: str(",")}
				if name == "string_agg" {
					f.Args, f.Type = []Expr{title}, columnar.TVarchar
				}
				funcs = append(funcs, f)
			}
		}
	}
	for _, name := range []string{"lag", "lead"} {
		for _, off := range []int64{0, 1, 5} {
			funcs = append(funcs, WindowFunc{Name: name, Args: []Expr{title}, Partition: []Expr{p}, Order: byX, Type: columnar.TVarchar, Offset: off, Default: str("none")})
		}
	}
	for i := range funcs {
		if !streamable(&funcs[i]) {
			t.Fatalf("%s %s does not stream", funcs[i].Name, funcs[i].Frame)
		}
		if i > 0 {
			funcs[i].SharesOrder = 1
		}
	}
	mem := &Window{Input: &source{types: streamTypes, rows: rows, n: 1024}, Funcs: funcs}
	want := drain(t, mem)
	slices.Sort(want)
	for _, bs := range []int{7, 1024} {
		tmp := t.TempDir()
		m := memory.NewManager(48<<10, tmp, 0)
		w := &Window{Input: &source{types: streamTypes, rows: rows, n: bs}, Funcs: funcs}
		w.SetMemory(m)
		spillCheck(t, w, m, tmp, want)
	}
}

// A function that cannot stream (a DISTINCT aggregate over a growing
// frame) fails with an error naming it; nothing stays reserved or on disk.
func TestWindowStreamRefusal(t *testing.T) {
	rows := streamRows(20000)
	tmp := t.TempDir()
	m := memory.NewManager(64<<10, tmp, 0)
	x := ColumnExpr(3, columnar.TInt64)
	w := &Window{Input: &source{types: streamTypes, rows: rows, n: 1024}, Funcs: []WindowFunc{
		{Name: "row_number", Type: columnar.TInt64},
		{Name: "count", Args: []Expr{x}, Distinct: true, Frame: WindowFrame{StartUnbounded: true}, Type: columnar.TInt64},
	}}
	w.SetMemory(m)
	err := drainErr(w)
	var oom *memory.OutOfMemory
	if !errors.As(err, &oom) || oom.Operator != "window (count(DISTINCT) does not stream)" {
		t.Fatalf("got %v", err)
	}
	executortest.Released(t, tmp, m, -1)
}

// The statistics with running states (skewness, kurtosis, product, sem,
// fsum, favg, covar_*, corr, regr_*) and those keeping the frame's values
// (entropy, mad) stream over every frame shape they can, giving the
// in-memory answers (regression: #17, they failed past the limit).
func TestWindowStreamStatistics(t *testing.T) {
	const n = 3000
	types := []columnar.Type{columnar.TInt64, columnar.TInt64, columnar.TFloat64, columnar.TFloat64}
	var rows [][]columnar.Value
	for k := range n {
		i := (k * 104729) % n
		x := f64(float64(i%13-6) / 4)
		if i%17 == 0 {
			x = null(columnar.TFloat64)
		}
		rows = append(rows, []columnar.Value{i64(int64(i)), i64(int64(i % 3)), x, f64(1 + float64(i%5)/8)})
	}
	id, p, x, y := ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TInt64), ColumnExpr(2, columnar.TFloat64), ColumnExpr(3, columnar.TFloat64)
	byID := []SortKey{{Expr: id}}
	sliding := []WindowFrame{{Rows: true, Start: -3, End: 2}, {Rows: true, Start: 1, End: 4}}
	growing := []WindowFrame{{Rows: true, StartUnbounded: true, End: 3}, {Rows: true, StartUnbounded: true, End: -1},
		{StartUnbounded: true}, {StartUnbounded: true, EndUnbounded: true}}
	var funcs []WindowFunc
	add := func(name string, frames []WindowFrame, args ...Expr) {
		for _, fr := range frames {
			funcs = append(funcs, WindowFunc{Name: name, Args: args, Partition: []Expr{p}, Order: byID, Frame: fr, Type: columnar.TFloat64})
		}
	}
	for _, name := range []string{"skewness", "kurtosis", "kurtosis_pop", "product", "sem", "fsum", "favg"} {
		add(name, append(sliding, growing...), x)
	}
	for _, name := range []string{"covar_pop", "covar_samp", "corr", "regr_slope", "regr_intercept", "regr_r2"} {
		add(name, append(sliding, growing...), y, x)
	}
	for _, name := range []string{"entropy", "mad"} {
		add(name, sliding, x)
	}
	for i := range funcs {
		if !streamable(&funcs[i]) {
			t.Fatalf("%s %s does not stream", funcs[i].Name, funcs[i].Frame)
		}
		if i > 0 {
			funcs[i].SharesOrder = 1
		}
	}
	mem := &Window{Input: &source{types: types, rows: rows, n: 1024}, Funcs: funcs}
	want := drain(t, mem)
	slices.Sort(want)
	for _, bs := range []int{7, 1024} {
		tmp := t.TempDir()
		m := memory.NewManager(48<<10, tmp, 0)
		w := &Window{Input: &source{types: types, rows: rows, n: bs}, Funcs: funcs}
		w.SetMemory(m)
		spillCheck(t, w, m, tmp, want)
	}
}
