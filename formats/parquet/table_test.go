package parquet

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// checkRows verifies every value of rows [0, n) against the formulas; rows
// may come in any order (column 0 of cols must be "id").
func checkRows(t *testing.T, got [][]columnar.Value, cols []tcol, n int, ordered bool) {
	t.Helper()
	if len(got) != n {
		t.Fatalf("got %d rows, want %d", len(got), n)
	}
	seen := make([]bool, n)
	for k, row := range got {
		id := int(row[0].I)
		if id < 0 || id >= n || seen[id] {
			t.Fatalf("row %d: bad or duplicate id %d", k, id)
		}
		seen[id] = true
		if ordered && id != k {
			t.Fatalf("row %d has id %d: not in file order", k, id)
		}
		for c, tc := range cols {
			want := tc.val(id)
			if tc.nullable && isNull(id) {
				want = columnar.NullValue(tc.want)
			}
			if !sameValue(row[c], want) {
				t.Fatalf("id %d column %q: got %v (%s), want %v (%s)", id, tc.name, row[c], row[c].Type, want, want.Type)
			}
		}
	}
}

func TestTypes(t *testing.T) {
	const n = 1000
	cols := allCols()
	for _, tc := range []struct {
		name  string
		props []parquet.WriterProperty
	}{
		{"plain", []parquet.WriterProperty{parquet.WithDictionaryDefault(false)}},
		{"dict", []parquet.WriterProperty{parquet.WithDictionaryDefault(true)}},
		{"v2pages", []parquet.WriterProperty{parquet.WithDataPageVersion(parquet.DataPageV2)}},
		{"decimal-as-int", []parquet.WriterProperty{parquet.WithStoreDecimalAsInteger(true)}},
		{"delta", deltaProps("id", "i8", "i16", "i32", "u8", "u16", "u32", "u64", "d", "tsms", "tsus", "tsns", "t32", "t64", "dec")},
		{"delta-v2pages", append(deltaProps("id", "i16", "u32", "tsus", "d"), parquet.WithDataPageVersion(parquet.DataPageV2))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "types.parquet")
			writeArrow(t, path, cols, 0, n, 100, true, tc.props...)
			tb, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			sc := tb.Schema()
			if len(sc) != len(cols)+1 || sc[len(cols)].Name != "tags" || sc[len(cols)].Type != columnar.ListOf(columnar.TInt32) {
				t.Fatalf("schema %v, want the %d columns and tags INTEGER[]", sc, len(cols))
			}
			for i, c := range cols {
				if sc[i].Name != c.name || sc[i].Type != c.want || sc[i].Nullable != c.nullable {
					t.Errorf("column %d: got %s %s nullable=%v, want %s %s nullable=%v", i, sc[i].Name, sc[i].Type, sc[i].Nullable, c.name, c.want, c.nullable)
				}
			}
			if got := tb.Skipped(); len(got) != 0 {
				t.Errorf("Skipped() = %v, want none", got)
			}
			if tb.RowCount() != n || tb.RowGroups() != 10 {
				t.Fatalf("RowCount %d RowGroups %d", tb.RowCount(), tb.RowGroups())
			}
			if strings.HasPrefix(tc.name, "delta") {
				// The delta decoder must be what reads these columns.
				for _, name := range []string{"id", "i16", "u32", "tsus", "d"} {
					c := &tb.cols[tb.Schema().Index(name)]
					cc, err := tb.files[0].meta.RowGroup(0).ColumnChunk(c.leaf)
					if err != nil || !hasDeltaPages(cc) || !deltaInts(c) || cc.HasDictionaryPage() {
						t.Fatalf("column %s: not a DELTA_BINARY_PACKED chunk for codeReader (%v)", name, err)
					}
				}
			}
			for _, threads := range []int{1, 2, 4} {
				rows := readAll(t, tb, index.ScanSpec{Cols: allColumns(len(cols)), Limit: -1, Threads: threads})
				checkRows(t, rows, cols, n, threads == 1)
			}
			// A sparse filter: late materialization reads the other columns
			// for the kept rows (dictionary and DELTA numbers gather only
			// those rows, decodeRows), every type.
			ids := []int{5, 17, 333, 334, 901}
			var in []columnar.Value
			for _, id := range ids {
				in = append(in, columnar.IntValue(columnar.TInt64, int64(id)))
			}
			for _, threads := range []int{1, 2} {
				kept := readAll(t, tb, index.ScanSpec{Cols: allColumns(len(cols)), Filter: []index.Pred{{Col: 0, Op: index.In, Vals: in}}, Limit: -1, Threads: threads})
				checkRowNums(t, tc.name+" id IN", cols, kept, ids)
			}
			// The LIST column beside the flat ones: whole, under a sparse
			// filter (late, skipping rows) and a dense one (every row kept).
			tags := len(cols)
			checkTags(t, readAll(t, tb, index.ScanSpec{Cols: []int{0, tags}, Limit: -1, Threads: 2}), n)
			checkTags(t, readAll(t, tb, index.ScanSpec{Cols: []int{tags, 0}, Filter: []index.Pred{{Col: 0, Op: index.In, Vals: in}}, Limit: -1, Threads: 1}), len(ids))
			all := []index.Pred{{Col: 0, Op: index.Ge, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 0)}}}
			checkTags(t, readAll(t, tb, index.ScanSpec{Cols: []int{tags, 0}, Filter: all, Limit: -1, Threads: 1}), n)
			// A projection in another order.
			proj := []int{11, 0, 5}
			rows := readAll(t, tb, index.ScanSpec{Cols: proj, Limit: -1, Threads: 1})
			sub := []tcol{cols[0], cols[11], cols[5]}
			for k := range rows {
				rows[k][0], rows[k][1] = rows[k][1], rows[k][0]
			}
			checkRows(t, rows, sub, n, true)
		})
	}
}

// checkTags checks rows of (id, tags) in either order: writeArrow's tags
// of row id are [0, 1, …, id%3 - 1], never NULL.
func checkTags(t *testing.T, rows [][]columnar.Value, n int) {
	t.Helper()
	if len(rows) != n {
		t.Fatalf("%d rows, want %d", len(rows), n)
	}
	for _, r := range rows {
		id, tags := r[0], r[1]
		if id.Type.IsNested() {
			id, tags = tags, id
		}
		want := []string{"[]", "[0]", "[0, 1]"}[id.I%3]
		if tags.String() != want {
			t.Fatalf("id %d: tags %s, want %s", id.I, tags, want)
		}
	}
}

// deltaProps are writer properties that write the named integer columns
// DELTA_BINARY_PACKED (and every column without a dictionary).
func deltaProps(cols ...string) []parquet.WriterProperty {
	props := []parquet.WriterProperty{parquet.WithDictionaryDefault(false), parquet.WithStoreDecimalAsInteger(true)}
	for _, c := range cols {
		props = append(props, parquet.WithEncodingFor(c, parquet.Encodings.DeltaBinaryPacked))
	}
	return props
}

func TestInt96(t *testing.T) {
	path := filepath.Join(t.TempDir(), "int96.parquet")
	cols := allCols()
	// INT96 carries no zone: the zoned tsns is written as a plain
	// timestamp and reads back as TIMESTAMP, as DuckDB reads INT96.
	tsns := cols[17]
	zoned := tsns.val
	tsns.want = columnar.TTimestamp
	tsns.val = func(i int) columnar.Value {
		v := zoned(i)
		v.Type = columnar.TTimestamp
		return v
	}
	ts := []tcol{cols[0], cols[16], tsns} // id, tsus, tsns
	writeInt96(t, path, ts, 300)
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	// arrow-go writes only nanosecond timestamps as INT96.
	if tb.cols[2].kind != kInt96 {
		t.Fatalf("writer did not produce INT96 columns: %+v", tb.cols)
	}
	rows := readAll(t, tb, index.ScanSpec{Cols: []int{0, 1, 2}, Limit: -1, Threads: 1})
	checkRows(t, rows, ts, 300, true)
}

func TestName(t *testing.T) {
	for in, want := range map[string]string{
		"data/events.parquet": "events",
		"events":              "events",
		"a/b/part-*.parquet":  "part-*",
		"dir/":                "dir",
	} {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGlob(t *testing.T) {
	dir := t.TempDir()
	cols := allCols()[:4]
	// Written out of name order on purpose: Open sorts by name.
	writeArrow(t, filepath.Join(dir, "p2.parquet"), cols, 600, 400, 150, false)
	writeArrow(t, filepath.Join(dir, "p0.parquet"), cols, 0, 250, 100, false)
	writeArrow(t, filepath.Join(dir, "p1.parquet"), cols, 250, 350, 1000, false)
	for _, pattern := range []string{filepath.Join(dir, "p*.parquet"), dir} {
		tb, err := Open(pattern)
		if err != nil {
			t.Fatal(err)
		}
		if len(tb.Files()) != 3 || tb.RowGroups() != 3+1+3 || tb.RowCount() != 1000 {
			t.Fatalf("files %v row groups %d rows %d", tb.Files(), tb.RowGroups(), tb.RowCount())
		}
		checkRows(t, readAll(t, tb, index.ScanSpec{Cols: []int{0, 1, 2, 3}, Limit: -1, Threads: 1}), cols, 1000, true)
		checkRows(t, readAll(t, tb, index.ScanSpec{Cols: []int{0, 1, 2, 3}, Limit: -1, Threads: 3}), cols, 1000, false)
		if !strings.Contains(tb.DescribeScan(index.ScanSpec{Limit: -1}), "files=3") {
			t.Errorf("DescribeScan = %q", tb.DescribeScan(index.ScanSpec{Limit: -1}))
		}
		tb.Close()
	}

	// A file with another schema is named in the error.
	writeArrow(t, filepath.Join(dir, "p3.parquet"), allCols()[:3], 0, 10, 10, false)
	_, err := Open(filepath.Join(dir, "p*.parquet"))
	if !errors.Is(err, ErrSchemaMismatch) || !strings.Contains(err.Error(), "p3.parquet") {
		t.Fatalf("mismatch error = %v", err)
	}
	_, err = Open(filepath.Join(dir, "nothing*.parquet"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("no-match error = %v", err)
	}
	_, err = Open(filepath.Join(dir, "missing.parquet"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file error = %v", err)
	}
}

func TestLimitAndOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.parquet")
	cols := allCols()[:2]
	writeArrow(t, path, cols, 0, 10000, 1000, false)
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	for _, tc := range []struct {
		limit   int64
		threads int
		want    int
		rgs     int64 // row groups read
	}{
		{0, 4, 0, 0},
		{1, 4, 1, 1},
		{250, 4, 250, 1},
		{2500, 4, 2500, 3},
		{2500, 1, 2500, 3},
		{20000, 4, 10000, 10},
	} {
		var st index.ScanStats
		rows := readAll(t, tb, index.ScanSpec{Cols: []int{0, 1}, Limit: tc.limit, Threads: tc.threads, Stats: &st})
		checkRows(t, rows, cols, tc.want, true)
		if st.RowsRead > tc.rgs*1000 || st.UnitsTotal != 10 {
			t.Errorf("limit %d: stats %+v, want at most %d row groups read", tc.limit, st, tc.rgs)
		}
	}
	// No columns at all (count(*)): only lengths.
	r, err := tb.Scan(context.Background(), index.ScanSpec{Limit: -1, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for {
		b, err := r.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		total += b.Live()
	}
	r.Close()
	if total != 10000 {
		t.Fatalf("empty projection counted %d rows", total)
	}
}

func TestCancel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.parquet")
	writeArrow(t, path, allCols()[:2], 0, 50000, 1000, false)
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	for _, threads := range []int{1, 4} {
		ctx, cancel := context.WithCancel(context.Background())
		r, err := tb.Scan(ctx, index.ScanSpec{Cols: []int{0, 1}, Limit: -1, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Next(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
		for {
			_, err = r.Next(context.Background())
			if err != nil {
				break
			}
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("threads %d: after cancel got %v", threads, err)
		}
		r.Close()
		r.Close() // twice is fine
	}
	// Closing before the end stops the workers.
	r, _ := tb.Scan(context.Background(), index.ScanSpec{Cols: []int{0}, Limit: -1, Threads: 4})
	r.Next(context.Background())
	r.Close()
}
