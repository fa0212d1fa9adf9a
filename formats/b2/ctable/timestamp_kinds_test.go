package ctable

import (
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestTimestampKindsRoundTrip: TIMESTAMPTZ columns are written as
// timestamp(unit="us", timezone="UTC") and TIMESTAMP_NS as
// timestamp(unit="ns"), and read back with their types and exact values.
func TestTimestampKindsRoundTrip(t *testing.T) {
	ns := columnar.Type{ID: columnar.TimestampNS}
	schema := columnar.Schema{{Name: "a", Type: columnar.TTimestampTZ, Nullable: true}, {Name: "b", Type: ns, Nullable: true}}
	// 1704103200000000 µs = 2024-01-01 10:00:00 UTC; b keeps its last
	// nanosecond digit (…007), which microseconds would lose.
	as := []int64{1704103200000000, -1, 0}
	bs := []int64{1704103200000000007, -999999999, 0}
	for _, ext := range []string{"b2d", "b2z"} {
		path := filepath.Join(t.TempDir(), "ts."+ext)
		w, err := Create(path, schema, CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b := columnar.NewBatch([]columnar.Type{columnar.TTimestampTZ, ns}, 3)
		b.Len = 3
		copy(b.Cols[0].Ints, as)
		copy(b.Cols[1].Ints, bs)
		b.Cols[0].SetNull(2, 3)
		b.Cols[1].SetNull(2, 3)
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
		defer tb.Close()
		if got := tb.Schema(); got[0].Type.ID != columnar.TimestampTZ || got[1].Type.ID != columnar.TimestampNS {
			t.Fatalf("%s: schema %v", ext, got)
		}
		rows := scanAll(t, tb, index.ScanSpec{Threads: 1})
		for i := range 2 {
			if rows[i][0].I != as[i] || rows[i][1].I != bs[i] {
				t.Errorf("%s row %d: %v %v, want %d %d", ext, i, rows[i][0].I, rows[i][1].I, as[i], bs[i])
			}
		}
		if !rows[2][0].Null || !rows[2][1].Null {
			t.Errorf("%s row 2: %v, want NULLs", ext, rows[2])
		}
	}
}

// TestTimestampKindsFromPython reads testdata/ctable_timezones.b2d
// (python-blosc2, README.md): a timestamp with a zone is an instant
// whatever the zone and unit; naive nanoseconds stay nanoseconds.
func TestTimestampKindsFromPython(t *testing.T) {
	tb := openTable(t, "ctable_timezones.b2d")
	s := tb.Schema()
	if s[0].Type.ID != columnar.TimestampTZ || s[1].Type.ID != columnar.TimestampNS {
		t.Fatalf("schema %v", s)
	}
	rows := scanAll(t, tb, index.ScanSpec{Threads: 1})
	// 2024-03-01T12:00:00.250 (ms, stored as UTC epoch) = 1709294400250000 µs;
	// 2024-03-02T00:00:00 = 1709337600000000 µs; b: 1709294400000000007 ns
	// and one nanosecond before the epoch.
	want := [][2]int64{{1709294400250000, 1709294400000000007}, {1709337600000000, -1}}
	if len(rows) != len(want) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, w := range want {
		if rows[i][0].I != w[0] || rows[i][1].I != w[1] {
			t.Errorf("row %d: %d %d, want %d %d", i, rows[i][0].I, rows[i][1].I, w[0], w[1])
		}
	}
}
