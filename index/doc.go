// Package index owns what scans and the planner say to each other about
// skipping data: simple predicates (Pred, and the key sets of runtime join
// filters, KeySet), the scan request (ScanSpec), how
// exactly a table can apply a predicate (Support), and the verdict of block
// statistics on a predicate (Verdict, Stats.Verdict). SUMMARY (per-block
// min/max) and FULL (sorted) index structures live here too, so that every
// format evaluates them the same way.
package index
