package ctable

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// stringSummaryRows are the test's utf8 values: 5 segments of 64 rows
// where segment 2 is all NULL, every 5th other row is NULL, and the rest
// are words in an order unrelated to the rows ((i*37)%101), so that each
// segment's extrema are not its first or last rows. long puts a value
// over maxSummaryString bytes at row 11 (segment 0).
func stringSummaryRows(long bool) [][]byte {
	const n = 5*64 - 7 // the last segment is partial
	out := make([][]byte, n)
	for i := range out {
		switch {
		case i/64 == 2, i%5 == 0:
		case long && i == 11:
			out[i] = []byte("zlong " + strings.Repeat("y", maxSummaryString))
		default:
			out[i] = fmt.Appendf(nil, "text %03d of row %d", (i*37)%101, i)
		}
	}
	return out
}

func writeStringSummary(t *testing.T, path string, vals [][]byte) *Table {
	t.Helper()
	sc := columnar.Schema{{Name: "s", Type: columnar.TVarchar, Nullable: true}}
	b := columnar.NewBatch([]columnar.Type{columnar.TVarchar}, len(vals))
	b.Len = len(vals)
	for i, v := range vals {
		if v == nil {
			b.Cols[0].SetNull(i, len(vals))
		} else {
			b.Cols[0].Bytes[i] = v
		}
	}
	w, err := Create(path, sc, CreateOptions{ChunkRows: 128, BlockRows: 64, SampleRows: 16})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	if k := tb.srcs[0].spec.Kind; k != "utf8" {
		t.Fatalf("stored as %s, want utf8", k)
	}
	return tb
}

// sortedBounds returns the smallest and largest non-NULL value of vals, by
// sorting (not by the running comparisons the builder makes).
func sortedBounds(vals [][]byte) (lo, hi string, ok bool) {
	var s []string
	for _, v := range vals {
		if v != nil {
			s = append(s, string(v))
		}
	}
	if len(s) == 0 {
		return "", "", false
	}
	sort.Strings(s)
	return s[0], s[len(s)-1], true
}

func TestStringSummaryWritten(t *testing.T) {
	for _, ext := range []string{".b2d", ".b2z"} {
		t.Run(ext, func(t *testing.T) {
			vals := stringSummaryRows(false)
			path := filepath.Join(t.TempDir(), "s"+ext)
			tb := writeStringSummary(t, path, vals)
			src := tb.srcs[0]
			if err := src.open(tb.st, tb.nphys); err != nil {
				t.Fatal(err)
			}
			si := tb.stringSummary(src)
			if si == nil || si.why != "" || si.segLen != 64 || si.built != int64(len(vals)) {
				t.Fatalf("summary %+v", si)
			}
			ss, err := readStringSummary(src.data.Frame)
			if err != nil {
				t.Fatal(err)
			}
			var py []string
			for k := 0; k*64 < len(vals); k++ {
				lo, hi, ok := sortedBounds(vals[k*64 : min(len(vals), (k+1)*64)])
				switch {
				case !ok && ss.flags[k] != flagAllNull:
					t.Errorf("segment %d: flags %d, want all NULL", k, ss.flags[k])
				case ok && (ss.flags[k] != 0 || string(ss.mins[k]) != lo || string(ss.maxs[k]) != hi):
					t.Errorf("segment %d: %q..%q flags %d, want %q..%q", k, ss.mins[k], ss.maxs[k], ss.flags[k], lo, hi)
				}
				if ok {
					py = append(py, lo+"|"+hi)
				} else {
					py = append(py, "None|None")
				}
			}
			lo, hi, _ := sortedBounds(vals)
			st, ok := tb.ColumnStats(0)
			if !ok || !st.HasMinMax || st.Min.S != lo || st.Max.S != hi || st.NullCount != -1 {
				t.Fatalf("ColumnStats %+v %v, want %q..%q", st, ok, lo, hi)
			}
			// = on one row's value skips every segment whose bounds leave
			// it out; segment 2 (all NULL) never matches a comparison.
			want := string(vals[101]) // segment 1
			p := index.Pred{Col: 0, Op: index.Eq, Vals: []columnar.Value{columnar.StringValue(want)}}
			var stats index.ScanStats
			n := 0
			for _, r := range scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Stats: &stats}, "s") {
				if !r[0].Null && r[0].S == want {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("%d rows equal %q", n, want)
			}
			// Segments whose sorted bounds exclude the value: all but 1.
			skip := 0
			for k := 0; k*64 < len(vals); k++ {
				lo, hi, ok := sortedBounds(vals[k*64 : min(len(vals), (k+1)*64)])
				if !ok || want < lo || want > hi {
					skip++
				}
			}
			if skip == 0 || stats.UnitsSkipped != int64(skip) {
				t.Fatalf("skipped %d units, want %d (%+v)", stats.UnitsSkipped, skip, stats)
			}
			if d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}}); d != fmt.Sprintf("blocks=%d/5 (string summary index on s)", 5-skip) {
				t.Fatalf("DescribeScan %q", d)
			}
			if ext == ".b2d" {
				// python-blosc2 opens the table, reads the column, and
				// hands the summary back as the msgpack it is.
				pyCheck(t, path, `import blosc2, sys
t = blosc2.open(sys.argv[1])
print(len(t), sum(1 for v in t['s'][:] if v))
a = blosc2.open(sys.argv[1] + '/_cols/s.b2nd')
v = a.vlmeta['b2sql_string_summary']
print(v['version'], v['segment_len'], v['rows'], v['value_epoch'], list(v['flags']))
for lo, hi in zip(v['min'], v['max']):
    print((lo or b'None').decode() + '|' + (hi or b'None').decode())`,
					fmt.Sprintf("%d %d\n1 64 %d 1 [0, 0, 4, 0, 0]\n%s", len(vals), nonNull(vals), len(vals), strings.Join(py, "\n")))
			}
		})
	}
}

func nonNull(vals [][]byte) int {
	n := 0
	for _, v := range vals {
		if v != nil {
			n++
		}
	}
	return n
}

// A value too long to keep leaves its segment without bounds: MIN/MAX are
// no longer answered from the summary, and that segment is always read,
// while the others still prune.
func TestStringSummaryLongValue(t *testing.T) {
	vals := stringSummaryRows(true)
	tb := writeStringSummary(t, filepath.Join(t.TempDir(), "l.b2d"), vals)
	if _, ok := tb.ColumnStats(0); ok {
		t.Fatal("ColumnStats answered with a segment without bounds")
	}
	ss, err := readStringSummary(tb.srcs[0].data.Frame)
	if err != nil || ss.flags[0] != flagNoBounds || ss.flags[2] != flagAllNull {
		t.Fatalf("flags %v (%v)", ss.flags, err)
	}
	if si := tb.stringSummary(tb.srcs[0]); !si.partial || si.segs[0].HasMinMax || !si.segs[1].HasMinMax {
		t.Fatalf("summary %+v", si)
	}
	// Above every stored max: only segment 0 (no bounds) may match.
	p := index.Pred{Col: 0, Op: index.Gt, Vals: []columnar.Value{columnar.StringValue("text 101")}}
	if d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}}); d != "blocks=1/5 (string summary index on s)" {
		t.Fatalf("DescribeScan %q", d)
	}
	rows := scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}}, "s")
	n := 0
	for _, r := range rows {
		if !r[0].Null && r[0].S > "text 101" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d rows > 'text 101', want 1", n)
	}
}

// A summary that no longer covers the column is not used: rows other than
// its own (a table grown since), or another value_epoch.
func TestStringSummaryStale(t *testing.T) {
	ss := &stringSummary{segLen: 64, rows: 100, epoch: 1}
	if si := ss.asIndex("s", columnar.TVarchar, 100, 1, true); si.why != "" {
		t.Fatalf("fresh summary: %s", si.why)
	}
	for _, c := range []struct {
		nphys, epoch int64
		want         string
	}{
		{120, 1, "stale: built over 100 rows, table has 120"},
		{100, 2, "stale: built at value_epoch 1, table is at 2"},
		{100, -1, "stale: built at value_epoch 1, table is at -1"},
	} {
		if si := ss.asIndex("s", columnar.TVarchar, c.nphys, c.epoch, true); si.why != c.want {
			t.Errorf("nphys %d epoch %d: %q, want %q", c.nphys, c.epoch, si.why, c.want)
		}
	}
}
