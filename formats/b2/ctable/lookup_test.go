package ctable

import (
	"reflect"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

func f64(x float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, x) }

// TestFullIndexBounds checks the binary searches of the score FULL index
// of ctable_mixed (README §5.1): 1024 entries, the 25 zeros first
// (physical 0 and the padding 1000–1023), then score i%1000/10 for i
// = 1..999, so value k/10 (k ≥ 1) sits at entry 24+k.
func TestFullIndexBounds(t *testing.T) {
	for _, file := range []string{"ctable_mixed.b2d", "ctable_mixed.b2z"} {
		t.Run(file, func(t *testing.T) {
			tb := openTable(t, file)
			c := tb.Schema().Index("score")
			fi := tb.usableFull(c)
			if fi == nil {
				t.Fatal("score FULL index not usable")
			}
			if err := tb.loadFull(c, fi); err != nil {
				t.Fatal(err)
			}
			if fi.n != 1024 || fi.blockLen != 256 || len(fi.starts) != 4 {
				t.Fatalf("n=%d blockLen=%d starts=%d", fi.n, fi.blockLen, len(fi.starts))
			}
			cur := newFullCursor(fi, nil)
			cases := []struct {
				x        float64
				upper    bool
				want     int64
				describe string
			}{
				{0, false, 0, "first zero"},
				{0, true, 25, "past the zeros"},
				{0.05, false, 25, "between 0 and 0.1"},
				{12.5, false, 24 + 125, "12.5"},
				{12.5, true, 24 + 126, "past 12.5"},
				{25.5, false, 24 + 255, "block boundary"},
				{99.9, true, 1024, "past the last"},
				{-1, false, 0, "below all"},
				{1000, false, 1024, "above all"},
			}
			for _, tc := range cases {
				got, err := cur.bound(f64(tc.x), tc.upper)
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.want {
					t.Errorf("%s: bound(%v, upper=%v) = %d, want %d", tc.describe, tc.x, tc.upper, got, tc.want)
				}
			}
			pos, err := cur.positions(nil, 0, 3)
			if err != nil {
				t.Fatal(err)
			}
			if want := []int64{0, 1000, 1001}; !reflect.DeepEqual(pos, want) {
				t.Fatalf("first positions %v, want %v", pos, want)
			}
		})
	}
}

// TestFullIndexLookup scans with filters on score and checks the rows
// (ids) that match, the blocks skipped (of 4 blocks of 256 rows) and
// whether the lookup was used. The table has 999 rows: a lookup pays for at
// most 2% of them (19 matches).
func TestFullIndexLookup(t *testing.T) {
	cases := []struct {
		name     string
		pred     index.Pred
		want     []int64
		lookup   bool
		skipped  int64 // blocks skipped in all
		byLookup int64 // of which by the lookup
	}{
		{"eq", index.Pred{Op: index.Eq, Vals: []columnar.Value{f64(12.5)}}, []int64{125}, true, 3, 1},
		{"eq deleted", index.Pred{Op: index.Eq, Vals: []columnar.Value{f64(50)}}, nil, true, 3, 1},
		// 0.0 is stored by row 0 and the 24 padding rows: too many matches.
		{"eq padding zero", index.Pred{Op: index.Eq, Vals: []columnar.Value{f64(0)}}, []int64{0}, false, 2, 0},
		{"between", index.Pred{Op: index.Between, Vals: []columnar.Value{f64(1), f64(2)}},
			[]int64{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, true, 3, 1},
		{"lt", index.Pred{Op: index.Lt, Vals: []columnar.Value{f64(0.5)}}, []int64{0, 1, 2}, false, 2, 0},
		{"in", index.Pred{Op: index.In, Vals: []columnar.Value{f64(99.8), f64(0.3), f64(30), f64(30)}},
			[]int64{300, 998}, true, 1, 0},
		{"in one block", index.Pred{Op: index.In, Vals: []columnar.Value{f64(0.7), f64(0.3), f64(2.5)}},
			[]int64{7, 25}, true, 3, 1},
		{"ge past the last", index.Pred{Op: index.Ge, Vals: []columnar.Value{f64(99.85)}}, nil, true, 4, 1},
		{"gt", index.Pred{Op: index.Gt, Vals: []columnar.Value{f64(99.7)}}, []int64{998}, true, 3, 0},
	}
	// The block summaries cover the 1024 entries of the index: block 3
	// (rows 768–1023) holds the padding zeros and the deleted row 999
	// (99.9), so it survives pruning for 0 and 99.85; the lookup drops
	// positions ≥ 999 and skips it.
	for _, file := range []string{"ctable_mixed.b2d", "ctable_mixed.b2z"} {
		tb := openTable(t, file)
		c := tb.Schema().Index("score")
		for _, tc := range cases {
			t.Run(file+"/"+tc.name, func(t *testing.T) {
				p := tc.pred
				p.Col = c
				for _, off := range []index.RuleSet{0, index.RuleSet(0).With(index.IndexLookup)} {
					st := &index.ScanStats{}
					spec := index.ScanSpec{Filter: []index.Pred{p}, Stats: st, Threads: 1, Off: off}
					var got []int64
					for _, r := range scanAll(t, tb, spec, "id", "score") {
						if valueIn(p, r[1]) { // the filter above the scan
							got = append(got, r[0].I)
						} else if off == 0 && tc.lookup {
							t.Fatalf("row %d (score %v) came out of the lookup", r[0].I, r[1])
						}
					}
					if !reflect.DeepEqual(got, tc.want) {
						t.Fatalf("rules off %v: ids %v, want %v", off.Names(), got, tc.want)
					}
					if off != 0 {
						if st.SkippedBy[index.IndexLookup] != 0 {
							t.Fatal("lookup ran while switched off")
						}
						continue
					}
					if st.UnitsSkipped != tc.skipped || st.SkippedBy[index.IndexLookup] != tc.byLookup {
						t.Fatalf("skipped %d blocks (%d by the lookup), want %d (%d)",
							st.UnitsSkipped, st.SkippedBy[index.IndexLookup], tc.skipped, tc.byLookup)
					}
					d := tb.DescribeScan(spec)
					if strings.Contains(d, "full index lookup on score") != tc.lookup {
						t.Fatalf("DescribeScan %q, lookup %v", d, tc.lookup)
					}
				}
			})
		}
	}
}

// TestFullIndexStale: the stale FULL index of ctable_stale is never used
// for lookups, and EXPLAIN's description says so.
func TestFullIndexStale(t *testing.T) {
	tb := openTable(t, "ctable_stale.b2d")
	c := tb.Schema().Index("x")
	if tb.usableFull(c) != nil || tb.CanScanOrdered(c) {
		t.Fatal("stale FULL index reported usable")
	}
	p := index.Pred{Col: c, Op: index.Eq, Vals: []columnar.Value{f64(-1)}}
	st := &index.ScanStats{}
	rows := scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Stats: st, Threads: 1}, "x")
	n := 0
	for _, r := range rows {
		if r[0].F == -1 {
			n++
		}
	}
	if n != 1 || st.SkippedBy[index.IndexLookup] != 0 {
		t.Fatalf("x = -1: %d rows, lookup skipped %d", n, st.SkippedBy[index.IndexLookup])
	}
	if d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}}); !strings.Contains(d, "index x stale") || strings.Contains(d, "lookup") {
		t.Fatalf("DescribeScan %q does not say the index is stale", d)
	}
}

// TestLookupNotSelective: a range matching most rows is left to the scan.
func TestLookupNotSelective(t *testing.T) {
	tb := openTable(t, "ctable_mixed.b2d")
	c := tb.Schema().Index("score")
	p := index.Pred{Col: c, Op: index.Gt, Vals: []columnar.Value{f64(10)}}
	st := &index.ScanStats{}
	rows := scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Stats: st, Threads: 1}, "id")
	if st.SkippedBy[index.IndexLookup] != 0 || len(rows) != 996 {
		t.Fatalf("lookup skipped %d blocks, %d rows", st.SkippedBy[index.IndexLookup], len(rows))
	}
	if d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}}); strings.Contains(d, "lookup") {
		t.Fatalf("DescribeScan %q", d)
	}
}

// TestLookupIntersectsRanges: a BETWEEN reaches the scan as >= and <=;
// neither alone is selective (990 and 45 of 1024 entries), together they
// leave 11 (score 1.0 … 2.0, rows 10 … 20), and an IN inside them fewer.
func TestLookupIntersectsRanges(t *testing.T) {
	tb := openTable(t, "ctable_mixed.b2d")
	c := tb.Schema().Index("score")
	ge := index.Pred{Col: c, Op: index.Ge, Vals: []columnar.Value{f64(1)}}
	le := index.Pred{Col: c, Op: index.Le, Vals: []columnar.Value{f64(2)}}
	in := index.Pred{Col: c, Op: index.In, Vals: []columnar.Value{f64(0.5), f64(1.5), f64(1.7), f64(2.5)}}
	cases := []struct {
		preds []index.Pred
		note  string
		ids   []int64
	}{
		{[]index.Pred{ge}, "", nil},
		{[]index.Pred{ge, le}, "full index lookup on score: 11 rows", []int64{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}},
		{[]index.Pred{le, in, ge}, "full index lookup on score: 2 rows", []int64{15, 17}},
	}
	for _, tc := range cases {
		spec := index.ScanSpec{Filter: tc.preds, Threads: 1}
		d := tb.DescribeScan(spec)
		if tc.note == "" {
			if strings.Contains(d, "lookup") {
				t.Fatalf("%v: %s", len(tc.preds), d)
			}
			continue
		}
		if !strings.Contains(d, tc.note) {
			t.Fatalf("DescribeScan %q, want %q", d, tc.note)
		}
		var got []int64
		for _, r := range scanAll(t, tb, spec, "id") {
			got = append(got, r[0].I)
		}
		if !reflect.DeepEqual(got, tc.ids) {
			t.Fatalf("ids %v, want %v", got, tc.ids)
		}
	}
}
