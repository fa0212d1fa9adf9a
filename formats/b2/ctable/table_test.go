package ctable

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

func openTable(t *testing.T, name string) *Table {
	t.Helper()
	tb, err := Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

const mixedSchema = "id BIGINT, i8 TINYINT, u16 USMALLINT, f32 FLOAT, score DOUBLE, flag BOOLEAN, " +
	"z_re DOUBLE, z_im DOUBLE, code VARCHAR, raw BLOB, text VARCHAR, city VARCHAR, note VARCHAR, " +
	"blob BLOB, opt INTEGER, sent DOUBLE"

// mixedRow is the fixtures README §5.1 table: the values of physical row i.
func mixedRow(i int) []any {
	var note, opt, sent any
	if i%5 != 0 {
		note = "note " + strconv.Itoa(i)
	}
	if i%10 != 0 {
		opt = int64(i * 3)
	}
	if i%9 != 0 {
		sent = float64(i) * 0.25
	}
	blob := make([]byte, i%7)
	for k := range blob {
		blob[k] = byte(k)
	}
	return []any{
		int64(i), int64(i%256 - 128), int64((i * 7) % 65536), float64(float32(i) * 0.5),
		float64(i%1000) / 10.0, i%3 == 0, float64(i), -float64(i),
		fmt.Sprintf("c%05d", i), []byte{byte(i % 256), byte((i + 1) % 256), 0x41, 0x42},
		strings.Repeat("é", i%4) + "t" + strconv.Itoa(i),
		[]string{"Lyon", "Paris", "Nice", "Brest"}[i%4], note, blob, opt, sent,
	}
}

// mixedLive lists the live physical rows: 0..998 without 3, 4 and 500
// (999 was deleted and trimmed away).
func mixedLive() []int {
	var out []int
	for i := 0; i < 999; i++ {
		if i != 3 && i != 4 && i != 500 {
			out = append(out, i)
		}
	}
	return out
}

func TestMixedEveryValue(t *testing.T) {
	for _, file := range []string{"ctable_mixed.b2d", "ctable_mixed.b2z"} {
		t.Run(file, func(t *testing.T) {
			tb := openTable(t, file)
			if got := schemaString(tb.Schema()); got != mixedSchema {
				t.Fatalf("schema\n %s\nwant\n %s", got, mixedSchema)
			}
			if tb.RowCount() != 996 {
				t.Fatalf("RowCount %d", tb.RowCount())
			}
			nullable := map[string]bool{"city": true, "note": true, "opt": true, "sent": true}
			for _, f := range tb.Schema() {
				if f.Nullable != nullable[f.Name] {
					t.Errorf("column %s nullable=%v", f.Name, f.Nullable)
				}
			}
			live := mixedLive()
			for _, threads := range []int{1, 3} {
				rows := scanAll(t, tb, index.ScanSpec{Threads: threads})
				if len(rows) != len(live) {
					t.Fatalf("threads=%d: %d rows, want %d", threads, len(rows), len(live))
				}
				sortByID(rows)
				for k, i := range live {
					checkRow(t, fmt.Sprintf("threads=%d physical row %d", threads, i), rows[k], mixedRow(i))
				}
			}
		})
	}
}

// sortByID orders rows of an unordered scan by their first column.
func sortByID(rows [][]columnar.Value) {
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && rows[j][0].I < rows[j-1][0].I; j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
}

func TestMixedDirAndZipAgree(t *testing.T) {
	d, z := openTable(t, "ctable_mixed.b2d"), openTable(t, "ctable_mixed.b2z")
	a := scanAll(t, d, index.ScanSpec{Threads: 1})
	b := scanAll(t, z, index.ScanSpec{Threads: 1})
	if !reflect.DeepEqual(fmtRows(a), fmtRows(b)) {
		t.Fatal(".b2d and .b2z differ")
	}
	if !reflect.DeepEqual(d.Metadata(), z.Metadata()) {
		t.Fatalf("metadata differs:\n%v\n%v", d.Metadata(), z.Metadata())
	}
}

func fmtRows(rows [][]columnar.Value) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprint(r)
	}
	return out
}

func TestMixedProjection(t *testing.T) {
	tb := openTable(t, "ctable_mixed.b2z")
	rows := scanAll(t, tb, index.ScanSpec{Threads: 1}, "sent", "z_im", "note")
	live := mixedLive()
	for k, i := range live {
		w := mixedRow(i)
		checkRow(t, fmt.Sprint(i), rows[k], []any{w[15], w[7], w[12]})
	}
	// Only the referenced columns were opened.
	for _, s := range tb.srcs {
		opened := s.data != nil || s.ba != nil
		want := s.spec.Name == "sent" || s.spec.Name == "z" || s.spec.Name == "note"
		if opened != want {
			t.Errorf("column %s opened=%v", s.spec.Name, opened)
		}
	}
}

func TestMixedLimit(t *testing.T) {
	tb := openTable(t, "ctable_mixed.b2d")
	rows := scanAll(t, tb, index.ScanSpec{Limit: 10, Threads: 4}, "id")
	want := []int64{0, 1, 2, 5, 6, 7, 8, 9, 10, 11}
	if len(rows) != len(want) {
		t.Fatalf("%d rows", len(rows))
	}
	for k, r := range rows {
		if r[0].I != want[k] {
			t.Fatalf("row %d id %d, want %d", k, r[0].I, want[k])
		}
	}
}

func TestStaleEveryValue(t *testing.T) {
	tb := openTable(t, "ctable_stale.b2d")
	if got, want := schemaString(tb.Schema()), "ts TIMESTAMP, x DOUBLE, ok BOOLEAN, tag VARCHAR, n UTINYINT"; got != want {
		t.Fatalf("schema %s", got)
	}
	if tb.RowCount() != 301 {
		t.Fatalf("RowCount %d", tb.RowCount())
	}
	rows := scanAll(t, tb, index.ScanSpec{Threads: 1})
	if len(rows) != 301 {
		t.Fatalf("%d rows", len(rows))
	}
	for i := 0; i < 300; i++ {
		var ok, tag, n any
		if i%4 != 3 {
			ok = i%2 == 0
		}
		if i%6 != 5 {
			tag = "t" + strconv.Itoa(i%100)
		}
		if i%8 != 7 {
			n = int64(i % 200)
		}
		checkRow(t, fmt.Sprint(i), rows[i], []any{(1700000000000 + 1000*int64(i)) * 1000, float64(i) * 0.5, ok, tag, n})
	}
	checkRow(t, "300", rows[300], []any{int64(1800000000000) * 1000, -1.0, true, "new", int64(1)})
}

func TestSummaryPruning(t *testing.T) {
	for _, file := range []string{"ctable_mixed.b2d", "ctable_mixed.b2z"} {
		t.Run(file, func(t *testing.T) {
			tb := openTable(t, file)
			col := tb.Schema().Index("id")
			// id = physical row: blocks of 256 rows; id 300..310 is in block 1.
			p := index.Pred{Col: col, Op: index.Between, Vals: []columnar.Value{i64(300), i64(310)}}
			if s := tb.SupportsFilter(p); s != index.Inexact {
				t.Fatalf("SupportsFilter %v", s)
			}
			var st index.ScanStats
			rows := scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Stats: &st, Threads: 2, Off: noLate}, "id")
			if st.UnitName != "blocks" || st.UnitsTotal != 4 || st.UnitsSkipped != 3 || st.UnitsDone != 1 ||
				st.RowsRead != 255 || st.BytesRead <= 0 {
				t.Fatalf("stats %+v", st)
			}
			if len(rows) != 255 {
				t.Fatalf("%d rows read, want block 1's 256 minus deleted row 500", len(rows))
			}
			if d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}}); d != "blocks=1/4 (summary index on id)" {
				t.Fatalf("DescribeScan %q", d)
			}
			// u16 (built before close over 1024 rows) and score (FULL) prune too.
			u16 := tb.Schema().Index("u16")
			pu := index.Pred{Col: u16, Op: index.Lt, Vals: []columnar.Value{columnar.IntValue(columnar.TUint16, 7)}}
			st = index.ScanStats{}
			scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{pu}, Stats: &st}, "u16")
			// Block 3's extrema include the zero padding rows 999..1023 of
			// the 1024-row build, so only blocks 1 and 2 are skipped.
			if st.UnitsSkipped != 2 {
				t.Fatalf("u16 < 7: %+v", st)
			}
			score := tb.Schema().Index("score")
			ps := index.Pred{Col: score, Op: index.Gt, Vals: []columnar.Value{columnar.FloatValue(columnar.TFloat64, 76.75)}}
			if d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{ps}}); d != "blocks=1/4 (full index on score)" {
				t.Fatalf("DescribeScan %q", d)
			}
			// opt is null-aware: block 0's min is 3, so opt < 3 skips all.
			opt := tb.Schema().Index("opt")
			po := index.Pred{Col: opt, Op: index.Lt, Vals: []columnar.Value{columnar.IntValue(columnar.TInt32, 3)}}
			st = index.ScanStats{}
			if rows := scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{po}, Stats: &st}, "opt"); len(rows) != 0 || st.UnitsSkipped != 4 {
				t.Fatalf("opt < 3: %d rows, %+v", len(rows), st)
			}
			// Columns without an index are pushed for late materialization
			// alone (evaluated while decoding, no block skipped).
			if s := tb.SupportsFilter(index.Pred{Col: tb.Schema().Index("code"), Op: index.Eq, Vals: []columnar.Value{columnar.StringValue("c00001")}}); s != index.Inexact {
				t.Fatalf("code: %v", s)
			}
			// NoPrune reads everything.
			st = index.ScanStats{}
			rows = scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Stats: &st, NoPrune: true}, "id")
			if len(rows) != 996 || st.UnitsSkipped != 0 {
				t.Fatalf("NoPrune: %d rows %+v", len(rows), st)
			}
		})
	}
}

// TestPruningNeverChangesResults filters every scan above the table and
// compares with and without pruning over a set of predicates.
func TestPruningNeverChangesResults(t *testing.T) {
	tb := openTable(t, "ctable_mixed.b2z")
	s := tb.Schema()
	f := func(c string, v float64) columnar.Value { return columnar.FloatValue(s[s.Index(c)].Type, v) }
	n := func(c string, v int64) columnar.Value { return columnar.IntValue(s[s.Index(c)].Type, v) }
	preds := []index.Pred{
		{Col: s.Index("i8"), Op: index.Eq, Vals: []columnar.Value{n("i8", -1)}},
		{Col: s.Index("f32"), Op: index.Ge, Vals: []columnar.Value{f("f32", 400)}},
		{Col: s.Index("flag"), Op: index.Eq, Vals: []columnar.Value{columnar.BoolValue(true)}},
		{Col: s.Index("sent"), Op: index.Lt, Vals: []columnar.Value{f("sent", 10)}},
		{Col: s.Index("sent"), Op: index.IsNull},
		{Col: s.Index("opt"), Op: index.In, Vals: []columnar.Value{n("opt", 33), n("opt", 2994)}},
		{Col: s.Index("id"), Op: index.Or, Any: []index.Pred{
			{Col: s.Index("id"), Op: index.Lt, Vals: []columnar.Value{n("id", 2)}},
			{Col: s.Index("id"), Op: index.Gt, Vals: []columnar.Value{n("id", 997)}}}},
	}
	for _, p := range preds {
		t.Run(p.String(s), func(t *testing.T) {
			var on, off []string
			for _, noPrune := range []bool{false, true} {
				rows := scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, NoPrune: noPrune, Threads: 1}, "id", s[p.Col].Name)
				var kept []string
				for _, r := range rows {
					if evalPred(p, r[1]) {
						kept = append(kept, r[0].String())
					}
				}
				if noPrune {
					off = kept
				} else {
					on = kept
				}
			}
			if !reflect.DeepEqual(on, off) || len(on) == 0 {
				t.Fatalf("pruned %v, unpruned %v", on, off)
			}
		})
	}
}

// evalPred is a reference evaluation of a single-column predicate.
func evalPred(p index.Pred, v columnar.Value) bool {
	switch p.Op {
	case index.IsNull:
		return v.Null
	case index.IsNotNull:
		return !v.Null
	case index.Or:
		for _, q := range p.Any {
			if evalPred(q, v) {
				return true
			}
		}
		return false
	}
	if v.Null || (v.Type.IsFloat() && math.IsNaN(v.F)) {
		return false
	}
	c := columnar.Compare(v, p.Vals[0])
	switch p.Op {
	case index.Eq:
		return c == 0
	case index.Ne:
		return c != 0
	case index.Lt:
		return c < 0
	case index.Le:
		return c <= 0
	case index.Gt:
		return c > 0
	case index.Ge:
		return c >= 0
	case index.Between:
		return c >= 0 && columnar.Compare(v, p.Vals[1]) <= 0
	case index.In:
		for _, x := range p.Vals {
			if columnar.Compare(v, x) == 0 {
				return true
			}
		}
	}
	return false
}

func TestStaleIndexNotUsed(t *testing.T) {
	tb := openTable(t, "ctable_stale.b2d")
	x := tb.Schema().Index("x")
	p := index.Pred{Col: x, Op: index.Lt, Vals: []columnar.Value{columnar.FloatValue(columnar.TFloat64, 0)}}
	// Inexact through late materialization (rows are evaluated while
	// decoding), never through the stale index: no block is skipped.
	if s := tb.SupportsFilter(p); s != index.Inexact {
		t.Fatalf("SupportsFilter %v on a stale index", s)
	}
	var st index.ScanStats
	rows := scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Stats: &st, Off: noLate}, "x")
	if len(rows) != 301 || st.UnitsSkipped != 0 {
		t.Fatalf("%d rows, %+v", len(rows), st)
	}
	if d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}}); d != "blocks=2/2 (index x stale)" {
		t.Fatalf("DescribeScan %q", d)
	}
}

func TestMetadata(t *testing.T) {
	tb := openTable(t, "ctable_mixed.b2z")
	got := map[string]string{}
	for _, e := range tb.Metadata() {
		got[e.Scope+"/"+e.Key] = e.Value
	}
	want := map[string]string{
		"table/owner":               `"fixture"`,
		"manifest/kind":             `"ctable"`,
		"manifest/version":          "1",
		"manifest/value_epoch":      "1",
		"manifest/visibility_epoch": "1",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if !strings.Contains(got["manifest/index_catalog"], `"stale": false`) {
		t.Errorf("index_catalog rendering: %.200s", got["manifest/index_catalog"])
	}
}

func TestOpenErrors(t *testing.T) {
	_, err := Open("testdata/nope.b2d")
	if err == nil {
		t.Fatal("no error for a missing table")
	}
	_, err = Open("testdata/ctable_mixed.b2d/_cols")
	if !errors.Is(err, b2.ErrCorrupt) || !strings.Contains(err.Error(), "_meta.b2f") {
		t.Fatalf("directory without manifest: %v", err)
	}
}
