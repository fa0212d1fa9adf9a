package index

import (
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func TestShares(t *testing.T) {
	i16 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt16, v) }
	str := columnar.StringValue("a")
	stats := map[int]Stats{
		// region 0..19 over 1,000 rows
		0: {HasMinMax: true, Min: i16(0), Max: i16(19), NullCount: 0, Rows: 1000},
		// one value
		1: {HasMinMax: true, Min: i16(5), Max: i16(5), NullCount: 0, Rows: 1000},
		2: {HasMinMax: true, Min: str, Max: str, NullCount: 0, Rows: 1000},
	}
	get := func(c int) (Stats, bool) { s, ok := stats[c]; return s, ok }
	eq := []struct {
		p    Pred
		want float64
		ok   bool
	}{
		{Pred{Col: 0, Op: Eq, Vals: []columnar.Value{i16(3)}}, 1.0 / 20, true},
		{Pred{Col: 0, Op: In, Vals: []columnar.Value{i16(3), i16(4)}}, 2.0 / 20, true},
		{Pred{Col: 1, Op: Eq, Vals: []columnar.Value{i16(5)}}, 1, true},
		{Pred{Col: 0, Op: Lt, Vals: []columnar.Value{i16(3)}}, 0, false},
		{Pred{Col: 2, Op: Eq, Vals: []columnar.Value{str}}, 0, false},
		{Pred{Col: 9, Op: Eq, Vals: []columnar.Value{i16(1)}}, 0, false},
	}
	for _, c := range eq {
		got, ok := EqShare(c.p, get)
		if ok != c.ok || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("EqShare(%v) = %v, %v; want %v, %v", c.p, got, ok, c.want, c.ok)
		}
	}
	// region >= 5 AND region <= 14 (half of [0, 19]) AND a string equality
	share, bounded, others := RangeShare([]Pred{
		{Col: 0, Op: Ge, Vals: []columnar.Value{i16(5)}},
		{Col: 0, Op: Le, Vals: []columnar.Value{i16(14)}},
		{Col: 2, Op: Eq, Vals: []columnar.Value{str}},
	}, get)
	if math.Abs(share-9.0/19) > 1e-12 || !bounded || !others {
		t.Errorf("RangeShare = %v, %v, %v; want %v, true, true", share, bounded, others, 9.0/19)
	}
}
