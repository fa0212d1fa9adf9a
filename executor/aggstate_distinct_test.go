package executor

import (
	"context"
	"errors"
	"fmt"
	"github.com/b2sql/b2sql/executor/executortest"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// distinctRows makes n rows (g BIGINT, s VARCHAR, x BIGINT): 3 groups,
// about n/2 distinct strings and n/4 distinct numbers, some NULLs.
func distinctRows(n int) *source {
	src := &source{types: []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TInt64}}
	for i := range n {
		s := str(fmt.Sprintf("v%06d%s", (i*7919)%(n/2), strings.Repeat("y", i%5)))
		if i%13 == 0 {
			s = null(columnar.TVarchar)
		}
		x := i64(int64((i * 31) % (n / 4)))
		if i%9 == 0 {
			x = null(columnar.TInt64)
		}
		src.rows = append(src.rows, []columnar.Value{i64(int64(i % 3)), s, x})
	}
	return src
}

// wantDistinct computes, per group (or over all rows with grouped false):
// count(*), count(DISTINCT s), sum(DISTINCT x), max(DISTINCT s) and the
// distinct x values sorted, with Go maps.
func wantDistinct(src *source, grouped bool) []string {
	type acc struct {
		n    int64
		strs map[string]bool
		nums map[int64]bool
		max  string
	}
	m := map[int64]*acc{}
	for _, r := range src.rows {
		g := int64(0)
		if grouped {
			g = r[0].I
		}
		a := m[g]
		if a == nil {
			a = &acc{strs: map[string]bool{}, nums: map[int64]bool{}}
			m[g] = a
		}
		a.n++
		if !r[1].Null {
			a.strs[r[1].S] = true
			a.max = max(a.max, r[1].S)
		}
		if !r[2].Null {
			a.nums[r[2].I] = true
		}
	}
	var out []string
	for g, a := range m {
		var sum int64
		var nums []string
		for x := range a.nums {
			sum += x
			nums = append(nums, fmt.Sprint(x))
		}
		slices.Sort(nums)
		row := fmt.Sprintf("%d|%d|%d|%s|%s", a.n, len(a.strs), sum, a.max, strings.Join(nums, ","))
		if grouped {
			row = fmt.Sprintf("%d|%s", g, row)
		}
		out = append(out, row)
	}
	slices.Sort(out)
	return out
}

func distinctAgg(src Operator, grouped bool) *HashAgg {
	s, x := ColumnExpr(1, columnar.TVarchar), ColumnExpr(2, columnar.TInt64)
	h := &HashAgg{Input: src, Aggs: []AggSpec{
		{Kind: AggCountStar, Type: columnar.TInt64},
		{Kind: AggCount, Arg: s, Distinct: true, Type: columnar.TInt64},
		{Kind: AggSum, Arg: x, Distinct: true, Type: columnar.TInt64},
		{Kind: AggMax, Arg: s, Distinct: true, Type: columnar.TVarchar},
		{Kind: AggStringAgg, Arg: newCastExpr(x, columnar.TVarchar, false), Distinct: true, Type: columnar.TVarchar, Param: str(",")},
	}}
	if grouped {
		h.Groups = []Expr{ColumnExpr(0, columnar.TInt64)}
	}
	return h
}

// sortAggList sorts the string_agg column (the last) of each row: spilled
// pairs reach their group out of input order.
func sortAggList(rows []string) []string {
	for k, r := range rows {
		cut := strings.LastIndex(r, "|")
		vals := strings.Split(r[cut+1:], ",")
		slices.Sort(vals)
		rows[k] = r[:cut+1] + strings.Join(vals, ",")
	}
	slices.Sort(rows)
	return rows
}

// A limit far below the distinct values' size makes DISTINCT aggregates,
// grouped or not, spill their pairs, and their partitions spill again;
// the answer is the one computed by Go maps, nothing stays reserved and
// no file is left.
func TestDistinctAggSpills(t *testing.T) {
	const n = 6000
	for _, grouped := range []bool{false, true} {
		want := wantDistinct(distinctRows(n), grouped)
		t.Run(fmt.Sprintf("grouped=%v", grouped), func(t *testing.T) {
			runSizes(t, func(t *testing.T, size int) {
				tmp := t.TempDir()
				m := memory.NewManager(60_000, tmp, 0)
				src := distinctRows(n)
				src.n = size
				h := distinctAgg(src, grouped)
				h.SetMemory(m)
				got := sortAggList(drain(t, h))
				if !slices.Equal(got, want) {
					t.Fatalf("got %.200v\nwant %.200v", got, want)
				}
				_, spilled := h.distinctUse()
				if spilled == 0 || h.pairsSpilled == 0 {
					t.Fatalf("spilled %d bytes, %d by partitions: the limit did not force two rounds", spilled, h.pairsSpilled)
				}
				executortest.Released(t, tmp, m, -1)
			})
		})
	}
}

// Without a temp directory a DISTINCT aggregate over the limit fails,
// naming itself; with no limit it never spills.
func TestDistinctAggOutOfMemory(t *testing.T) {
	src := distinctRows(12000)
	src.n = 100
	h := distinctAgg(src, false)
	m := memory.NewManager(40_000, "", 0)
	h.SetMemory(m)
	err := h.Open(context.Background())
	h.Close()
	var oom *memory.OutOfMemory
	if !errors.As(err, &oom) || oom.Operator != "DISTINCT aggregate" {
		t.Fatalf("got %v", err)
	}
	if m.Used() != 0 {
		t.Fatalf("%d bytes reserved after Close", m.Used())
	}

	src = distinctRows(12000)
	src.n = columnar.MaxBatch
	h = distinctAgg(src, false)
	h.SetMemory(memory.NewManager(0, t.TempDir(), 0))
	if got, want := sortAggList(drain(t, h)), wantDistinct(distinctRows(12000), false); !slices.Equal(got, want) {
		t.Fatalf("unlimited: got %.200v, want %.200v", got, want)
	}
	if _, spilled := h.distinctUse(); spilled != 0 {
		t.Fatalf("unlimited: spilled %d bytes", spilled)
	}
}

// Cancelling while the pairs spill or while their partitions are folded
// in stops the aggregate with the context's error, leaving no file and
// no goroutine.
func TestDistinctAggCancelMidSpill(t *testing.T) {
	for _, after := range []int{60, 150} {
		before := runtime.NumGoroutine()
		tmp := t.TempDir()
		src := distinctRows(12000)
		src.n = 64
		ctx, cancel := context.WithCancel(context.Background())
		h := distinctAgg(&cancelAfter{Operator: src, after: after, cancel: cancel}, true)
		h.SetMemory(memory.NewManager(40_000, tmp, 0))
		err := h.Open(ctx)
		for err == nil {
			_, err = h.Next(ctx)
		}
		spilled := h.dres[1].SpilledBytes() > 0 || h.states[1].distinct.spill != nil
		h.Close()
		cancel()
		checkCancelled(t, err, spilled, tmp, before)
	}
}
