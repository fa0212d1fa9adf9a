package executor

import (
	"cmp"
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// quantile_cont and median of a group, interpolated in the result type's
// own arithmetic as DuckDB's QuantileInterpolator is
// (quantile_sort_tree.hpp, interpolate.hpp): between the values of rank
// ⌊(n-1)·q⌋ and the next, with weight d = (n-1)·q - ⌊(n-1)·q⌋ on the upper:
//
//	DOUBLE      lo·(1-d) + hi·d (integers read as doubles)
//	FLOAT       lo + (hi-lo)·d, the step rounded to float32
//	DECIMAL     unscaled: lo + (hi-lo)·d, the step truncated (≤ 18
//	            digits); lo·(1-d) + hi·d in doubles, truncated (wider)
//	TIMESTAMP   microseconds (a DATE's days first): lo·(1-d) + hi·d,
//	            rounded half away from zero
//	INTERVAL    lo + (hi-lo)·d in microseconds, rounded, as days and
//	            microseconds
//	TIMETZ      the local time and the offset each as TIMESTAMP
//
// At d = 0 the value of the rank is returned as it is.

// contOf is quantile q of xs (reordered), interpolated by interp at a
// nonzero weight (contPick, aggstate_values.go: a negative q counts from
// the top).
func contOf[T any](xs []T, q float64, c func(a, b T) int, interp func(lo, hi T, d float64) T) T {
	lo, hi, d := contPick(xs, q, c)
	if d == 0 {
		return lo
	}
	return interp(lo, hi, d)
}

// continuousInto writes quantile_cont(q) of group g (at least one value)
// into row k of out, of the result type. It reorders the group's values.
func (v *valueLists) continuousInto(out *columnar.Vector, k, n, g int, q float64) {
	switch out.Type.ID {
	case columnar.Float64:
		out.Floats[k] = v.continuous(g, q)
		return
	case columnar.Float32:
		out.Floats[k] = contOf(v.floats[g], q, columnar.CompareFloat, func(lo, hi, d float64) float64 {
			return float64(interpFloat32(float32(lo), float32(hi), d))
		})
		return
	case columnar.Decimal:
		out.Ints[k] = contOf(v.ints[g], q, cmp.Compare[int64], interpInt)
		return
	case columnar.Decimal128:
		xs := make([]columnar.Int128, len(v.ends[g]))
		for j := range xs {
			xs[j] = columnar.Int128FromKey(v.str(g, j))
		}
		x := contOf(xs, q, func(a, b columnar.Int128) int { return a.Cmp(b) }, interpWide)
		out.SetValue(k, n, columnar.WideValue(out.Type, x))
		return
	case columnar.Interval:
		ivs := make([]columnar.IntervalParts, len(v.ends[g]))
		for j := range ivs {
			ivs[j] = columnar.IntervalFromBytes(v.str(g, j))
		}
		lo, hi, d := contPick(ivs, q, columnar.CompareIntervals)
		if d != 0 {
			m := lo.FoldedMicros() + int64(math.Round(float64(hi.FoldedMicros()-lo.FoldedMicros())*d))
			lo = columnar.IntervalParts{Days: int32(m / columnar.MicrosPerDay), Micros: m % columnar.MicrosPerDay}
		}
		out.SetInterval(k, lo)
		return
	case columnar.TimeTZ:
		// The local time and the offset each interpolated, as DuckDB's
		// interpolation of dtime_tz_t: between 00:00:00-04 and
		// 00:00:00-05 the middle is 00:00:00-04:30.
		lo, hi, d := contPick(v.ints[g], q, cmp.Compare[int64])
		if d != 0 {
			lt, lz := columnar.TimeTZParts(lo)
			ht, hz := columnar.TimeTZParts(hi)
			t := int64(math.Round(float64(lt)*(1-d) + float64(ht)*d))
			z := int32(math.Round(float64(lz)*(1-d) + float64(hz)*d))
			lo = columnar.TimeTZKey(t, z)
		}
		out.Ints[k] = lo
		return
	}
	// TIMESTAMP, TIMESTAMPTZ (of DATEs, TIMESTAMPs or TIMESTAMPTZs).
	xs := v.ints[g]
	lo, hi, d := contPick(xs, q, cmp.Compare[int64])
	if v.typ.ID == columnar.Date {
		lo, hi = lo*columnar.MicrosPerDay, hi*columnar.MicrosPerDay
	}
	if d != 0 {
		lo = int64(math.Round(float64(lo)*(1-d) + float64(hi)*d))
	}
	out.Ints[k] = lo
}
