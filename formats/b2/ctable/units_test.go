package ctable

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/columnar/columnartest"
	"github.com/b2sql/b2sql/index"
)

// The planner's capability interfaces, restated (formats never import
// planner; a signature drift there fails tests/conformance_test.go, a
// drift here fails this file).
type (
	tableIface interface {
		Schema() columnar.Schema
		Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error)
	}
	filterPusher interface {
		tableIface
		SupportsFilter(p index.Pred) index.Support
	}
	rowCounter interface {
		tableIface
		RowCount() int64
	}
	scanDescriber interface {
		tableIface
		DescribeScan(spec index.ScanSpec) string
	}
	unitScanner interface {
		tableIface
		ScanUnits(ctx context.Context, spec index.ScanSpec) ([]func(ctx context.Context) (columnar.Reader, error), error)
	}
)

var (
	_ filterPusher  = (*Table)(nil)
	_ rowCounter    = (*Table)(nil)
	_ scanDescriber = (*Table)(nil)
	_ unitScanner   = (*Table)(nil)
	_ filterPusher  = (*ArrayTable)(nil)
	_ rowCounter    = (*ArrayTable)(nil)
	_ scanDescriber = (*ArrayTable)(nil)
	_ unitScanner   = (*ArrayTable)(nil)
)

// readUnits reads every unit in order, counting them done as the
// planner's executor.UnitQueue does.
func readUnits(t *testing.T, tb unitScanner, spec index.ScanSpec) [][]columnar.Value {
	t.Helper()
	units, err := tb.ScanUnits(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]columnar.Value
	for _, open := range units {
		r, err := open(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, columnartest.MustReadAll(t, r)...)
		r.Close()
		if spec.Stats != nil {
			spec.Stats.UnitsDone++ // what the planner's unit queue does
		}
	}
	return out
}

func TestScanUnits(t *testing.T) {
	tb := openTable(t, "ctable_mixed.b2z")
	cols := []int{0, 10, 12, 14}
	p := index.Pred{Col: 0, Op: index.Ge, Vals: []columnar.Value{i64(600)}}
	for _, filter := range [][]index.Pred{nil, {p}} {
		st := &index.ScanStats{}
		got := readUnits(t, tb, index.ScanSpec{Cols: cols, Filter: filter, Stats: st})
		want := scanAll(t, tb, index.ScanSpec{Cols: cols, Filter: filter, Threads: 1})
		if !reflect.DeepEqual(fmtRows(got), fmtRows(want)) {
			t.Fatalf("filter %v: units give %d rows, Scan %d", filter, len(got), len(want))
		}
		// Progress counts blocks: every surviving block is done.
		if st.UnitsDone != st.UnitsTotal-st.UnitsSkipped {
			t.Fatalf("filter %v: stats %+v", filter, *st)
		}
	}
	at := openArray(t, "nd_f64_3d_lz4.b2nd")
	pd := index.Pred{Col: 0, Op: index.Lt, Vals: []columnar.Value{i64(4)}}
	st := &index.ScanStats{}
	got := readUnits(t, at, index.ScanSpec{Cols: []int{0, 1, 2, 3}, Filter: []index.Pred{pd}, Stats: st})
	want := scanAll(t, at, index.ScanSpec{Cols: []int{0, 1, 2, 3}, Filter: []index.Pred{pd}, Threads: 1})
	if fmt.Sprint(got) != fmt.Sprint(want) || st.UnitsSkipped != 12 || st.UnitsTotal != 18 || st.UnitsDone != 6 {
		t.Fatalf("array units: %d vs %d rows, %+v", len(got), len(want), *st)
	}
}

// TestNoColumns is the COUNT(*) shape: no columns, only live rows counted.
func TestNoColumns(t *testing.T) {
	for _, tc := range []struct {
		tb   scanner
		want int
	}{
		{openTable(t, "ctable_mixed.b2d"), 996},
		{openTable(t, "ctable_stale.b2d"), 301},
		{openArray(t, "nd_f64_3d_lz4.b2nd"), 1320},
		{openArray(t, "nd_scalar_f8_0d.b2nd"), 1},
	} {
		for _, threads := range []int{1, 3} {
			rows := scanAll(t, tc.tb, index.ScanSpec{Cols: []int{}, Threads: threads})
			if len(rows) != tc.want {
				t.Errorf("%T threads=%d: %d rows, want %d", tc.tb, threads, len(rows), tc.want)
			}
		}
	}
}

// TestConcurrentScans opens columns and sidecars from several scans at
// once (run with -race).
func TestConcurrentScans(t *testing.T) {
	tb := openTable(t, "ctable_mixed.b2z")
	p := index.Pred{Col: tb.Schema().Index("f32"), Op: index.Lt, Vals: []columnar.Value{columnar.FloatValue(columnar.TFloat32, 100)}}
	want := len(scanAll(t, openTable(t, "ctable_mixed.b2d"), index.ScanSpec{Filter: []index.Pred{p}}))
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			rows, err := scanRows(tb, index.ScanSpec{Filter: []index.Pred{p}, Threads: 2})
			if err == nil && len(rows) != want {
				err = fmt.Errorf("%d rows, want %d", len(rows), want)
			}
			errs <- err
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
