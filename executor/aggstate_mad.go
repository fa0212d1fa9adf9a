package executor

import (
	"cmp"
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// mad(x), the median absolute deviation, as DuckDB computes it
// (holistic/mad.cpp): the median of the values, then the median of their
// distances from it, each median interpolated in the argument's own
// arithmetic (quantile_sort_tree.hpp, interpolate.hpp):
//
//	DOUBLE             lo·(1-d) + hi·d
//	FLOAT, DECIMAL     lo + (hi-lo)·d with the step in the type (a
//	                   DECIMAL's unscaled value truncated; interpInt)
//	DATE, TIMESTAMP,   microseconds: lo·(1-d) + hi·d rounded half away
//	TIME               from zero; the distances are INTERVALs of days and
//	                   microseconds
//
// Other numbers reach it as DOUBLE (the binder casts them), so the result
// is of x's type for FLOAT and DECIMAL, INTERVAL for the temporal types
// and DOUBLE otherwise. A DATE's median is a TIMESTAMP.

// madRanks are the ranks the median of n values interpolates between and
// the weight d of the upper one (0 when n is odd).
func madRanks(n int) (lo int, d float64) {
	rn := float64(n-1) * 0.5
	return int(math.Floor(rn)), rn - math.Floor(rn)
}

// medianOf reorders xs and returns its values of the median's ranks.
func medianOf[T any](xs []T, c func(a, b T) int) (lo, hi T, d float64) {
	r, d := madRanks(len(xs))
	lo, hi = nthAndNext(xs, r, c)
	if d == 0 {
		hi = lo
	}
	return lo, hi, d
}

// madFloats is mad of doubles, or with f32 of FLOATs (every step in
// float32, as DuckDB's float instantiation).
func madFloats(xs []float64, f32 bool) float64 {
	interp := func(lo, hi, d float64) float64 {
		if d == 0 {
			return lo
		}
		if f32 {
			return float64(interpFloat32(float32(lo), float32(hi), d))
		}
		return lo*(1-d) + hi*d
	}
	med := interp(medianOf(xs, columnar.CompareFloat))
	dev := make([]float64, len(xs))
	for i, x := range xs {
		if f32 {
			dev[i] = math.Abs(float64(float32(x - med)))
		} else {
			dev[i] = math.Abs(x - med)
		}
	}
	return interp(medianOf(dev, columnar.CompareFloat))
}

// madDecimal is mad of DECIMAL(≤18) values (unscaled).
func madDecimal(xs []int64) int64 {
	interp := func(lo, hi int64, d float64) int64 {
		if d == 0 {
			return lo
		}
		return interpInt(lo, hi, d)
	}
	med := interp(medianOf(xs, cmp.Compare[int64]))
	dev := make([]int64, len(xs))
	for i, x := range xs {
		dev[i] = absInt64(x - med)
	}
	return interp(medianOf(dev, cmp.Compare[int64]))
}

func absInt64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// madTemporal is mad of microseconds (DATEs converted), as an INTERVAL.
func madTemporal(us []int64) columnar.IntervalParts {
	lo, hi, d := medianOf(us, cmp.Compare[int64])
	med := lo
	if d != 0 {
		med = int64(math.Round(float64(lo)*(1-d) + float64(hi)*d))
	}
	dev := make([]int64, len(us))
	for i, x := range us {
		dev[i] = absInt64(x - med)
	}
	lo, hi, d = medianOf(dev, cmp.Compare[int64])
	m := lo
	if d != 0 {
		m = lo + int64(math.Round(float64(hi-lo)*d))
	}
	return columnar.IntervalParts{Days: int32(m / columnar.MicrosPerDay), Micros: m % columnar.MicrosPerDay}
}

// madWide is mad of DECIMAL(19..38) values (unscaled): DuckDB's hugeint
// interpolation adds the truncated fraction of the difference to lo.
func madWide(xs []columnar.Int128) columnar.Int128 {
	c := func(a, b columnar.Int128) int { return a.Cmp(b) }
	med := interpWide(medianOf(xs, c)) // aggstate_quantile_typed.go
	dev := make([]columnar.Int128, len(xs))
	for i, x := range xs {
		d, _ := x.Sub(med)
		if d.Sign() < 0 {
			d, _ = d.Neg()
		}
		dev[i] = d
	}
	return interpWide(medianOf(dev, c))
}

// madMicros returns DATE days as microseconds (a copy: a group's stored
// values stay days); TIMESTAMP(TZ) and TIME values already are.
func madMicros(t columnar.Type, xs []int64) []int64 {
	if t.ID != columnar.Date {
		return xs
	}
	us := make([]int64, len(xs))
	for i, x := range xs {
		us[i] = x * columnar.MicrosPerDay
	}
	return us
}

// madOf is mad of vals (at least one, non-NULL, of type in) as a value of
// type out: a window frame's values, or a group's.
func madOf(in, out columnar.Type, vals []columnar.Value) columnar.Value {
	switch in.ID {
	case columnar.Float32, columnar.Float64:
		xs := make([]float64, len(vals))
		for i, v := range vals {
			xs[i] = v.F
		}
		return columnar.FloatValue(out, madFloats(xs, in.ID == columnar.Float32))
	case columnar.Decimal128:
		xs := make([]columnar.Int128, len(vals))
		for i, v := range vals {
			xs[i] = v.Wide128()
		}
		return columnar.WideValue(out, madWide(xs))
	}
	xs := make([]int64, len(vals))
	for i, v := range vals {
		xs[i] = v.I
	}
	if in.ID == columnar.Decimal {
		return columnar.IntValue(out, madDecimal(xs))
	}
	return columnar.IntervalValue(madTemporal(madMicros(in, xs)))
}

// madResult writes mad of group g (at least one value) into out row k.
// It reorders the group's values.
func (v *valueLists) madResult(out *columnar.Vector, k, n, g int) {
	switch v.typ.ID {
	case columnar.Float32, columnar.Float64:
		out.Floats[k] = madFloats(v.floats[g], v.typ.ID == columnar.Float32)
	case columnar.Decimal:
		out.Ints[k] = madDecimal(v.ints[g])
	case columnar.Decimal128:
		xs := make([]columnar.Int128, len(v.ends[g]))
		for j := range xs {
			xs[j] = columnar.Int128FromKey(v.str(g, j))
		}
		out.SetValue(k, n, columnar.WideValue(out.Type, madWide(xs)))
	default:
		out.SetInterval(k, madTemporal(madMicros(v.typ, v.ints[g])))
	}
}
