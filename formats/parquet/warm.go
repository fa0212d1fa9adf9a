package parquet

import (
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/storage"
)

// Warm implements planner.Warmer for a table with remote files: it plans
// a scan with spec as Scan would (fetching, as planning does, the bloom
// filters and page indexes of the row groups the footer leaves), then
// has the sources fetch ahead the first units' chunks that the scan reads
// first (prefetchUnit's ranges), up to the scan's read-ahead budget (for
// a filtered first unit and late-materialized columns, undecidedUnits), or
// only the units a LIMIT without a filter needs. A query warms all its
// scans at once when it starts, so that a scan that runs after another
// (a join's probe side) finds its metadata and first row groups fetched.
// Errors are left to the scan, which reads the same bytes again.
func (t *Table) Warm(spec index.ScanSpec) {
	remote := false
	for _, f := range t.files {
		if _, ok := f.src.(storage.Prefetcher); ok {
			remote = true
		}
		if f.closed {
			return
		}
	}
	if !remote {
		return
	}
	s := &scanner{t: t, spec: spec, limit: spec.Limit}
	for _, c := range spec.Cols {
		if c < 0 || c >= len(t.cols) {
			return
		}
		s.cols = append(s.cols, &t.cols[c])
	}
	s.plan = t.planScan(spec)
	rows := int64(-1) // all the units within the read-ahead budget
	if len(spec.Filter) == 0 && spec.Limit >= 0 {
		rows = spec.Limit
	}
	if len(s.plan.read) == 0 {
		return
	}
	s.fetchAhead(s.plan.read[:min(s.readAheadUnits(s.plan.read[0]), len(s.plan.read))], rows)
}
