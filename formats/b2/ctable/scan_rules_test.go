package ctable

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// noLate switches late materialization off, for tests of block pruning
// alone (blocks that are read come out whole).
var noLate = index.RuleSet(0).With(index.LateMaterialization)

// rulesRows is the row count of the rules table: 40 blocks of 256 rows.
const rulesRows = 10000

// rulesTable writes, with 256-row blocks (and SUMMARY segments):
//
//	ts INT64    i (clustered: block b holds 256b .. 256b+255)
//	x  DOUBLE   i*0.5, NaN when i%7 == 0 (not nullable)
//	n  INT64    i%97, NULL when i%10 == 0
//	s  VARCHAR  "s" + i%3 (few values: a dictionary column)
func rulesTable(t *testing.T) *Table {
	t.Helper()
	schema := columnar.Schema{
		{Name: "ts", Type: columnar.TInt64},
		{Name: "x", Type: columnar.TFloat64},
		{Name: "n", Type: columnar.TInt64, Nullable: true},
		{Name: "s", Type: columnar.TVarchar},
	}
	path := filepath.Join(t.TempDir(), "rules.b2d")
	w, err := Create(path, schema, CreateOptions{ChunkRows: 1024, BlockRows: 256})
	if err != nil {
		t.Fatal(err)
	}
	for lo := 0; lo < rulesRows; lo += 1000 {
		b := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TFloat64, columnar.TInt64, columnar.TVarchar}, 1000)
		b.Len = 1000
		for k := 0; k < 1000; k++ {
			i := lo + k
			b.Cols[0].Ints[k] = int64(i)
			b.Cols[1].Floats[k] = float64(i) * 0.5
			if i%7 == 0 {
				b.Cols[1].Floats[k] = math.NaN()
			}
			b.Cols[2].Ints[k] = int64(i % 97)
			if i%10 == 0 {
				b.Cols[2].SetNull(k, 1000)
			}
			b.Cols[3].Bytes[k] = []byte{'s', byte('0' + i%3)}
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

func TestTopKPruningReadsLastBlock(t *testing.T) {
	tb := rulesTable(t)
	for _, threads := range []int{1, 2} {
		bound := &index.TopKBound{Col: 0, Desc: true}
		// As if a top-k of ORDER BY ts DESC LIMIT 10 already held 9990..9999.
		bound.Publish(columnar.IntValue(columnar.TInt64, 9990))
		var st index.ScanStats
		rows := scanAll(t, tb, index.ScanSpec{Cols: []int{0}, Limit: -1, Threads: threads, Stats: &st, TopK: bound})
		// Only block 39 (rows 9984..9999) can beat 9990: blocks 0..38 go.
		if len(rows) != 16 || rows[0][0].I != 9984 {
			t.Fatalf("threads=%d: %d rows from %v, want the 16 of block 39", threads, len(rows), rows[0])
		}
		if st.UnitsTotal != 40 || st.SkippedBy[index.TopKPruning] != 39 || st.UnitsSkipped != 39 {
			t.Fatalf("threads=%d: stats %+v", threads, st)
		}
	}
	// Switched off, or without a published bound: every block is read.
	for _, spec := range []index.ScanSpec{
		{Off: index.RuleSet(0).With(index.TopKPruning)},
		{NoPrune: true},
		{},
	} {
		bound := &index.TopKBound{Col: 0, Desc: true}
		if spec.Off != 0 || spec.NoPrune {
			bound.Publish(columnar.IntValue(columnar.TInt64, 9990))
		}
		var st index.ScanStats
		spec.Cols, spec.Limit, spec.Threads, spec.Stats, spec.TopK = []int{0}, -1, 1, &st, bound
		if rows := scanAll(t, tb, spec); len(rows) != rulesRows || st.UnitsSkipped != 0 {
			t.Fatalf("%+v: %d rows, stats %+v", spec, len(rows), st)
		}
	}
}

// TestTopKSeed: with K (the rows the top-k keeps) the scan seeds the
// bound from the summary before reading: each block holds a row with its
// max, so for ORDER BY ts DESC LIMIT 10 the 10th best block max, 7935
// (block 30: rows 7680..7935), is a floor, and blocks 0..29, whose max is
// below it, go unread; ASC LIMIT 5 keeps blocks 0..4 (5th best min 1024).
// A filter on other rows, or no K, seeds nothing.
func TestTopKSeed(t *testing.T) {
	tb := rulesTable(t)
	ge := func(v int64) index.Pred {
		return index.Pred{Col: 0, Op: index.Ge, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, v)}}
	}
	notNull := index.Pred{Col: 0, Op: index.IsNotNull}
	for _, tc := range []struct {
		name    string
		desc    bool
		k       int64
		filter  []index.Pred
		skipped int64
		rows    int
	}{
		{"desc", true, 10, nil, 30, 9*256 + 16},
		{"desc, IS NOT NULL", true, 10, []index.Pred{notNull}, 30, 9*256 + 16},
		{"asc", false, 5, nil, 35, 5 * 256},
		{"filtered", true, 10, []index.Pred{ge(1)}, 0, rulesRows}, // noLate: blocks come out whole
		{"no K", true, 0, nil, 0, rulesRows},
		{"K over the blocks", true, 41, nil, 0, rulesRows},
	} {
		bound := &index.TopKBound{Col: 0, Desc: tc.desc, K: tc.k}
		var st index.ScanStats
		rows := scanAll(t, tb, index.ScanSpec{Cols: []int{0}, Filter: tc.filter, Limit: -1, Threads: 1, Stats: &st, TopK: bound, Off: noLate})
		if len(rows) != tc.rows || st.SkippedBy[index.TopKPruning] != tc.skipped {
			t.Errorf("%s: %d rows, %d blocks skipped by top-k; want %d, %d", tc.name, len(rows), st.SkippedBy[index.TopKPruning], tc.rows, tc.skipped)
		}
	}
}

func TestTopKOrderVisitsBestUnitFirst(t *testing.T) {
	tb := rulesTable(t)
	// ASC on ts visits table order; DESC visits the last unit first:
	// under a top-k units are single blocks of 256 rows, so the last one,
	// block 39, starts at row 39*256 = 9984.
	for _, tc := range []struct {
		desc  bool
		first int64
	}{{false, 0}, {true, 9984}} {
		bound := &index.TopKBound{Col: 0, Desc: tc.desc}
		rows := scanAll(t, tb, index.ScanSpec{Cols: []int{0}, Limit: -1, Threads: 1, TopK: bound})
		if len(rows) != rulesRows || rows[0][0].I != tc.first {
			t.Fatalf("desc=%v: first row %v of %d, want %d", tc.desc, rows[0][0], len(rows), tc.first)
		}
	}
	// On x, which holds NaN in every block: DESC cannot rank blocks by
	// max (NaN beats any max), and no block is ever skipped.
	bound := &index.TopKBound{Col: 1, Desc: true}
	bound.Publish(columnar.FloatValue(columnar.TFloat64, 4000))
	var st index.ScanStats
	rows := scanAll(t, tb, index.ScanSpec{Cols: []int{1}, Limit: -1, Threads: 1, TopK: bound, Stats: &st})
	if len(rows) != rulesRows || st.UnitsSkipped != 0 {
		t.Fatalf("DESC on a NaN column: %d rows, stats %+v", len(rows), st)
	}
	// ASC on x: NaN never beats a number, so blocks with min >= 10 go
	// (rows 20.. hold x >= 10 or NaN): only block 0 is read.
	bound = &index.TopKBound{Col: 1}
	bound.Publish(columnar.FloatValue(columnar.TFloat64, 10))
	st = index.ScanStats{}
	rows = scanAll(t, tb, index.ScanSpec{Cols: []int{1}, Limit: -1, Threads: 1, TopK: bound, Stats: &st})
	if len(rows) != 256 || st.SkippedBy[index.TopKPruning] != 39 {
		t.Fatalf("ASC on a NaN column: %d rows, stats %+v", len(rows), st)
	}
}

func TestLateMaterialization(t *testing.T) {
	tb := rulesTable(t)
	f := func(v float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, v) }
	i := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt64, v) }
	cases := []struct {
		name string
		pred index.Pred
		want func(i int) bool // the executor's semantics, by formula
	}{
		{"ts between", index.Pred{Col: 0, Op: index.Between, Vals: []columnar.Value{i(300), i(310)}},
			func(r int) bool { return r >= 300 && r <= 310 }},
		// NaN sorts above every number: NaN > 4990 holds.
		{"x > with NaN", index.Pred{Col: 1, Op: index.Gt, Vals: []columnar.Value{f(4990)}},
			func(r int) bool { return r%7 == 0 || float64(r)*0.5 > 4990 }},
		{"x = NaN", index.Pred{Col: 1, Op: index.Eq, Vals: []columnar.Value{f(math.NaN())}},
			func(r int) bool { return r%7 == 0 }},
		{"x < 3", index.Pred{Col: 1, Op: index.Lt, Vals: []columnar.Value{f(3)}},
			func(r int) bool { return r%7 != 0 && r < 6 }},
		// NULL matches no comparison, not even <>.
		{"n <> 5", index.Pred{Col: 2, Op: index.Ne, Vals: []columnar.Value{i(5)}},
			func(r int) bool { return r%10 != 0 && r%97 != 5 }},
		{"n in", index.Pred{Col: 2, Op: index.In, Vals: []columnar.Value{i(1), i(96)}},
			func(r int) bool { return r%10 != 0 && (r%97 == 1 || r%97 == 96) }},
		// Sets within 64 of their least value take the mask path
		// (selIntSet); wider ones the per-row test above.
		{"n in near", index.Pred{Col: 2, Op: index.In, Vals: []columnar.Value{i(40), i(3), i(5), i(66)}},
			func(r int) bool { return r%10 != 0 && (r%97 == 3 || r%97 == 5 || r%97 == 40 || r%97 == 66) }},
		{"ts in one", index.Pred{Col: 0, Op: index.In, Vals: []columnar.Value{i(4097)}},
			func(r int) bool { return r == 4097 }},
		{"ts in around 0", index.Pred{Col: 0, Op: index.In, Vals: []columnar.Value{i(-5), i(0), i(58)}},
			func(r int) bool { return r == 0 || r == 58 }},
		// Far from the rows' values: x-base wraps, and must still miss.
		{"ts in top", index.Pred{Col: 0, Op: index.In, Vals: []columnar.Value{i(math.MaxInt64), i(math.MaxInt64 - 60)}},
			func(r int) bool { return false }},
		{"ts in bottom", index.Pred{Col: 0, Op: index.In, Vals: []columnar.Value{i(math.MinInt64), i(math.MinInt64 + 9)}},
			func(r int) bool { return false }},
		{"n is null", index.Pred{Col: 2, Op: index.IsNull}, func(r int) bool { return r%10 == 0 }},
		// Ranges take the two-comparison path (selRange): NULLs still fail.
		{"n >= 95", index.Pred{Col: 2, Op: index.Ge, Vals: []columnar.Value{i(95)}},
			func(r int) bool { return r%10 != 0 && r%97 >= 95 }},
		{"n < 1", index.Pred{Col: 2, Op: index.Lt, Vals: []columnar.Value{i(1)}},
			func(r int) bool { return r%10 != 0 && r%97 == 0 }},
		{"ts > max", index.Pred{Col: 0, Op: index.Gt, Vals: []columnar.Value{i(math.MaxInt64)}},
			func(r int) bool { return false }},
		{"ts < min", index.Pred{Col: 0, Op: index.Lt, Vals: []columnar.Value{i(math.MinInt64)}},
			func(r int) bool { return false }},
		{"ts <= 2", index.Pred{Col: 0, Op: index.Le, Vals: []columnar.Value{i(2)}},
			func(r int) bool { return r <= 2 }},
		{"ts = 9999", index.Pred{Col: 0, Op: index.Eq, Vals: []columnar.Value{i(9999)}},
			func(r int) bool { return r == 9999 }},
		{"x between", index.Pred{Col: 1, Op: index.Between, Vals: []columnar.Value{f(1), f(2)}},
			func(r int) bool { return r%7 != 0 && r >= 2 && r <= 4 }},
		{"x >= 4999", index.Pred{Col: 1, Op: index.Ge, Vals: []columnar.Value{f(4999)}},
			func(r int) bool { return r%7 == 0 || r >= 9998 }},
		{"x <= 0", index.Pred{Col: 1, Op: index.Le, Vals: []columnar.Value{f(0)}},
			func(r int) bool { return false }}, // row 0 is NaN
		{"x = 1.5", index.Pred{Col: 1, Op: index.Eq, Vals: []columnar.Value{f(1.5)}},
			func(r int) bool { return r == 3 }},
		{"s = s2", index.Pred{Col: 3, Op: index.Eq, Vals: []columnar.Value{columnar.StringValue("s2")}},
			func(r int) bool { return r%3 == 2 }},
		{"or", index.Pred{Op: index.Or, Any: []index.Pred{
			{Col: 0, Op: index.Lt, Vals: []columnar.Value{i(3)}},
			{Col: 0, Op: index.Ge, Vals: []columnar.Value{i(9998)}}}},
			func(r int) bool { return r < 3 || r >= 9998 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if s := tb.SupportsFilter(tc.pred); s != index.Inexact {
				t.Fatalf("SupportsFilter %v", s)
			}
			var want []int64
			for r := 0; r < rulesRows; r++ {
				if tc.want(r) {
					want = append(want, int64(r))
				}
			}
			for _, threads := range []int{1, 2} {
				// Block pruning off: late materialization alone decides.
				var st index.ScanStats
				spec := index.ScanSpec{Cols: []int{0, 1, 2, 3}, Filter: []index.Pred{tc.pred}, Limit: -1,
					Threads: threads, Stats: &st, Off: index.RuleSet(0).With(index.BlockPruning)}
				rows := scanAll(t, tb, spec)
				// Exactly the matching rows, except in blocks where at least
				// 3/4 of the rows match: those come out whole (dense).
				dense := func(r int64) bool {
					m := 0
					for q := r / 256 * 256; q < min(r/256*256+256, rulesRows); q++ {
						if tc.want(int(q)) {
							m++
						}
					}
					return m*4 >= 3*int(min(256, rulesRows-r/256*256))
				}
				var exp []int64
				for r := int64(0); r < rulesRows; r++ {
					if tc.want(int(r)) || dense(r) {
						exp = append(exp, r)
					}
				}
				got := sortedIDs(rows)
				if len(got) != len(exp) {
					t.Fatalf("threads=%d: %d rows, want %d", threads, len(got), len(exp))
				}
				for k := range got {
					if got[k] != exp[k] {
						t.Fatalf("threads=%d: row %d is ts %d, want %d", threads, k, got[k], exp[k])
					}
				}
				// A block with no match leaves its other columns compressed.
				empty := int64(0)
				for b := 0; b < 40; b++ {
					hit := false
					for r := 256 * b; r < min(256*(b+1), rulesRows); r++ {
						hit = hit || tc.want(r)
					}
					if !hit {
						empty++
					}
				}
				if st.SkippedBy[index.LateMaterialization] != empty {
					t.Fatalf("threads=%d: late materialization skipped %d blocks, want %d", threads, st.SkippedBy[index.LateMaterialization], empty)
				}
			}
			// Switched off: every row comes out (the filter above decides).
			rows := scanAll(t, tb, index.ScanSpec{Cols: []int{0}, Filter: []index.Pred{tc.pred}, Limit: -1, Threads: 1, Off: noLate.With(index.BlockPruning)})
			if len(rows) != rulesRows {
				t.Fatalf("rule off: %d rows", len(rows))
			}
		})
	}
}

func sortedIDs(rows [][]columnar.Value) []int64 {
	out := make([]int64, len(rows))
	for k, r := range rows {
		out[k] = r[0].I
	}
	for k := 1; k < len(out); k++ {
		for j := k; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
