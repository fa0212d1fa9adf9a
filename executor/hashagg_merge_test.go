package executor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// mergePlan builds the two-phase plan PartitionMerge makes of
// SELECT k, s, count(*), sum(v), min(v) FROM rows GROUP BY k, s, with the
// rows dealt round-robin to workers partials, merged in parts partitions.
func mergePlan(rows [][]columnar.Value, n, workers, parts int) *PartitionMerge {
	return mergePlanOf([]columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TInt64}, rows, n, workers, parts, false)
}

// mergePlanOf is the two-phase plan of SELECT keys…, count(*), sum(v),
// min(v) FROM rows GROUP BY keys…, where types are the keys' then v's
// (BIGINT): rows dealt round-robin to workers partials (partial marks
// them as such), merged in parts partitions.
func mergePlanOf(types []columnar.Type, rows [][]columnar.Value, n, workers, parts int, partial bool) *PartitionMerge {
	nk := len(types) - 1
	var keys []int
	var groups []Expr
	for k := 0; k < nk; k++ {
		keys = append(keys, k)
		groups = append(groups, ColumnExpr(k, types[k]))
	}
	m := &PartitionMerge{Keys: keys}
	for w := 0; w < workers; w++ {
		var mine [][]columnar.Value
		for i := w; i < len(rows); i += workers {
			mine = append(mine, rows[i])
		}
		m.Partials = append(m.Partials, &HashAgg{
			Input:   &source{types: types, rows: mine, n: n},
			Groups:  groups,
			Partial: partial,
			Aggs: []AggSpec{
				{Kind: AggCountStar, Type: columnar.TInt64},
				{Kind: AggSum, Arg: ColumnExpr(nk, columnar.TInt64), Type: columnar.TInt64},
				{Kind: AggMin, Arg: ColumnExpr(nk, columnar.TInt64), Type: columnar.TInt64},
			},
		})
	}
	ptypes := m.Partials[0].Types()
	for p := 0; p < parts; p++ {
		src := &PartitionSource{Out: ptypes, Child: m.Partials[0], Desc: "source"}
		m.Sources = append(m.Sources, src)
		m.Finals = append(m.Finals, &HashAgg{
			Input:  src,
			Groups: groups,
			Aggs: []AggSpec{
				{Kind: AggSum, Arg: ColumnExpr(nk, columnar.TInt64), Type: columnar.TInt64},
				{Kind: AggSum, Arg: ColumnExpr(nk+1, columnar.TInt64), Type: columnar.TInt64},
				{Kind: AggMin, Arg: ColumnExpr(nk+2, columnar.TInt64), Type: columnar.TInt64},
			},
		})
	}
	return m
}

// runMerges runs body at every batch size and several worker and
// partition counts.
func runMerges(t *testing.T, body func(t *testing.T, n, workers, parts int)) {
	for _, n := range batchSizes {
		for _, wp := range [][2]int{{1, 1}, {2, 2}, {3, 2}, {2, 5}} {
			t.Run(fmt.Sprintf("batch=%d/workers=%d/parts=%d", n, wp[0], wp[1]), func(t *testing.T) { body(t, n, wp[0], wp[1]) })
		}
	}
}

// TestPartitionMergeGroups: 3000 groups (k = i%1000, s = "s" + i%3) over
// 9000 rows, plus NULL keys; every group's count, sum and min by formula.
// Row i has v = i, so group (a, b) holds the i ≡ a (mod 1000) with
// i%3 = b: i = a + 1000j for j in 0..8 with (a+1000j)%3 = b, i.e. the
// three j with j ≡ (b - a) mod 3 (1000 ≡ 1 mod 3).
func TestPartitionMergeGroups(t *testing.T) {
	var rows [][]columnar.Value
	for i := 0; i < 9000; i++ {
		rows = append(rows, []columnar.Value{i64(int64(i % 1000)), str(fmt.Sprintf("s%d", i%3)), i64(int64(i))})
	}
	rows = append(rows,
		[]columnar.Value{null(columnar.TInt64), str("s0"), i64(-1)},
		[]columnar.Value{null(columnar.TInt64), str("s0"), i64(-2)},
		[]columnar.Value{i64(5), null(columnar.TVarchar), i64(-3)},
		[]columnar.Value{null(columnar.TInt64), null(columnar.TVarchar), i64(-4)},
		[]columnar.Value{i64(5), null(columnar.TVarchar), null(columnar.TInt64)})
	var want []string
	for a := 0; a < 1000; a++ {
		for b := 0; b < 3; b++ {
			sum, lo := 0, -1
			for j := 0; j < 9; j++ {
				if ((j-(b-a))%3+3)%3 == 0 {
					i := a + 1000*j
					sum += i
					if lo < 0 {
						lo = i
					}
				}
			}
			want = append(want, fmt.Sprintf("%d|s%d|3|%d|%d", a, b, sum, lo))
		}
	}
	want = append(want, "NULL|s0|2|-3|-2", "5|NULL|2|-3|-3", "NULL|NULL|1|-4|-4")
	slices.Sort(want)
	exchangeSpilled := false
	defer func() {
		if !exchangeSpilled {
			t.Error("the exchange never spilled under the limit")
		}
	}()
	runMerges(t, func(t *testing.T, n, workers, parts int) {
		m := mergePlan(rows, n, workers, parts)
		got := drain(t, m)
		slices.Sort(got)
		if !equalStrings(got, want) {
			t.Fatalf("got %d rows %v…, want %d rows %v…", len(got), got[:min(3, len(got))], len(want), want[:3])
		}
		// Under a limit of a few batches, the partials, the exchange and
		// the finals spill, and the answer does not change.
		tmp := t.TempDir()
		mm := memory.NewManager(30_000, tmp, 0)
		lm := mergePlan(rows, n, workers, parts)
		lm.SetMemory(mm)
		for i := range lm.Partials {
			lm.Partials[i].(*HashAgg).SetMemory(mm)
		}
		for i := range lm.Finals {
			lm.Finals[i].(*HashAgg).SetMemory(mm)
		}
		got = drain(t, lm)
		slices.Sort(got)
		if !equalStrings(got, want) {
			t.Fatalf("under a 30 KB limit: got %d rows %v…, want %d rows %v…", len(got), got[:min(3, len(got))], len(want), want[:3])
		}
		var spilled int64
		for _, r := range mm.Reservations() {
			spilled += r.SpilledBytes()
			if r.Name() == "parallel aggregate exchange" && r.SpilledBytes() > 0 {
				exchangeSpilled = true
			}
		}
		if spilled == 0 || mm.Used() != 0 {
			t.Fatalf("under a 30 KB limit: spilled %d bytes, %d still reserved after Close", spilled, mm.Used())
		}
		if e, _ := os.ReadDir(tmp); len(e) != 0 {
			t.Fatalf("spill files left: %v", e)
		}
		if parts > 1 {
			// Groups crossing the partitions: every final got some.
			for p, f := range m.Finals {
				if f.(*HashAgg).ngroups == 0 {
					t.Fatalf("partition %d of %d is empty", p, parts)
				}
			}
		}
	})
}

// TestPartitionMergeOneGroupAndEmpty: one group lands in one partition,
// the others stay empty and emit nothing; no input gives no rows.
func TestPartitionMergeOneGroupAndEmpty(t *testing.T) {
	one := [][]columnar.Value{{i64(7), str("x"), i64(1)}, {i64(7), str("x"), i64(2)}, {i64(7), str("x"), null(columnar.TInt64)}}
	runMerges(t, func(t *testing.T, n, workers, parts int) {
		if got := drain(t, mergePlan(one, n, workers, parts)); !equalStrings(got, []string{"7|x|3|3|1"}) {
			t.Fatalf("one group: got %v", got)
		}
		if got := drain(t, mergePlan(nil, n, workers, parts)); len(got) != 0 {
			t.Fatalf("no input: got %v, want no rows", got)
		}
	})
}

// TestPartitionMergeDistinct is the stacked plan of
// SELECT g, count(DISTINCT x) FROM rows GROUP BY g: partials deduplicate
// (g, x), the partitions (on g alone) deduplicate again and count x. NULL
// x is one inner group that count ignores; NULL g is a group.
func TestPartitionMergeDistinct(t *testing.T) {
	rows := [][]columnar.Value{
		{i64(1), i64(10)}, {i64(1), i64(10)}, {i64(1), null(columnar.TInt64)}, {i64(1), i64(20)},
		{i64(2), null(columnar.TInt64)}, {i64(2), null(columnar.TInt64)},
		{null(columnar.TInt64), i64(5)}, {null(columnar.TInt64), i64(5)}, {null(columnar.TInt64), i64(6)},
		{i64(1), i64(20)}, {i64(3), i64(10)},
	}
	types := []columnar.Type{columnar.TInt64, columnar.TInt64}
	keys := []Expr{ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TInt64)}
	runMerges(t, func(t *testing.T, n, workers, parts int) {
		m := &PartitionMerge{Keys: []int{0}}
		for w := 0; w < workers; w++ {
			var mine [][]columnar.Value
			for i := w; i < len(rows); i += workers {
				mine = append(mine, rows[i])
			}
			m.Partials = append(m.Partials, &HashAgg{Input: &source{types: types, rows: mine, n: n}, Groups: keys})
		}
		for p := 0; p < parts; p++ {
			src := &PartitionSource{Out: types, Child: m.Partials[0]}
			m.Sources = append(m.Sources, src)
			m.Finals = append(m.Finals, &HashAgg{
				Input:  &HashAgg{Input: src, Groups: keys},
				Groups: []Expr{ColumnExpr(0, columnar.TInt64)},
				Aggs:   []AggSpec{{Kind: AggCount, Arg: ColumnExpr(1, columnar.TInt64), Type: columnar.TInt64}},
			})
		}
		got := drain(t, m)
		slices.Sort(got)
		if want := []string{"1|2", "2|0", "3|1", "NULL|2"}; !equalStrings(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

// failSource fails its first Next, or panics when panics is set.
type failSource struct {
	source
	panics bool
}

func (f *failSource) Next(ctx context.Context) (*columnar.Batch, error) {
	if f.panics {
		panic("boom")
	}
	return nil, errors.New("bad chunk 3 of t.parquet")
}

// TestPartitionMergeErrors: a partial's error (or panic) fails Open with
// it, and Close still works, twice.
func TestPartitionMergeErrors(t *testing.T) {
	for _, panics := range []bool{false, true} {
		m := mergePlan([][]columnar.Value{{i64(1), str("a"), i64(1)}}, 7, 2, 2)
		m.Partials[1].(*HashAgg).Input = &failSource{source: source{types: []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TInt64}}, panics: panics}
		err := m.Open(context.Background())
		want := "bad chunk 3 of t.parquet"
		if panics {
			want = "internal error in worker: boom"
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("got %v, want %q", err, want)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkPartitionMerge merges two partials of 500K int groups each
// (half of them shared) in 1 (serial) or 2 partitions: the final phase
// alone, in rows/s of partial rows merged.
func BenchmarkPartitionMerge(b *testing.B) {
	for _, parts := range []int{1, 2} {
		b.Run(fmt.Sprintf("parts=%d", parts), func(b *testing.B) { benchMerge(b, parts) })
	}
}

func benchMerge(b *testing.B, parts int) {
	const groups = 500_000
	types := []columnar.Type{columnar.TInt64, columnar.TInt64}
	var batches [2][]*columnar.Batch
	for w := range batches {
		for from := 0; from < groups; from += columnar.MaxBatch {
			n := min(columnar.MaxBatch, groups-from)
			bt := columnar.NewBatch(types, n)
			bt.Len = n
			for i := 0; i < n; i++ {
				bt.Cols[0].Ints[i] = int64(from+i)*7 + int64(w*groups/2)*7
				bt.Cols[1].Ints[i] = 1
			}
			batches[w] = append(batches[w], bt)
		}
	}
	b.ResetTimer()
	for range b.N {
		m := &PartitionMerge{Keys: []int{0}}
		for w := range batches {
			m.Partials = append(m.Partials, &batchList{types: types, batches: batches[w]})
		}
		for p := 0; p < parts; p++ {
			src := &PartitionSource{Out: types}
			m.Sources = append(m.Sources, src)
			m.Finals = append(m.Finals, &HashAgg{Input: src, Groups: []Expr{ColumnExpr(0, columnar.TInt64)},
				Aggs: []AggSpec{{Kind: AggSum, Arg: ColumnExpr(1, columnar.TInt64), Type: columnar.TInt64}}})
		}
		ctx := context.Background()
		if err := m.Open(ctx); err != nil {
			b.Fatal(err)
		}
		rows := 0
		for {
			bt, err := m.Next(ctx)
			if err != nil {
				break
			}
			rows += bt.Live()
		}
		if rows != groups*3/2 {
			b.Fatalf("got %d groups, want %d", rows, groups*3/2)
		}
		m.Close()
	}
	b.ReportMetric(float64(2*groups)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// batchList replays fixed batches.
type batchList struct {
	types   []columnar.Type
	batches []*columnar.Batch
	i       int
}

func (l *batchList) Types() []columnar.Type         { return l.types }
func (l *batchList) Children() []Operator           { return nil }
func (l *batchList) String() string                 { return "batches" }
func (l *batchList) Open(ctx context.Context) error { l.i = 0; return nil }
func (l *batchList) Close() error                   { return nil }
func (l *batchList) Next(ctx context.Context) (*columnar.Batch, error) {
	if l.i >= len(l.batches) {
		return nil, ioEOF
	}
	l.i++
	return l.batches[l.i-1], nil
}
