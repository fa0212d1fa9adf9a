package parquet

import (
	"context"
	"fmt"

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
	pl := t.planScan(spec)
	pl.count(spec.Stats, len(t.units))
	read := pl.read
	unitSpec := spec
	unitSpec.Threads, unitSpec.Limit = 1, -1
	out := make([]func(ctx context.Context) (columnar.Reader, error), len(read))
	for i, ui := range read {
		ui := ui
		out[i] = func(ctx context.Context) (columnar.Reader, error) {
			s := &scanner{t: t, spec: unitSpec, stats: unitSpec.Stats, limit: -1, plan: pl, filtering: len(spec.Filter) > 0}
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
