package executor

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestKeyOrder: the watch holds while keys do not decrease, within a
// batch, across batches (a key equal to the last one included) and over
// a selection (the unselected row's smaller key ignored), and ends at a
// smaller key or a NULL, for good.
func TestKeyOrder(t *testing.T) {
	vec := func(xs ...int64) *columnar.Vector {
		return &columnar.Vector{Type: columnar.TInt64, Ints: xs}
	}
	type step struct {
		v    *columnar.Vector
		sel  []int
		want bool
	}
	withNull := vec(7, 8)
	withNull.SetNull(1, 2)
	cases := []struct {
		name  string
		steps []step
	}{
		{"rising", []step{{vec(1, 2, 2, 5), nil, true}, {vec(5, 6), nil, true}, {vec(9), nil, true}}},
		{"falls within", []step{{vec(1, 3, 2), nil, false}, {vec(4), nil, false}}},
		{"falls across", []step{{vec(1, 3), nil, true}, {vec(2, 9), nil, false}, {vec(10), nil, false}}},
		{"selection", []step{{vec(4, 0, 5), []int{0, 2}, true}, {vec(1, 6), []int{1}, true}, {vec(5), nil, false}}},
		{"const", []step{{&columnar.Vector{Type: columnar.TInt64, Const: true, Ints: []int64{3}}, nil, true}, {vec(3, 4), nil, true},
			{&columnar.Vector{Type: columnar.TInt64, Const: true, Ints: []int64{2}}, nil, false}}},
		{"null", []step{{vec(1), nil, true}, {withNull, nil, false}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := keyOrder{on: true}
			for i, s := range tc.steps {
				n := len(s.v.Ints)
				if s.v.Const {
					n = 2
				}
				b := &columnar.Batch{Len: n, Sel: s.sel, Cols: []*columnar.Vector{s.v}}
				if got := o.next(b, s.v); got != s.want || o.on != s.want {
					t.Fatalf("step %d: %v (watching %v), want %v", i, got, o.on, s.want)
				}
			}
		})
	}
}

// orderedRows are n rows (k, v) with k = lo + 5*(i/3) (three rows a key,
// in key order) and v = i, but that from row breakAt on (if > 0) the keys
// start over from lo.
func orderedRows(n, breakAt int, lo int64) [][]columnar.Value {
	rows := make([][]columnar.Value, n)
	for i := range rows {
		j := i
		if breakAt > 0 && i >= breakAt {
			j = i - breakAt
		}
		rows[i] = []columnar.Value{i64(lo + 5*int64(j/3)), i64(int64(i))}
	}
	return rows
}

// mergedByKey sums the partial rows "k|count|sum|min" of rows by key into
// "k|count|sum|min" per key.
func mergedByKey(t *testing.T, rows []string) []string {
	t.Helper()
	type agg struct{ count, sum, min int64 }
	by := map[string]*agg{}
	for _, r := range rows {
		f := strings.Split(r, "|")
		c, _ := strconv.ParseInt(f[1], 10, 64)
		s, _ := strconv.ParseInt(f[2], 10, 64)
		m, _ := strconv.ParseInt(f[3], 10, 64)
		a := by[f[0]]
		if a == nil {
			a = &agg{min: m}
			by[f[0]] = a
		}
		a.count += c
		a.sum += s
		a.min = min(a.min, m)
	}
	var out []string
	for k, a := range by {
		out = append(out, fmt.Sprintf("%s|%d|%d|%d", k, a.count, a.sum, a.min))
	}
	slices.Sort(out)
	return out
}

// wantOrdered is every group of orderedRows(n, breakAt, lo) with its
// count, sum and min by formula.
func wantOrdered(n, breakAt int, lo int64) []string {
	type agg struct{ count, sum, min int64 }
	by := map[int64]*agg{}
	for i, r := range orderedRows(n, breakAt, lo) {
		a := by[r[0].I]
		if a == nil {
			a = &agg{min: int64(i)}
			by[r[0].I] = a
		}
		a.count++
		a.sum += int64(i)
	}
	var out []string
	for k, a := range by {
		out = append(out, fmt.Sprintf("%d|%d|%d|%d", k, a.count, a.sum, a.min))
	}
	slices.Sort(out)
	return out
}

// TestPartialFlushesInOrder: a partial over 300,000 rows of 100,000 keys
// in order emits its table each time it reaches flushGroups groups, so
// that it never holds many more, and its rows, merged by key, are every
// group's count, sum and min: three rows a key, sum 3i+3 of its first row
// i. A key split between two tables comes out twice, no other. When the
// keys start over part way (breakAt), the watch ends there and the table
// grows from then on; the merged rows are still right.
func TestPartialFlushesInOrder(t *testing.T) {
	const n = 300_000
	for _, breakAt := range []int{0, 250_000} {
		for _, size := range []int{7, columnar.MaxBatch} {
			t.Run(fmt.Sprintf("break=%d/batch=%d", breakAt, size), func(t *testing.T) {
				agg := &HashAgg{
					Input:   &source{types: []columnar.Type{columnar.TInt64, columnar.TInt64}, rows: orderedRows(n, breakAt, 1000), n: size},
					Groups:  []Expr{ColumnExpr(0, columnar.TInt64)},
					Partial: true,
					Aggs: []AggSpec{
						{Kind: AggCountStar, Type: columnar.TInt64},
						{Kind: AggSum, Arg: ColumnExpr(1, columnar.TInt64), Type: columnar.TInt64},
						{Kind: AggMin, Arg: ColumnExpr(1, columnar.TInt64), Type: columnar.TInt64},
					},
				}
				most, flushes := 0, 0
				rows := drainChecked(t, agg, func(*columnar.Batch) {
					most = max(most, agg.ngroups)
					if agg.flushing && agg.pos == min(columnar.MaxBatch, agg.ngroups) {
						flushes++
					}
				})
				if got, want := mergedByKey(t, rows), wantOrdered(n, breakAt, 1000); !slices.Equal(got, want) {
					t.Fatalf("merged %d groups %v…, want %d %v…", len(got), got[:3], len(want), want[:3])
				}
				if breakAt == 0 {
					if most > flushGroups+size || flushes < 1 {
						t.Fatalf("held up to %d groups over %d flushes, want at most %d", most, flushes, flushGroups+size)
					}
					if len(rows) > 100_000+flushes {
						t.Fatalf("%d rows for 100000 keys over %d flushes", len(rows), flushes)
					}
				}
			})
		}
	}
}

// TestPartitionMergeOrderedBounds: a parallel GROUP BY over keys in order
// whose partials flush deals by the range of the keys' bounds when the
// merge knows them (KeyBounds), by hash when not (the partials' tables
// sample only their first keys), and every group's count, sum and min
// are right either way.
func TestPartitionMergeOrderedBounds(t *testing.T) {
	const n = 600_000
	rows := orderedRows(n, 0, 1000)
	want := wantOrdered(n, 0, 1000)
	for _, bounds := range []bool{false, true} {
		t.Run(fmt.Sprintf("bounds=%v", bounds), func(t *testing.T) {
			pm := intMergePlan(rows, 2, 16)
			if bounds {
				pm.KeyBounds = func() (int64, int64, bool) { return 1000, 1000 + 5*(n/3-1), true }
			}
			got := drain(t, pm)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("got %d rows %v…, want %d %v…", len(got), got[:3], len(want), want[:3])
			}
			if r := pm.Sources[0].rng; r.on != bounds {
				t.Fatalf("dealt by range %v, want %v", r.on, bounds)
			}
		})
	}
}

// TestDealRangeDecideBounds: bounds make a range of at most parts pieces
// of a power of two keys each when wide enough (6M keys over 16
// partitions: 2^19, as 6M/16 = 375,000 needs 19 bits, in 12 pieces), none
// when narrow, reversed or overflowing.
func TestDealRangeDecideBounds(t *testing.T) {
	var r dealRange
	r.decideBounds(1, 6_000_000, 16)
	if !r.on || r.lo != 1 || r.width != 6_000_000 || r.shift != 19 || (r.width-1)>>r.shift != 11 {
		t.Fatalf("range on=%v lo=%d width=%d shift=%d", r.on, r.lo, r.width, r.shift)
	}
	for _, b := range [][2]int64{{1, 1000}, {10, 5}, {-1 << 62, 1 << 62}} {
		var r dealRange
		r.decideBounds(b[0], b[1], 16)
		if r.on {
			t.Fatalf("bounds %v dealt by range", b)
		}
	}
}
