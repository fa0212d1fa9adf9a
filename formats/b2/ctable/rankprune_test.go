package ctable

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// ctable_utf8ranks.b2d (testdata/README.md), written by python-blosc2
// 4.11.0: 320,000 rows, row k has city ranksCities[k / 40000] (NULL when
// k < 40000 and k % 1000 = 999) and n = k; a FULL index on city whose block
// summary has 8 segments of 40,000 rows, one city each. By code point the
// vocabulary is Amsterdam < Berlin < Cairo < Dakar < Lyon < Oslo < Zürich
// < Évora, ranks 0 … 7, and NULL has rank 8: segment 0 spans ranks [0, 8]
// and can be skipped only when nothing matches.
var ranksCities = []string{"Amsterdam", "Berlin", "Cairo", "Dakar", "Évora", "Lyon", "Oslo", "Zürich"}

const ranksRows, ranksSeg = 320000, 40000

func TestRankPruning(t *testing.T) {
	tb, err := Open(filepath.Join("testdata", "ctable_utf8ranks.b2d"))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	city := tb.Schema().Index("city")
	s := columnar.StringValue
	for _, tc := range []struct {
		p      index.Pred
		blocks []int // the segments that can match, by hand
	}{
		{index.Pred{Op: index.Eq, Vals: []columnar.Value{s("Cairo")}}, []int{0, 2}},
		{index.Pred{Op: index.Between, Vals: []columnar.Value{s("B"), s("D")}}, []int{0, 1, 2}},
		{index.Pred{Op: index.Gt, Vals: []columnar.Value{s("Oslo")}}, []int{0, 4, 7}},
		{index.Pred{Op: index.In, Vals: []columnar.Value{s("Lyon"), s("Paris")}}, []int{0, 5}},
		{index.Pred{Op: index.Lt, Vals: []columnar.Value{s("A")}}, nil},
		{index.Pred{Op: index.Ge, Vals: []columnar.Value{s("Amsterdam")}}, []int{0, 1, 2, 3, 4, 5, 6, 7}},
	} {
		p := tc.p
		p.Col = city
		name := p.String(tb.Schema())
		// By formula: the matching rows, and the rows of the kept blocks.
		want := 0
		keep := map[int]bool{}
		for _, b := range tc.blocks {
			keep[b] = true
		}
		for k := 0; k < ranksRows; k++ {
			if (k >= ranksSeg || k%1000 != 999) && valueIn(p, s(ranksCities[k/ranksSeg])) {
				want++
				if !keep[k/ranksSeg] {
					t.Fatalf("%s: row %d matches in block %d, which the case skips", name, k, k/ranksSeg)
				}
			}
		}
		spec := index.ScanSpec{Filter: []index.Pred{p}, Off: noLate}
		rows := scanAll(t, tb, spec, "city", "n")
		if len(rows) != len(tc.blocks)*ranksSeg {
			t.Errorf("%s: %d rows out of the scan, want the %d blocks %v", name, len(rows), len(tc.blocks), tc.blocks)
		}
		got := 0
		for _, r := range rows {
			if !r[0].Null && valueIn(p, r[0]) {
				got++
				if blk := int(r[1].I) / ranksSeg; !keep[blk] {
					t.Errorf("%s: row %d from block %d", name, r[1].I, blk)
				}
			}
		}
		if got != want {
			t.Errorf("%s: %d matching rows, want %d", name, got, want)
		}
		d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}})
		wantD := fmt.Sprintf("blocks=%d/%d (full index ranks on city", len(tc.blocks), (tb.nphys+ranksSeg-1)/ranksSeg)
		if !strings.HasPrefix(d, wantD) {
			t.Errorf("%s: DescribeScan %q, want it to start %q", name, d, wantD)
		}
		// Without block pruning the same rows match.
		rows = scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Off: noLate.With(index.BlockPruning).With(index.IndexLookup)}, "city")
		got = 0
		for _, r := range rows {
			if !r[0].Null && valueIn(p, r[0]) {
				got++
			}
		}
		if len(rows) != ranksRows || got != want {
			t.Errorf("%s without pruning: %d rows, %d matching, want %d, %d", name, len(rows), got, ranksRows, want)
		}
	}
}

// FuzzRankSummary replaces the block summary of ranks of
// ctable_utf8ranks.b2d's city index by fuzzed bytes and plans and scans a
// range on city: nothing may panic, errors wrap ErrCorrupt or
// ErrUnsupported, and every row that comes out is one of the table's (the
// filter stays above the scan: a damaged summary may skip blocks, never
// invent rows).
func FuzzRankSummary(f *testing.F) {
	const member = "_indexes/city/full.summary.block.b2nd"
	b, err := os.ReadFile(filepath.Join("testdata", "ctable_utf8ranks.b2d", member))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		g.Allow(fuzzTableCost)
		tb, err := openStore(fixtureWith(t, "ctable_utf8ranks.b2d", member, data), "fuzz.b2d")
		if err != nil {
			t.Fatal(err) // only a sidecar changed: the table itself opens
		}
		defer tb.Close()
		city := tb.Schema().Index("city")
		p := index.Pred{Col: city, Op: index.Between, Vals: []columnar.Value{columnar.StringValue("B"), columnar.StringValue("D")}}
		tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}})
		rows, err := scanRows(tb, index.ScanSpec{Filter: []index.Pred{p}, Threads: 1, Limit: 3}, "city", "n")
		if failed(t, err) {
			return
		}
		for _, r := range rows {
			if k := r[1].I; r[0].Null != (k < ranksSeg && k%1000 == 999) || !r[0].Null && r[0].S != ranksCities[k/ranksSeg] {
				t.Fatalf("row %v is not the table's row %d", r, k)
			}
		}
	})
}
