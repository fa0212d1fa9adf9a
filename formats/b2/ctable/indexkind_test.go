package ctable

import (
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// withKind returns a copy of the catalog with column col's descriptor
// changed by edit (the fixture's sidecars stay as they are).
func withKind(cat mpMap, col string, edit func(mpMap) mpMap) mpMap {
	out := make(mpMap, len(cat))
	for i, e := range cat {
		out[i] = e
		if k, _ := e.Key.(string); k == col {
			out[i].Val = edit(append(mpMap(nil), e.Val.(mpMap)...))
		}
	}
	return out
}

func setField(d mpMap, k string, v any) mpMap {
	for i := range d {
		if s, _ := d[i].Key.(string); s == k {
			d[i].Val = v
			return d
		}
	}
	return append(d, mpEntry{k, v})
}

// An index kind b2sql does not know (python-blosc2 ≥ 4.13 catalogs name
// new ones) never prunes, even when its sidecars read like a block
// summary; EXPLAIN says why. The known kinds whose block level is a
// summary of the values do prune.
func TestIndexKindsUsedForPruning(t *testing.T) {
	tb := openTable(t, "ctable_mixed.b2d")
	id := tb.Schema().Index("id")
	pred := index.Pred{Col: id, Op: index.Lt, Vals: []columnar.Value{i64(10)}}
	orig := tb.man.Catalog
	for _, c := range []struct {
		kind   string
		used   bool
		reason string
	}{
		{"summary", true, ""},
		{"bucket", true, ""},
		{"partial", true, ""},
		{"opsi", true, ""},
		{"list", false, `index id of kind "list", which b2sql does not know (not used)`},
		{"membership", false, `index id of kind "membership", which b2sql does not know (not used)`},
	} {
		tb.man.Catalog = withKind(orig, "id", func(d mpMap) mpMap { return setField(d, "kind", c.kind) })
		tb.indexes = catalogIndexes(tb.man, tb.nphys)
		var st index.ScanStats
		rows := scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{pred}, Stats: &st, Off: noLate}, "id")
		// ids 0..9 minus the deleted rows 3 and 4; without pruning every
		// one of the 996 live rows comes out of the scan (the filter is
		// kept above it).
		want := 996
		if c.used {
			want = 256 - 2 // block 0 only: rows 0..255, 3 and 4 deleted
		}
		if len(rows) != want {
			t.Errorf("kind %s: %d rows out of the scan, want %d", c.kind, len(rows), want)
		}
		d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{pred}})
		if c.reason != "" && !strings.Contains(d, c.reason) {
			t.Errorf("kind %s: DescribeScan %q does not say %q", c.kind, d, c.reason)
		}
		if c.used && strings.Contains(d, "not used") {
			t.Errorf("kind %s: DescribeScan %q", c.kind, d)
		}
	}
	// A FULL index over alphabetical ranks (utf8_rank, with its on-disk
	// vocabulary, or dict_rank) summarizes ranks, not values.
	tb.man.Catalog = withKind(orig, "id", func(d mpMap) mpMap {
		return setField(d, "full", mpMap{{"utf8_rank", mpMap{{"vocab_path", "_indexes/id/full.values.utf8_vocab.b2nd"}}}})
	})
	tb.indexes = catalogIndexes(tb.man, tb.nphys)
	if si := tb.indexes["id"]; si == nil || !strings.Contains(si.why, "string ranks (not used") {
		t.Errorf("utf8_rank index: %+v", si)
	}
	// Built with null ranks it is a summary of ranks: never a summary of
	// the column's values.
	tb.man.Catalog = withKind(orig, "id", func(d mpMap) mpMap {
		return setField(d, "full", mpMap{{"utf8_rank", mpMap{{"null_aware", true}, {"vocab_path", "_indexes/id/full.values.utf8_vocab.b2nd"}}}})
	})
	tb.indexes = catalogIndexes(tb.man, tb.nphys)
	if si := tb.indexes["id"]; si == nil || !si.ranked || tb.usableIndex(id) != nil {
		t.Errorf("utf8_rank index with null ranks: %+v, usable as values: %v", si, tb.usableIndex(id) != nil)
	}
}
