package ctable

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestScanUnitsViews reads int64, nullable float64 and timestamp columns
// through ScanUnits, whose batches alias the decoded blocks, and checks
// every value against the formula that wrote it; the int64 column must
// really have been aliased, and a Filter-like consumer's selection must
// not disturb the blocks the next batches read.
func TestScanUnitsViews(t *testing.T) {
	// Blocks of 5000 rows are read whole, blocks of 20000 in batches of
	// 8192 (the view of a partly read block).
	for _, opts := range []CreateOptions{{ChunkRows: 20000, BlockRows: 5000}, {ChunkRows: 40000, BlockRows: 20000}} {
		t.Run(fmt.Sprint(opts.BlockRows), func(t *testing.T) { testScanUnitsViews(t, opts) })
	}
}

func testScanUnitsViews(t *testing.T, opts CreateOptions) {
	path := filepath.Join(t.TempDir(), "v.b2d")
	const rows = 50000
	writeTable(t, path, rows, opts)
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	cols := []int{0, 5, 7}
	for _, filter := range [][]index.Pred{nil, {{Col: 0, Op: index.Ge, Vals: []columnar.Value{i64(12345)}}}} {
		units, err := tb.ScanUnits(context.Background(), index.ScanSpec{Cols: cols, Filter: filter})
		if err != nil {
			t.Fatal(err)
		}
		seen, aliased := 0, 0
		for _, open := range units {
			r, err := open(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for {
				b, err := r.Next(context.Background())
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if ob := r.(*unitReader).w.ob; len(ob.owned) > 0 && ob.owned[0].aliased {
					aliased++
				}
				for k := 0; k < b.Live(); k++ {
					i := b.Row(k)
					id := b.Cols[0].Value(i).I
					want := readBack(int(id))
					for c, col := range cols {
						if got, w := plain(b.Cols[c].Value(i)), want[col]; got != w {
							t.Fatalf("filter %v, row %d, column %d: %v, want %v", filter, id, col, got, w)
						}
					}
					seen++
				}
			}
			r.Close()
		}
		want := rows
		if filter != nil {
			want = rows - 12345
		}
		if seen < want || aliased == 0 {
			t.Fatalf("filter %v: %d rows (want at least %d), %d aliased batches", filter, seen, want, aliased)
		}
	}
}

// plain is a numeric Value as writeRow gives it: nil, int64 or float64.
func plain(v columnar.Value) any {
	switch {
	case v.Null:
		return nil
	case v.Type.Phys() == columnar.PhysFloat:
		return v.F
	}
	return v.I
}
