package parquet

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestDictCodesFiltered: a filtered scan (page index, late
// materialization) hands dictionary-encoded string columns over as codes,
// whether the column is only output, filtered and output, or filtered
// only; numeric dictionary chunks are gathered; PLAIN fallback pages turn
// the batch plain. Rows equal the formulas of dictCols in every mode, and
// with dict_codes off no batch is coded.
func TestDictCodesFiltered(t *testing.T) {
	const n, rg = 5000, 1000
	cols := dictCols()
	path := filepath.Join(t.TempDir(), "d.parquet")
	writeArrow(t, path, cols, 0, n, rg, false,
		parquet.WithPageIndexEnabled(true),
		parquet.WithDataPageSize(1024), // many pages per chunk: seeks skip some
		parquet.WithBatchSize(100),
		parquet.WithDictionaryPageSizeLimit(4<<10)) // long, num: PLAIN after a while
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()

	str := func(s ...string) []columnar.Value {
		var out []columnar.Value
		for _, x := range s {
			out = append(out, columnar.StringValue(x))
		}
		return out
	}
	i64 := func(v int64) []columnar.Value { return []columnar.Value{columnar.IntValue(columnar.TInt64, v)} }
	filters := []struct {
		name  string
		preds []index.Pred
		keep  func(i int) bool // the same filter, on the row formulas
		codes []int            // table columns expected coded in some batch
	}{
		{"small=2 (scattered)", []index.Pred{{Col: 5, Op: index.Eq, Vals: []columnar.Value{columnar.IntValue(columnar.TInt32, 2)}}},
			func(i int) bool { return i%10-5 == 2 }, []int{1, 2}},
		{"s IN, id>=1500", []index.Pred{
			{Col: 1, Op: index.In, Vals: str("s01", "s05", "zz")},
			{Col: 0, Op: index.Ge, Vals: i64(1500)}},
			func(i int) bool { return !isNull(i) && (i%37 == 1 || i%37 == 5) && i >= 1500 }, []int{1, 2}},
		{"r=r2 (runs)", []index.Pred{{Col: 2, Op: index.Eq, Vals: str("r2")}},
			func(i int) bool { return (i/100)%5 == 2 }, []int{1, 2}},
		{"id range (seek)", []index.Pred{{Col: 0, Op: index.Between, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 2345), columnar.IntValue(columnar.TInt64, 2400)}}},
			func(i int) bool { return i >= 2345 && i <= 2400 }, []int{1, 2}},
		// Every row passes: with block pruning off the rows are still
		// filtered, and whole decoded batches become the output.
		{"all pass", []index.Pred{{Col: 5, Op: index.Ge, Vals: []columnar.Value{columnar.IntValue(columnar.TInt32, -5)}}},
			func(i int) bool { return true }, []int{1, 2}},
		// A selective first step, then numeric columns decoded only for
		// the rows still selected: small (dictionary), id (PLAIN after its
		// dictionary fills), ts (NULLs: decoded whole).
		{"r=r2, small>=0, id<4000, ts>=10s", []index.Pred{
			{Col: 2, Op: index.Eq, Vals: str("r2")},
			{Col: 5, Op: index.Ge, Vals: []columnar.Value{columnar.IntValue(columnar.TInt32, 0)}},
			{Col: 0, Op: index.Lt, Vals: i64(4000)},
			{Col: 6, Op: index.Ge, Vals: []columnar.Value{columnar.IntValue(columnar.TTimestamp, 10_010_000)}}},
			func(i int) bool { return (i/100)%5 == 2 && i%10 >= 5 && i < 4000 && !isNull(i) && i%50 >= 10 }, []int{1, 2}},
		{"small=3, id odd hundreds", []index.Pred{
			{Col: 5, Op: index.Eq, Vals: []columnar.Value{columnar.IntValue(columnar.TInt32, 3)}},
			{Op: index.Or, Any: []index.Pred{
				{Col: 0, Op: index.Between, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 100), columnar.IntValue(columnar.TInt64, 199)}},
				{Col: 0, Op: index.Between, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 3300), columnar.IntValue(columnar.TInt64, 3399)}}}}},
			func(i int) bool { return i%10-5 == 3 && ((i >= 100 && i <= 199) || (i >= 3300 && i <= 3399)) }, []int{1, 2}},
		{"s<s03 or r=r4", []index.Pred{{Op: index.Or, Any: []index.Pred{
			{Col: 1, Op: index.Lt, Vals: str("s03")},
			{Col: 2, Op: index.Eq, Vals: str("r4")}}}},
			func(i int) bool { return (!isNull(i) && i%37 < 3) || (i/100)%5 == 4 }, []int{1, 2}},
	}
	outCols := []int{0, 1, 2, 3, 4, 5, 6}
	for _, f := range filters {
		var want []int
		for i := range n {
			if f.keep(i) {
				want = append(want, i)
			}
		}
		for _, m := range scanModes {
			// codes: asked (DictCols), off (the rule switched off), or not
			// asked (strings read as codes are handed out as strings).
			for _, codes := range []string{"asked", "off", "not-asked"} {
				for _, threads := range []int{1, 2} {
					name := fmt.Sprintf("%s/%s/codes=%s/threads=%d", f.name, m.name, codes, threads)
					st := &index.ScanStats{}
					spec := m.spec(outCols, f.preds, threads, st)
					switch codes {
					case "asked":
						spec.DictCols = []int{1, 2, 3}
					case "off":
						spec.DictCols = []int{1, 2, 3}
						spec.Off = spec.Off.With(index.DictCodes)
					}
					rows, coded := scanCodes(t, tb, spec)
					checkDictRows(t, name, cols, rows, want)
					if !spec.On(index.DictCodes) || codes == "not-asked" {
						if st.DictUnits != 0 || slices.ContainsFunc(coded, func(c int) bool { return c > 0 }) {
							t.Errorf("%s: no codes asked for, yet DictUnits %d, coded batches %v", name, st.DictUnits, coded)
						}
						continue
					}
					for _, c := range f.codes {
						if coded[c] == 0 {
							t.Errorf("%s: column %s never coded (coded batches %v)", name, cols[c].name, coded)
						}
					}
					if st.DictUnits == 0 {
						t.Errorf("%s: DictUnits 0", name)
					}
					if coded[0]+coded[4]+coded[5]+coded[6] != 0 {
						t.Errorf("%s: coded batches %v: numbers coded", name, coded)
					}
				}
			}
		}
	}
}

// checkDictRows compares scanned rows (any order across row groups) with
// the formula rows of the ids in want.
func checkDictRows(t *testing.T, where string, cols []tcol, rows [][]columnar.Value, want []int) {
	t.Helper()
	if len(rows) != len(want) {
		t.Fatalf("%s: %d rows, want %d", where, len(rows), len(want))
	}
	got := make([][]columnar.Value, len(rows))
	copy(got, rows)
	slices.SortFunc(got, func(a, b []columnar.Value) int { return int(a[0].I - b[0].I) })
	for k, row := range got {
		id := want[k]
		for c, col := range cols {
			exp := col.val(id)
			if col.nullable && isNull(id) {
				exp = columnar.NullValue(col.want)
			}
			if !sameValue(row[c], exp) {
				t.Fatalf("%s: row of id %d, column %s: got %v, want %v", where, id, col.name, row[c], exp)
			}
		}
	}
}
