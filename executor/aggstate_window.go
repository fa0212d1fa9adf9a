package executor

import (
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// frameValueAgg computes quantile_disc(x, q) or mode(x) over a window
// frame's non-NULL values (at least one, in frame order), with the same
// rules as GROUP BY (aggstate_values.go, aggstate_mode.go): the value of
// rank ⌈n·q⌉-1 in ascending order; the most frequent value, the first seen
// on a tie.
func frameValueAgg(name string, vals []columnar.Value, q float64) columnar.Value {
	if name == "quantile_disc" {
		sorted := slices.Clone(vals)
		slices.SortStableFunc(sorted, columnar.Compare)
		return sorted[discreteIndex(len(sorted), q)]
	}
	counts := make(map[distinctKey]int, len(vals))
	top := 0
	for _, v := range vals {
		k := keyOf(v)
		counts[k]++
		top = max(top, counts[k])
	}
	// The first value in frame order whose value has the top count is the
	// earliest seen of the most frequent ones.
	for _, v := range vals {
		if counts[keyOf(v)] == top {
			return v
		}
	}
	return vals[0]
}
