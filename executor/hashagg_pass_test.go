package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/internal/leakcheck"
)

// TestPartitionMergePassThrough: 150000 rows, k = i % 140000 and s the
// same number as text, v = i: keys 0..9999 have the rows i = k and
// k + 140000, the others one row. The partials see nearly unique keys and
// stop pre-aggregating; every group's count, sum and min is still the
// formula's, with and without a memory limit that makes it all spill.
func TestPartitionMergePassThrough(t *testing.T) {
	const n, m = 150000, 140000
	rows := make([][]columnar.Value, n)
	for i := range rows {
		rows[i] = []columnar.Value{i64(int64(i % m)), str(fmt.Sprint(i % m)), i64(int64(i))}
	}
	want := make([]string, m)
	for k := range m {
		if k < n-m {
			want[k] = fmt.Sprintf("%d|%d|2|%d|%d", k, k, 2*k+m, k)
		} else {
			want[k] = fmt.Sprintf("%d|%d|1|%d|%d", k, k, k, k)
		}
	}
	slices.Sort(want)
	for _, size := range []int{7, 1024} {
		for _, limit := range []int64{0, 2 << 20} {
			t.Run(fmt.Sprintf("batch=%d/limit=%d", size, limit), func(t *testing.T) {
				pm := mergePlan(rows, size, 2, 5)
				tmp := t.TempDir()
				mm := memory.NewManager(limit, tmp, 0)
				if limit == 0 {
					mm = nil
				}
				pm.SetMemory(mm)
				for _, p := range pm.Partials {
					p.(*HashAgg).Partial = true
					p.(*HashAgg).SetMemory(mm)
				}
				for _, f := range pm.Finals {
					f.(*HashAgg).SetMemory(mm)
				}
				got := drain(t, pm)
				slices.Sort(got)
				if !equalStrings(got, want) {
					t.Fatalf("got %d rows %v…, want %d rows %v…", len(got), got[:min(3, len(got))], len(want), want[:3])
				}
				for w, p := range pm.Partials {
					if limit == 0 && p.(*HashAgg).passed == 0 {
						t.Errorf("partial %d never passed rows on", w)
					}
				}
				checkSpilledClean(t, mm, tmp)
			})
		}
	}
}

// TestPartialKeepsAggregating: keys that repeat (1000 of them over 150000
// rows) keep the partial's table: nothing is passed on.
func TestPartialKeepsAggregating(t *testing.T) {
	rows := make([][]columnar.Value, 150000)
	for i := range rows {
		rows[i] = []columnar.Value{i64(int64(i % 1000)), str("x"), i64(1)}
	}
	pm := mergePlan(rows, 1024, 2, 3)
	for _, p := range pm.Partials {
		p.(*HashAgg).Partial = true
	}
	if got := drain(t, pm); len(got) != 1000 || got[0] != "0|x|150|150|1" && !slices.Contains(got, "0|x|150|150|1") {
		t.Fatalf("got %d groups, want 1000 with 0|x|150|150|1", len(got))
	}
	for w, p := range pm.Partials {
		if p.(*HashAgg).passed != 0 {
			t.Errorf("partial %d passed %d rows of repeating keys", w, p.(*HashAgg).passed)
		}
	}
}

// failOpen fails its Open.
type failOpen struct{ source }

func (f *failOpen) Open(ctx context.Context) error { return errors.New("bad partition file") }

// TestPartitionMergeFinalFails: a final that fails to open (here the
// fourth of six) ends the merge with its error, whichever final Next waits
// for, and Close leaves no goroutine of the finals' openers behind.
func TestPartitionMergeFinalFails(t *testing.T) {
	before := runtime.NumGoroutine()
	rows := [][]columnar.Value{{i64(1), str("a"), i64(1)}, {i64(2), str("b"), i64(2)}}
	m := mergePlan(rows, 7, 2, 6)
	m.Finals[3] = &failOpen{source{types: m.Finals[3].Types()}}
	ctx := context.Background()
	err := m.Open(ctx)
	for err == nil {
		_, err = m.Next(ctx)
	}
	if err == io.EOF || !strings.Contains(err.Error(), "bad partition file") {
		t.Fatalf("got %v, want the final's error", err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if n := leakcheck.Goroutines(before); n > before {
		t.Fatalf("%d goroutines, %d before", n, before)
	}
}

// TestPassedStatesFresh: a partial over unique keys passes most rows on,
// each batch's states taking over the slices of the batch before
// (recycled); every row's count, sum, min and max of an integer with
// NULLs, a double with NULLs and a string are still its own values, at
// batch sizes that leave batches short and selected.
func TestPassedStatesFresh(t *testing.T) {
	const n = 150_000
	types := []columnar.Type{columnar.TInt64, columnar.TInt64, columnar.TFloat64, columnar.TVarchar}
	rows := make([][]columnar.Value, n)
	want := make([]string, n)
	for i := range rows {
		x, f := i64(int64(3*i-n)), f64(float64(i)+0.5)
		if i%5 == 0 {
			x = null(columnar.TInt64)
		}
		if i%7 == 0 {
			f = null(columnar.TFloat64)
		}
		s := str(fmt.Sprintf("s%06d", n-i))
		rows[i] = []columnar.Value{i64(int64(i)), x, f, s}
		cnt, sumF := "1", f.String()
		if x.Null {
			cnt = "0"
		}
		want[i] = strings.Join([]string{fmt.Sprint(i), "1", cnt, x.String(), x.String(), f.String(), sumF, s.String()}, "|")
	}
	slices.Sort(want)
	for _, size := range []int{7, 1024} {
		t.Run(fmt.Sprintf("batch=%d", size), func(t *testing.T) {
			h := &HashAgg{
				Input:   &source{types: types, rows: rows, n: size},
				Groups:  []Expr{ColumnExpr(0, columnar.TInt64)},
				Partial: true,
				Aggs: []AggSpec{
					{Kind: AggCountStar, Type: columnar.TInt64},
					{Kind: AggCount, Arg: ColumnExpr(1, columnar.TInt64), Type: columnar.TInt64},
					{Kind: AggSum, Arg: ColumnExpr(1, columnar.TInt64), Type: columnar.TInt64},
					{Kind: AggMin, Arg: ColumnExpr(1, columnar.TInt64), Type: columnar.TInt64},
					{Kind: AggMax, Arg: ColumnExpr(2, columnar.TFloat64), Type: columnar.TFloat64},
					{Kind: AggSum, Arg: ColumnExpr(2, columnar.TFloat64), Type: columnar.TFloat64},
					{Kind: AggMin, Arg: ColumnExpr(3, columnar.TVarchar), Type: columnar.TVarchar},
				},
			}
			got := drain(t, h)
			slices.Sort(got)
			if h.passed < n/2 {
				t.Fatalf("passed %d rows of %d unique keys", h.passed, n)
			}
			if !equalStrings(got, want) {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("row %d: got %s, want %s", i, got[i], want[i])
					}
				}
				t.Fatalf("got %d rows, want %d", len(got), len(want))
			}
		})
	}
}

// checkSpilledClean checks, after a plan under memory manager mm (nil: no
// limit) closed, that it spilled something when limited, holds no
// reservation, and left no file in the spill directory tmp.
func checkSpilledClean(t *testing.T, mm *memory.Manager, tmp string) {
	t.Helper()
	if mm != nil {
		var spilled int64
		for _, r := range mm.Reservations() {
			spilled += r.SpilledBytes()
		}
		if spilled == 0 || mm.Used() != 0 {
			t.Fatalf("spilled %d bytes, %d still reserved after Close", spilled, mm.Used())
		}
	}
	if e, _ := os.ReadDir(tmp); len(e) != 0 {
		t.Fatalf("spill files left: %v", e)
	}
}

// partialSums runs a partial count(*), sum(v) GROUP BY k over rows (k, v)
// in batches of size, and folds its output rows per key (passed rows and
// the table's groups alike, as the final does).
func partialSums(t *testing.T, rows [][]columnar.Value, size int) (*HashAgg, map[int64][2]int64) {
	t.Helper()
	types := []columnar.Type{columnar.TInt64, columnar.TInt64}
	h := &HashAgg{
		Input:   &source{types: types, rows: rows, n: size},
		Groups:  []Expr{ColumnExpr(0, columnar.TInt64)},
		Partial: true,
		Aggs: []AggSpec{
			{Kind: AggCountStar, Type: columnar.TInt64},
			{Kind: AggSum, Arg: ColumnExpr(1, columnar.TInt64), Type: columnar.TInt64},
		},
	}
	folded := map[int64][2]int64{}
	for _, line := range drain(t, h) {
		var k, c, s int64
		if _, err := fmt.Sscanf(line, "%d|%d|%d", &k, &c, &s); err != nil {
			t.Fatalf("row %q: %v", line, err)
		}
		f := folded[k]
		folded[k] = [2]int64{f[0] + c, f[1] + s}
	}
	return h, folded
}

// TestPartialPassesEarly: 40000 distinct keys, fewer rows than the late
// check waits for: the partial passes from row passEarlyRows on (keeping
// its first groups) and every key still has its one row's count and sum.
func TestPartialPassesEarly(t *testing.T) {
	const n = 40000
	rows := make([][]columnar.Value, n)
	for i := range rows {
		rows[i] = []columnar.Value{i64(int64(n - i)), i64(int64(3 * i))}
	}
	for _, size := range []int{7, 1024} {
		h, folded := partialSums(t, rows, size)
		if len(folded) != n {
			t.Fatalf("batch %d: %d keys, want %d", size, len(folded), n)
		}
		for i := range n {
			if got := folded[int64(n-i)]; got != [2]int64{1, int64(3 * i)} {
				t.Fatalf("batch %d: key %d: count, sum %v, want 1, %d", size, n-i, got, 3*i)
			}
		}
		if h.passed < n-passEarlyRows-size || h.revoked {
			t.Fatalf("batch %d: passed %d rows (revoked %v), want at least %d", size, h.passed, h.revoked, n-passEarlyRows-size)
		}
	}
}

// TestPartialEarlyPassRevoked: k = i % 20000 over 200000 rows: the first
// 20000 rows are distinct, so the partial passes early, then the keys
// come back, a probe finds them in the kept table and the partial goes
// back to aggregating. Each key's 10 rows i = k + 20000j still count 10
// and sum 10k + 20000 * 45 over what it passed and what it kept.
func TestPartialEarlyPassRevoked(t *testing.T) {
	const n, m = 200000, 20000
	rows := make([][]columnar.Value, n)
	for i := range rows {
		rows[i] = []columnar.Value{i64(int64(i % m)), i64(int64(i))}
	}
	for _, size := range []int{7, 1024} {
		h, folded := partialSums(t, rows, size)
		if len(folded) != m {
			t.Fatalf("batch %d: %d keys, want %d", size, len(folded), m)
		}
		for k := range int64(m) {
			if got, want := folded[k], [2]int64{10, 10*k + m*45}; got != want {
				t.Fatalf("batch %d: key %d: count, sum %v, want %v", size, k, got, want)
			}
		}
		if !h.revoked || h.passed == 0 || h.passed >= m {
			t.Fatalf("batch %d: passed %d rows, revoked %v: want some of the first %d passed, then revoked", size, h.passed, h.revoked, m)
		}
	}
}
