package parquet

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// ScanUnits plans a scan like Scan (pruning counted in spec.Stats) and
// returns one opener per row group to read, in file order, for
// morsel-driven parallel plans: each opener returns a single-threaded reader
// of that row group alone. spec.Threads and spec.Limit are ignored.
func (t *Table) ScanUnits(ctx context.Context, spec index.ScanSpec) ([]func(ctx context.Context) (columnar.Reader, error), error) {
	for _, c := range spec.Cols {
		if c < 0 || c >= len(t.cols) {
			return nil, fmt.Errorf("parquet: %s: scan of column %d, table has %d", t.name, c, len(t.cols))
		}
	}
	read, allTrue, skipped := t.plan(spec)
	if spec.Stats != nil {
		spec.Stats.UnitName = "row groups"
		atomic.AddInt64(&spec.Stats.UnitsTotal, int64(len(t.units)))
		atomic.AddInt64(&spec.Stats.UnitsSkipped, int64(skipped))
		atomic.AddInt64(&spec.Stats.UnitsAllTrue, int64(allTrue))
	}
	unitSpec := spec
	unitSpec.Threads, unitSpec.Limit = 1, -1
	out := make([]func(ctx context.Context) (columnar.Reader, error), len(read))
	for i, ui := range read {
		ui := ui
		out[i] = func(ctx context.Context) (columnar.Reader, error) {
			s := &scanner{t: t, spec: unitSpec, stats: unitSpec.Stats, limit: -1}
			for _, c := range unitSpec.Cols {
				s.cols = append(s.cols, &t.cols[c])
				s.types = append(s.types, t.cols[c].field.Type)
				s.schema = append(s.schema, t.cols[c].field)
			}
			for _, f := range t.files {
				if f.closed {
					return nil, fmt.Errorf("parquet: %s: scan of a closed table", f.path)
				}
			}
			s.start(ctx, []int{ui})
			return s, nil
		}
	}
	return out, nil
}
