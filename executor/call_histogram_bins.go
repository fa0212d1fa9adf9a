package executor

import (
	"math"
	"sort"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The bins forms of histogram (sql bind_agg_histogram.go): histogram(x,
// bins) counts each value in the first bin boundary not below it,
// histogram_exact(x, bins) in the boundary equal to it; a value past every
// boundary (not equal to any) counts in DuckDB's "other" bin, keyed by the
// type's largest value (2147483647 for INTEGER, inf, infinity, 24:00:00,
// ”; BOOLEAN and INTERVAL have none: those values are not counted). Every boundary shows, with 0 when nothing fell in it.
//
//	histogram_bin(x, bins, exact)   x's type   x's bin (bins: a sorted, deduplicated constant LIST)
//	histogram_fill(map, bins)       MAP        the map with the empty bins added as 0
func init() {
	function.Register(
		internalRows("aggregate", "histogram_bin", "the histogram bin of a value: the first boundary not below it (or equal, exact), else the other bin", fnHistogramBin),
		internalRows("aggregate", "histogram_fill", "a histogram's map with every bin boundary, 0 where empty", fnHistogramFill),
	)
}

func fnHistogramBin(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x, bins, exact := a[0], a[1].Elems, a[2].I != 0
	i := sort.Search(len(bins), func(i int) bool { return columnar.Compare(bins[i], x) >= 0 })
	if i < len(bins) && (!exact || columnar.Compare(bins[i], x) == 0) {
		return bins[i], nil
	}
	other, ok := HistogramOther(t)
	switch {
	case !ok:
		return columnar.Value{}, errorf("histogram bins of %s are not supported", t)
	case other.Null:
		// No other bin: x counts as itself and histogram_fill drops it,
		// so that a histogram of values that all fell out shows each bin
		// as 0 ({false=0}), not NULL.
		return x, nil
	}
	return other, nil
}

// fnHistogramFill lists every bin boundary in order, with its count or
// 0, and then the other bin when a value fell in it: last, as in DuckDB,
// whatever its key's order (” for VARCHAR). A type without an other bin
// (HistogramOther NULL) shows the boundaries only.
func fnHistogramFill(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	entries, bins := a[0].Elems, a[1].Elems
	out := make([]columnar.Value, 0, len(bins)+1)
	used := make([]bool, len(entries))
	for _, bin := range bins {
		n := columnar.UintValue(0)
		for i, e := range entries {
			if !used[i] && columnar.Compare(e.Elems[0], bin) == 0 {
				n, used[i] = e.Elems[1], true
				break
			}
		}
		out = append(out, columnar.Value{Type: t.Elem(), Elems: []columnar.Value{bin, n}})
	}
	if other, _ := HistogramOther(t.Fields()[0].Type); !other.Null {
		for i, e := range entries {
			if !used[i] {
				out = append(out, e)
			}
		}
	}
	return columnar.Value{Type: t, Elems: out}, nil
}

// HistogramOther is the key of DuckDB's "other" histogram bin for values
// of type t: its largest value, or NULL for a type whose values past the
// last boundary DuckDB drops (BOOLEAN, INTERVAL); ok is false for a type
// without bins.
func HistogramOther(t columnar.Type) (columnar.Value, bool) {
	switch {
	case t.ID == columnar.Uint64:
		return columnar.UintValue(math.MaxUint64), true
	case t.ID == columnar.Hugeint:
		return columnar.WideValue(t, columnar.Int128{Hi: math.MaxInt64, Lo: math.MaxUint64}), true
	case t.IsInteger():
		_, hi := t.IntRange()
		return columnar.IntValue(t, hi), true
	case t.IsFloat():
		return columnar.FloatValue(t, math.Inf(1)), true
	case t.ID == columnar.Date, t.IsTimestampFamily(), t.ID == columnar.TimestampTZ:
		return columnar.IntValue(t, columnar.InfinityOf(t, 1)), true
	case t.ID == columnar.Time:
		return columnar.IntValue(t, columnar.MicrosPerDay), true
	case t.ID == columnar.Varchar, t.ID == columnar.Blob:
		return columnar.Value{Type: t, S: ""}, true // DuckDB's other bin: the empty string
	case t.ID == columnar.Bool, t.ID == columnar.Interval:
		// No other bin: a value past the last boundary is not counted,
		// as DuckDB drops it.
		return columnar.NullValue(t), true
	}
	return columnar.Value{}, false
}
