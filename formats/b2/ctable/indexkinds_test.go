package ctable

import (
	"reflect"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// ctable_indexkinds.b2d (testdata/README.md) was written by python-blosc2
// 4.11.0 built from its release sources: 6,000 rows whose values follow
// the formulas below, a FULL index on the utf8 column name (ranks and the
// on-disk vocabulary), BUCKET on b, PARTIAL on p, OPSI on o and FULL on x.
// Every expected row set here comes from the formulas, never from an index.

const kindsRows = 6000

var (
	kindsCommon = []string{"pear", "apple", "banana"}
	kindsRare   = []string{"café", "été", "ünïcode", "Zebra", "", "apple pie"}
)

// kindsName is row i's name: NULL every 97th row, one of the rare strings
// every 100th (10 rows each), else one of three common ones.
func kindsName(i int) (string, bool) {
	switch {
	case i%97 == 0:
		return "", false
	case i%100 == 1:
		return kindsRare[(i/100)%6], true
	}
	return kindsCommon[i%3], true
}

func kindsB(i int) int64   { return int64(i*37) % 1000 }
func kindsP(i int) int64   { return int64(i / 3) }
func kindsO(i int) float64 { return float64(i%500) / 4 }

// kindsMatch returns the rows (x = i) whose value satisfies p, by formula.
func kindsMatch(p index.Pred, col string) []int64 {
	var out []int64
	for i := 0; i < kindsRows; i++ {
		var v columnar.Value
		switch col {
		case "name":
			s, ok := kindsName(i)
			if !ok {
				continue
			}
			v = columnar.StringValue(s)
		case "b":
			v = columnar.IntValue(columnar.TInt64, kindsB(i))
		case "p":
			v = columnar.IntValue(columnar.TInt32, kindsP(i))
		case "o":
			v = columnar.FloatValue(columnar.TFloat64, kindsO(i))
		}
		if valueIn(p, v) {
			out = append(out, int64(i))
		}
	}
	return out
}

// TestIndexKindsFixture reads the table whole against the formulas, then
// filters each indexed column and checks the rows and what EXPLAIN says of
// the indexes.
func TestIndexKindsFixture(t *testing.T) {
	tb := openTable(t, "ctable_indexkinds.b2d")
	rows := scanAll(t, tb, index.ScanSpec{Threads: 1}, "x", "name", "b", "p", "o")
	if len(rows) != kindsRows {
		t.Fatalf("%d rows, want %d", len(rows), kindsRows)
	}
	for i, r := range rows {
		s, ok := kindsName(i)
		if r[0].I != int64(i) || r[1].Null == ok || ok && r[1].S != s || r[2].I != kindsB(i) || r[3].I != kindsP(i) || r[4].F != kindsO(i) {
			t.Fatalf("row %d = %v", i, r)
		}
	}

	str := columnarStrings
	cases := []struct {
		col    string
		pred   index.Pred
		lookup bool   // a FULL-index lookup narrows the scan
		note   string // what DescribeScan must say, besides
	}{
		{"name", index.Pred{Op: index.Eq, Vals: str("café")}, true, ""},
		{"name", index.Pred{Op: index.Eq, Vals: str("")}, true, ""},
		{"name", index.Pred{Op: index.Eq, Vals: str("cafe")}, true, ""},
		{"name", index.Pred{Op: index.Lt, Vals: str("a")}, true, ""},                // "" and "Zebra"
		{"name", index.Pred{Op: index.Gt, Vals: str("pear")}, true, ""},             // "ünïcode", "été"
		{"name", index.Pred{Op: index.Between, Vals: str("apple ", "b")}, true, ""}, // "apple pie"
		{"name", index.Pred{Op: index.In, Vals: str("été", "Zebra", "kiwi")}, true, ""},
		// A third of the live rows, but under 2% of the 1,048,576 physical
		// rows (python-blosc2's capacity): still a lookup.
		{"name", index.Pred{Op: index.Eq, Vals: str("pear")}, true, ""},
		{"name", index.Pred{Op: index.Ge, Vals: str("c")}, true, ""},
		{"b", index.Pred{Op: index.Between, Vals: ints(columnar.TInt64, 10, 12)}, false, "bucket index on b"},
		{"p", index.Pred{Op: index.Lt, Vals: ints(columnar.TInt32, 40)}, false, "partial index on p"},
		{"o", index.Pred{Op: index.Ge, Vals: []columnar.Value{columnar.FloatValue(columnar.TFloat64, 124.5)}}, false, "opsi index on o"},
	}
	for _, tc := range cases {
		p := tc.pred
		p.Col = tb.Schema().Index(tc.col)
		want := kindsMatch(p, tc.col)
		spec := index.ScanSpec{Filter: []index.Pred{p}, Threads: 1}
		var got []int64
		for _, r := range scanAll(t, tb, spec, "x", tc.col) {
			if !r[1].Null && valueIn(p, r[1]) { // the filter above the scan
				got = append(got, r[0].I)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s %v: rows %v, want %v", tc.col, p, got, want)
		}
		d := tb.DescribeScan(spec)
		if strings.Contains(d, "full index lookup on "+tc.col) != tc.lookup || !strings.Contains(d, tc.note) {
			t.Errorf("%s %v: DescribeScan %q (lookup %v, note %q)", tc.col, p, d, tc.lookup, tc.note)
		}
	}
}

func columnarStrings(ss ...string) []columnar.Value {
	out := make([]columnar.Value, len(ss))
	for i, s := range ss {
		out[i] = columnar.StringValue(s)
	}
	return out
}

func ints(t columnar.Type, xs ...int64) []columnar.Value {
	out := make([]columnar.Value, len(xs))
	for i, x := range xs {
		out[i] = columnar.IntValue(t, x)
	}
	return out
}
