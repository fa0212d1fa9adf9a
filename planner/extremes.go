package planner

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// Extremes (topk_pruning for aggregates): an ungrouped aggregate whose
// every aggregate is a MIN or MAX of a scan column is a set of top-1s, one
// per aggregate. Each MIN/MAX publishes its running value into an
// index.TopKBound (ASC for MIN, DESC for MAX, no ties: an equal value
// changes nothing) that the scan shares as ScanSpec.Extremes; the scan
// reads first the units whose statistics promise the best values and
// skips a unit once every bound proves it useless. The statistics only
// bound the values (a writer may truncate string statistics), so a unit is
// skipped only when its bound cannot beat a value actually seen: the
// answer is the one a full scan gives. SELECT min(title), max(title) then
// reads the row group with the least minimum and the one with the
// greatest maximum instead of every row group.

// extremeBounds registers the bounds of n's MIN/MAX aggregates for the
// scan under it and for n, when n qualifies; a filter between them is
// fine (the statistics bound the unfiltered rows, a superset).
func (bd *builder) extremeBounds(n *Aggregate) {
	if !bd.ruleOn(index.TopKPruning) || len(n.Groups) > 0 || len(n.Aggs) == 0 {
		return
	}
	var scan *Scan
	bounds := make([]*index.TopKBound, len(n.Aggs))
	for i, a := range n.Aggs {
		if a.Func != AggMin && a.Func != AggMax || a.Filter != nil {
			return
		}
		ref, ok := a.Arg.(*ColRef)
		if !ok || !extremeType(ref.Col.Type) {
			return
		}
		s, col, ok := scanColumn(n.Input, ref)
		if !ok || (scan != nil && s != scan) {
			return
		}
		scan = s
		bounds[i] = &index.TopKBound{Col: col, Desc: a.Func == AggMax}
	}
	if bd.extremes == nil {
		bd.extremes, bd.aggExtremes = map[*Scan][]*index.TopKBound{}, map[*Aggregate][]*index.TopKBound{}
	}
	bd.extremes[scan], bd.aggExtremes[n] = bounds, bounds
}

// aggBound is the bound aggregate i of n publishes into, nil if none.
func (bd *builder) aggBound(n *Aggregate, i int) *index.TopKBound {
	if b := bd.aggExtremes[n]; b != nil {
		return b[i]
	}
	return nil
}

// extremeType reports whether statistics of a column of type t compare
// with its values as the executor's MIN/MAX do: numbers, DECIMAL(≤18),
// dates, timestamps and strings (bytewise). Wide types and the rest are
// left to a full scan.
func extremeType(t columnar.Type) bool {
	return t.IsNumeric() || t.IsTemporal() || t.IsString()
}
