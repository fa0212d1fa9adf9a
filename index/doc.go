// Package index owns what scans and the planner say to each other about
// skipping data: simple predicates (Pred, and the key sets of runtime join
// filters, KeySet), the scan request (ScanSpec) and what a scan reports
// back (ScanStats), how exactly a table can apply a predicate (Support),
// the verdict of min/max statistics on a predicate (Verdict, Stats,
// VerdictOf), the switchable scan fast paths (ScanRule, RuleSet), the
// bound a top-k publishes to the scan under it (TopKBound), and the
// aggregates a table may answer from an index (AggRequest).
//
// Every format evaluates statistics through Stats and VerdictOf, so a
// Parquet row group and a blosc2 block are pruned by the same rules. The
// index structures themselves are a format's own: python-blosc2's SUMMARY
// and FULL sidecars are read (and written) by formats/b2/ctable, Parquet's
// footer statistics, page index and bloom filters by formats/parquet.
package index
