package executor

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestWindowArgRankIgnoreNulls: lag and lead with IGNORE NULLS and an
// argument ORDER BY step over the non-NULL values of the frame in that
// order. Rows by y: 6(0) NULL(1) 3(2) 1(3) NULL(4) 4(5); DuckDB 1.5
// answers this query wrongly (it mixes window and argument positions),
// so the values are worked out by hand.
func TestWindowArgRankIgnoreNulls(t *testing.T) {
	rows := [][]columnar.Value{
		{i64(1), i64(3)}, {null(columnar.TInt64), i64(1)}, {i64(3), i64(2)},
		{i64(4), i64(5)}, {null(columnar.TInt64), i64(4)}, {i64(6), i64(0)},
	}
	runSizes(t, func(t *testing.T, n int) {
		x, y := ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TInt64)
		whole := WindowFrame{StartUnbounded: true, EndUnbounded: true}
		by := []SortKey{{Expr: y}}
		fn := func(name string, off int64) WindowFunc {
			return WindowFunc{Name: name, Args: []Expr{x}, Type: columnar.TInt64, Offset: off, Default: null(columnar.TInt64),
				IgnoreNulls: true, ArgOrder: by, Frame: whole}
		}
		w := &Window{Input: &source{types: []columnar.Type{columnar.TInt64, columnar.TInt64}, rows: rows, n: n},
			Funcs: []WindowFunc{fn("lag", 1), fn("lead", 1), fn("lag", 2), fn("lead", 0)}}
		got := drain(t, w)
		want := []string{
			"1|3|3|4|6|1",
			"NULL|1|6|3|NULL|NULL",
			"3|2|6|1|NULL|3",
			"4|5|1|NULL|3|4",
			"NULL|4|1|4|3|NULL",
			"6|0|NULL|3|NULL|6",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
}

// TestArgRankPartitionNaive checks argRankPartition, whose Fenwick tree
// follows the frame as it slides, against sorting each row's frame
// afresh, on random partitions with ties, NULLs and frames of every kind
// (including frames that do not hold the current row and frames that
// move back).
func TestArgRankPartitionNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	frames := []WindowFrame{
		{StartUnbounded: true, EndUnbounded: true},
		{StartUnbounded: true},
		{Rows: true, Start: -3, End: 2},
		{Rows: true, Start: -2, End: -1},
		{Rows: true, Start: 1, End: 4},
		{Rows: true, StartUnbounded: true, End: -2},
		{Groups: true, Start: -1, End: 1},
		{Groups: true, Start: 0, EndUnbounded: true},
	}
	names := []string{"row_number", "rank", "percent_rank", "cume_dist", "ntile", "lag", "lead"}
	for iter := range 300 {
		m := 1 + r.IntN(40)
		ordV := columnar.NewVector(columnar.TInt64, m) // window order keys, with ties
		yV := columnar.NewVector(columnar.TInt64, m)   // argument order keys, with ties and NULLs
		xV := columnar.NewVector(columnar.TInt64, m)
		keys := make([]int64, m)
		for i := range keys {
			keys[i] = int64(r.IntN(m/2 + 1))
		}
		slices.Sort(keys)
		for i := range m {
			ordV.SetValue(i, i+1, i64(keys[i]))
			if r.IntN(5) == 0 {
				yV.SetValue(i, i+1, null(columnar.TInt64))
			} else {
				yV.SetValue(i, i+1, i64(int64(r.IntN(6))))
			}
			if r.IntN(4) == 0 {
				xV.SetValue(i, i+1, null(columnar.TInt64))
			} else {
				xV.SetValue(i, i+1, i64(int64(100+i)))
			}
		}
		rows := make([]int32, m)
		for i := range rows {
			rows[i] = int32(i)
		}
		for _, fr := range frames {
			for _, name := range names {
				f := &WindowFunc{Name: name, Frame: fr, Order: []SortKey{{Expr: ColumnExpr(0, columnar.TInt64)}},
					ArgOrder: []SortKey{{Expr: ColumnExpr(1, columnar.TInt64), Desc: iter%2 == 1, NullsFirst: iter%3 == 0}},
					Type:     columnar.TInt64, Offset: int64(r.IntN(3)), Default: i64(-1)}
				switch name {
				case "ntile":
					f.Offset = int64(1 + r.IntN(5))
				case "percent_rank", "cume_dist":
					f.Type = columnar.TFloat64
				case "lag", "lead":
					f.IgnoreNulls = r.IntN(2) == 0
				}
				ord, args, argOrd := []*columnar.Vector{ordV}, []*columnar.Vector{xV}, []*columnar.Vector{yV}
				res := make([]columnar.Value, m)
				argRankPartition(f, rows, ord, args, argOrd, nil, res)
				want := naiveArgRank(f, rows, ord, args, argOrd)
				for i := range m {
					if res[i].String() != want[i].String() {
						t.Fatalf("iter %d %s offset %d ignore nulls %v frame %+v row %d of %d: got %s, want %s",
							iter, name, f.Offset, f.IgnoreNulls, fr, i, m, res[i], want[i])
					}
				}
			}
		}
	}
}

// naiveArgRank sorts every row's frame by the argument order (ties by
// window position) and reads the answer off the sorted list.
func naiveArgRank(f *WindowFunc, rows []int32, ord, args, argOrd []*columnar.Vector) []columnar.Value {
	m := len(rows)
	peerStart, peerEnd := peerBounds(f, ord, rows)
	fb := newFrameBounds(f, ord, rows, peerStart, peerEnd, nil)
	key := func(a, b int) int { return compareRows(argOrd, f.ArgOrder, int(rows[a]), int(rows[b])) }
	less := func(a, b int) bool { return cmp.Or(key(a, b), cmp.Compare(a, b)) < 0 }
	out := make([]columnar.Value, m)
	for i := range m {
		s, e := fb.bounds(i)
		var frame []int
		for k := s; k < e; k++ {
			frame = append(frame, k)
		}
		n := len(frame)
		before, below, upTo := 0, 0, 0
		for _, k := range frame {
			if less(k, i) {
				before++
			}
			if key(k, i) < 0 {
				below++
			}
			if key(k, i) <= 0 {
				upTo++
			}
		}
		x := func(k int) columnar.Value { return args[0].Value(int(rows[k])) }
		switch f.Name {
		case "row_number":
			out[i] = i64(int64(before + 1))
		case "rank":
			out[i] = i64(int64(below + 1))
		case "percent_rank":
			out[i] = f64(0)
			if n > 1 {
				out[i] = f64(float64(below) / float64(n-1))
			}
		case "cume_dist":
			out[i] = f64(0)
			if n > 0 {
				out[i] = f64(float64(upTo) / float64(n))
			}
		case "ntile":
			out[i] = null(columnar.TInt64)
			if n > 0 {
				out[i] = i64(ntile(int64(before), int64(n), f.Offset))
			}
		case "lag", "lead":
			slices.SortFunc(frame, func(a, b int) int { return cmp.Or(key(a, b), cmp.Compare(a, b)) })
			o := int(f.Offset)
			if f.IgnoreNulls {
				if o == 0 {
					out[i] = x(i)
					continue
				}
				// The non-NULL rows of the frame before and after row i.
				var prev, next []int
				for _, k := range frame {
					switch {
					case x(k).Null || k == i:
					case less(k, i):
						prev = append(prev, k)
					default:
						next = append(next, k)
					}
				}
				out[i] = f.Default
				if f.Name == "lag" && o <= len(prev) {
					out[i] = x(prev[len(prev)-o])
				}
				if f.Name == "lead" && o <= len(next) {
					out[i] = x(next[o-1])
				}
				continue
			}
			j := before - o
			if f.Name == "lead" {
				j = before + o
			}
			out[i] = f.Default
			if j >= 0 && j < n {
				out[i] = x(frame[j])
			}
		}
	}
	return out
}
