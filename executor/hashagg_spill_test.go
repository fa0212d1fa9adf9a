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

// aggRows makes n rows (k BIGINT, s VARCHAR, x BIGINT) with about n/3
// string keys, NULL keys and NULL values among them.
func aggRows(n int) *source {
	src := &source{types: []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TInt64}}
	for i := range n {
		s := str(fmt.Sprintf("key-%05d-%s", (i*7919)%(n/3), strings.Repeat("x", i%7)))
		if i%17 == 0 {
			s = null(columnar.TVarchar)
		}
		x := i64(int64(i % 101))
		if i%11 == 0 {
			x = null(columnar.TInt64)
		}
		src.rows = append(src.rows, []columnar.Value{i64(int64(i % 5)), s, x})
	}
	return src
}

// wantAgg computes GROUP BY k, s: count(*), count(x), sum(x), min(s),
// max(x), string_agg(x) in input order, count(DISTINCT x), with Go maps.
func wantAgg(src *source) []string {
	type acc struct {
		n, cnt, sum  int64
		max          int64
		hasMax       bool
		min, agg     string
		seen         map[int64]bool
		key, hasNull string
	}
	m := map[string]*acc{}
	var order []string
	for _, r := range src.rows {
		key := r[0].String() + "|" + r[1].String()
		a := m[key]
		if a == nil {
			a = &acc{seen: map[int64]bool{}, key: key}
			m[key] = a
			order = append(order, key)
		}
		a.n++
		if a.n == 1 || r[1].S < a.min {
			a.min = r[1].String()
		}
		if !r[2].Null {
			a.cnt++
			a.sum += r[2].I
			if !a.hasMax || r[2].I > a.max {
				a.max, a.hasMax = r[2].I, true
			}
			if a.agg != "" {
				a.agg += ","
			}
			a.agg += r[2].String()
			a.seen[r[2].I] = true
		}
	}
	var out []string
	for _, k := range order {
		a := m[k]
		sum, mx, agg := "NULL", "NULL", "NULL"
		if a.cnt > 0 {
			sum, mx, agg = fmt.Sprint(a.sum), fmt.Sprint(a.max), a.agg
		}
		out = append(out, fmt.Sprintf("%s|%d|%d|%s|%s|%s|%s|%d", k, a.n, a.cnt, sum, a.min, mx, agg, len(a.seen)))
	}
	slices.Sort(out)
	return out
}

func spillAgg(src *source) *HashAgg {
	x := ColumnExpr(2, columnar.TInt64)
	return &HashAgg{
		Input:  src,
		Groups: []Expr{ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TVarchar)},
		Aggs: []AggSpec{
			{Kind: AggCountStar, Type: columnar.TInt64},
			{Kind: AggCount, Arg: x, Type: columnar.TInt64},
			{Kind: AggSum, Arg: x, Type: columnar.TInt64},
			{Kind: AggMin, Arg: ColumnExpr(1, columnar.TVarchar), Type: columnar.TVarchar},
			{Kind: AggMax, Arg: x, Type: columnar.TInt64},
			{Kind: AggStringAgg, Arg: newCastExpr(x, columnar.TVarchar, false), Type: columnar.TVarchar, Param: str(",")},
			{Kind: AggCount, Arg: x, Distinct: true, Type: columnar.TInt64},
		},
	}
}

// A limit far below the groups' size makes the aggregate spill, and its
// partitions spill again; the answer is the in-memory one computed by Go
// maps, rows reaching their group in input order (string_agg).
func TestHashAggSpills(t *testing.T) {
	want := wantAgg(aggRows(6000))
	runSizes(t, func(t *testing.T, n int) {
		tmp := t.TempDir()
		m := memory.NewManager(40_000, tmp, 0)
		src := aggRows(6000)
		src.n = n
		h := spillAgg(src)
		h.SetMemory(m)
		var rounds int
		got := drainChecked(t, h, func(*columnar.Batch) {
			if sub, ok := h.parts.sub.(*HashAgg); ok && sub.spill != nil {
				rounds = 2
			}
		})
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("%d groups, want %d; first got %v, want %v", len(got), len(want), got[:min(3, len(got))], want[:3])
		}
		if h.res.SpilledBytes() == 0 || rounds < 2 {
			t.Fatalf("spilled %d bytes, %d rounds: the limit did not force two rounds", h.res.SpilledBytes(), rounds)
		}
		executortest.Released(t, tmp, m, -1)
	})
}

// Without a temp directory an aggregate over the limit fails, naming itself.
func TestHashAggOutOfMemory(t *testing.T) {
	src := aggRows(6000)
	src.n = 100
	h := spillAgg(src)
	h.Aggs = h.Aggs[:len(h.Aggs)-1] // not the DISTINCT one, whose pairs have a reservation of their own
	m := memory.NewManager(40_000, "", 0)
	h.SetMemory(m)
	err := h.Open(context.Background())
	h.Close()
	var oom *memory.OutOfMemory
	if !errors.As(err, &oom) || oom.Operator != "hash aggregate" {
		t.Fatalf("got %v", err)
	}
	if m.Used() != 0 {
		t.Fatalf("%d bytes reserved after Close", m.Used())
	}
}

// Cancelling while the aggregate spills or reads partitions stops it with
// the context's error and leaves no file and no goroutine.
func TestHashAggCancelMidSpill(t *testing.T) {
	for _, after := range []int{40, 100} {
		before := runtime.NumGoroutine()
		tmp := t.TempDir()
		src := aggRows(9000)
		src.n = 64
		ctx, cancel := context.WithCancel(context.Background())
		h := spillAgg(src)
		h.Input = &cancelAfter{Operator: src, after: after, cancel: cancel}
		h.SetMemory(memory.NewManager(20_000, tmp, 0))
		err := h.Open(ctx)
		for err == nil {
			_, err = h.Next(ctx)
		}
		spilling := h.spill != nil
		h.Close()
		cancel()
		checkCancelled(t, err, spilling, tmp, before)
	}
}

// checkCancelled checks an operator cancelled while spilling (spilling:
// it had begun): the context's error, no file left in tmp, no goroutine
// more than before.
func checkCancelled(t *testing.T, err error, spilling bool, tmp string, before int) {
	t.Helper()
	executortest.Cancelled(t, err)
	if !spilling {
		t.Fatal("cancelled before any spill: the test checks nothing")
	}
	executortest.Released(t, tmp, nil, before)
}
