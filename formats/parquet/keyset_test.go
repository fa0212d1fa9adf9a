package parquet

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/columnar/columnartest"
	"github.com/b2sql/b2sql/index"
)

// TestKeySetFilter applies InSet key sets (runtime join filters) as row
// filters on the page-indexed file, alone and with other predicates, under
// every rule combination, batch size and thread count, through Scan and
// ScanUnits. The sets are formulas of the key, so the expected rows are
// too; every column of every row is checked, and the set's drop count is
// the rows it removed from those the other predicates kept.
func TestKeySetFilter(t *testing.T) {
	t.Run("plain", func(t *testing.T) { testKeySetFilter(t, openPageIndexed(t)) })
	t.Run("delta", func(t *testing.T) { testKeySetFilter(t, openPageIndexed(t, deltaProps("clu", "rnd", "nul")...)) })
}

func testKeySetFilter(t *testing.T, tb *Table) {
	cols := piCols()
	col := func(name string) int { return tb.Schema().Index(name) }
	i64 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt64, v) }
	str := columnar.StringValue
	// set returns an InSet on column c holding the keys where has is true.
	set := func(c string, has func(int64) bool) index.Pred {
		return index.Pred{Col: col(c), Op: index.InSet, Set: &index.KeySet{Desc: c, Has: has, Dropped: new(atomic.Int64)}}
	}
	for _, tc := range []struct {
		name   string
		filter func() []index.Pred // fresh sets per scan: each counts its own drops
		match  func(i int) bool    // the row passes every predicate
		before func(i int) bool    // the row passes the predicates before the set
	}{
		{"id-mod13", func() []index.Pred { return []index.Pred{set("id", func(k int64) bool { return k%13 == 5 })} },
			func(i int) bool { return i%13 == 5 }, func(int) bool { return true }},
		// Scattered keys of a random column: every page keeps a few rows.
		{"rnd-mod50", func() []index.Pred { return []index.Pred{set("rnd", func(k int64) bool { return k%50 == 0 })} },
			func(i int) bool { return piRnd(i)%50 == 0 }, func(int) bool { return true }},
		// NULL keys never pass, whatever the set says.
		{"nul-nulls", func() []index.Pred { return []index.Pred{set("nul", func(k int64) bool { return k%3 != 1 })} },
			func(i int) bool { v, ok := piNul(i); return ok && v%3 != 1 }, func(int) bool { return true }},
		// A range first (the planner puts the join filter's range before
		// its set), as the scan gets them from a join.
		{"range-then-set", func() []index.Pred {
			return []index.Pred{{Col: col("id"), Op: index.Between, Vals: []columnar.Value{i64(4000), i64(12000)}},
				set("id", func(k int64) bool { return k%7 == 0 })}
		}, func(i int) bool { return i >= 4000 && i <= 12000 && i%7 == 0 }, func(i int) bool { return i >= 4000 && i <= 12000 }},
		// A string predicate, then the set on another column.
		{"str-then-set", func() []index.Pred {
			return []index.Pred{{Col: col("str"), Op: index.Ge, Vals: []columnar.Value{str("k015000")}},
				set("clu", func(k int64) bool { return k%2 == 0 })}
		}, func(i int) bool { return i >= 15000 && !isNull(i) && (i/100+i*7919%5)%2 == 0 }, func(i int) bool { return i >= 15000 && !isNull(i) }},
		// Inside an OR (mark): the set marks its rows, the other branch its own.
		{"or-set", func() []index.Pred {
			return []index.Pred{{Op: index.Or, Any: []index.Pred{set("id", func(k int64) bool { return k%1000 == 1 }),
				{Col: col("id"), Op: index.Lt, Vals: []columnar.Value{i64(3)}}}}}
		}, func(i int) bool { return i%1000 == 1 || i < 3 }, nil},
		// The empty set drops everything.
		{"empty", func() []index.Pred { return []index.Pred{set("id", func(int64) bool { return false })} },
			func(int) bool { return false }, func(int) bool { return true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []int
			dropped := int64(0)
			for i := range piRows {
				switch {
				case tc.match(i):
					want = append(want, i)
				case tc.before != nil && tc.before(i):
					dropped++
				}
			}
			for _, m := range scanModes {
				for _, br := range []int64{7, 2048} {
					for _, threads := range []int{1, 3} {
						filter := tc.filter()
						if got := tb.SupportsFilter(filter[len(filter)-1]); got != index.Exact {
							t.Fatalf("SupportsFilter = %s, want exact", got)
						}
						old := batchRows
						batchRows = br
						rows := readAll(t, tb, m.spec(allColumns(len(cols)), filter, threads, nil))
						batchRows = old
						where := fmt.Sprintf("%s batch=%d threads=%d", m.name, br, threads)
						checkRowNums(t, where, cols, rows, want)
						if tc.before == nil {
							continue
						}
						// Row groups and pages are skipped by the other
						// predicates only: the set tests every row they keep.
						if got := filter[len(filter)-1].Set.Dropped.Load(); got != dropped {
							t.Errorf("%s: set dropped %d rows, want %d", where, got, dropped)
						}
					}
				}
			}
			// Through ScanUnits, one reader per row group.
			filter := tc.filter()
			var rows [][]columnar.Value
			units, err := tb.ScanUnits(t.Context(), index.ScanSpec{Cols: allColumns(len(cols)), Filter: filter, Limit: -1})
			if err != nil {
				t.Fatal(err)
			}
			for _, open := range units {
				r, err := open(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				rows = append(rows, columnartest.MustReadAll(t, r)...)
				r.Close()
			}
			checkRowNums(t, "units", cols, rows, want)
		})
	}
}

// TestKeySetAdaptive: a set that stopped paying (index.KeySet.Active is
// false) is not tested any more: every row passes, NULL keys included, as
// above a scan when the JoinFilterOp stops testing; the join drops them.
func TestKeySetAdaptive(t *testing.T) {
	tb := openPageIndexed(t)
	cols := piCols()
	ks := &index.KeySet{Has: func(k int64) bool { return k%2 == 0 }}
	ks.Record(1<<16, 0) // a trial that dropped nothing
	if ks.Active() {
		t.Fatal("set still active after dropping nothing")
	}
	filter := []index.Pred{{Col: tb.Schema().Index("nul"), Op: index.InSet, Set: ks}}
	rows := readAll(t, tb, index.ScanSpec{Cols: allColumns(len(cols)), Filter: filter, Limit: -1})
	all := make([]int, piRows)
	for i := range all {
		all[i] = i
	}
	checkRowNums(t, "inactive", cols, rows, all)

	// A set that drops most rows stays active through a whole scan (one
	// key in 9 passes: 8/9 dropped, far above the 1/16 it must keep).
	ks = &index.KeySet{Has: func(k int64) bool { return k%9 == 0 }}
	filter = []index.Pred{{Col: 0, Op: index.InSet, Set: ks}}
	rows = readAll(t, tb, index.ScanSpec{Cols: allColumns(len(cols)), Filter: filter, Limit: -1, Threads: 2})
	var want []int
	for i := 0; i < piRows; i += 9 {
		want = append(want, i)
	}
	checkRowNums(t, "active", cols, rows, want)
	if !ks.Active() {
		t.Error("a set dropping 8/9 of the rows stopped")
	}
}

// TestKeySetSupport: InSet is Exact on integer columns with a set, and
// unsupported where the scan cannot test it (strings, floats, no set).
func TestKeySetSupport(t *testing.T) {
	tb := openPageIndexed(t)
	has := func(int64) bool { return true }
	for _, tc := range []struct {
		col  string
		set  *index.KeySet
		want index.Support
	}{
		{"id", &index.KeySet{Has: has}, index.Exact},
		{"nul", &index.KeySet{Has: has}, index.Exact},
		{"str", &index.KeySet{Has: has}, index.Unsupported},
		{"fl", &index.KeySet{Has: has}, index.Unsupported},
		{"id", nil, index.Unsupported},
		{"id", &index.KeySet{}, index.Unsupported},
	} {
		p := index.Pred{Col: tb.Schema().Index(tc.col), Op: index.InSet, Set: tc.set}
		if got := tb.SupportsFilter(p); got != tc.want {
			t.Errorf("%s (set %v): %s, want %s", tc.col, tc.set != nil, got, tc.want)
		}
	}
}

// TestSelectSet checks the set step's selection against a loop written
// here, dense and sparse, with NULLs.
func TestSelectSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 1000
	v := columnar.NewVector(columnar.TInt64, n)
	for i := range n {
		v.Ints[i] = rng.Int64N(200) - 100
		if i%11 == 4 {
			v.SetNull(i, n)
		}
	}
	ks := &index.KeySet{Has: func(k int64) bool { return k%3 == 0 }}
	ok := func(i int) bool { return i%11 != 4 && v.Ints[i]%3 == 0 }
	var want []int
	for i := range n {
		if ok(i) {
			want = append(want, i)
		}
	}
	if got := selectSet(v, ks, make([]int, n), true); !slices.Equal(got, want) {
		t.Errorf("dense: %d rows, want %d", len(got), len(want))
	}
	var sel, wantSparse []int
	for i := 0; i < n; i += 1 + rng.IntN(4) {
		sel = append(sel, i)
		if ok(i) {
			wantSparse = append(wantSparse, i)
		}
	}
	if got := selectSet(v, ks, sel, false); !slices.Equal(got, wantSparse) {
		t.Errorf("sparse: %d rows, want %d", len(got), len(wantSparse))
	}
}
