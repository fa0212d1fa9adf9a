package executor

import (
	"math"
	"math/big"
	"slices"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// equi_width_bins(min, max, bin_count, nice_rounding) is DuckDB's list of
// bin upper bounds for histogram(x, bins): bin_count bins of equal width
// from min to max, the last bound always max. With nice_rounding the
// width and the bounds are rounded to numbers a reader likes (multiples
// of 1, 2 or 5 times a power of ten; for timestamps whole years, months,
// days, hours, quarter hours, minutes or seconds) and up to twice as many
// bins may come out. The binder casts min and max to BIGINT, DOUBLE or
// TIMESTAMP and the list back to max's type (sql/bind_func_bins.go); the
// rules below are DuckDB's, step for step, so the bounds agree.
func init() {
	k := rows(fnEquiWidthBins)
	p := func(n string, a function.Arg) param { return param{n, a} }
	four := func(a function.Arg) []param {
		return []param{p("min", a), p("max", a), p("bin_count", function.BigInt), p("nice_rounding", function.Any)}
	}
	function.Register(customBind(scalar("list", "equi_width_bins",
		"The upper bounds of bin_count equal-width bins from min to max (rounded to nice numbers with nice_rounding), for histogram",
		ex("equi_width_bins(0, 10, 2, true)", "equi_width_bins(0.0, 9.0, 7, false)"),
		over(columnar.ListOf(columnar.TInt64), k, four(function.Integer)...),
		over(columnar.ListOf(columnar.TFloat64), k, four(function.Double)...),
		over(columnar.ListOf(columnar.TTimestamp), k, four(function.Temporal)...))))
}

// maxBins bounds bin_count, as DuckDB does.
const maxBins = 1000000

func fnEquiWidthBins(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	bins, nice := a[2].I, a[3].I != 0
	var less bool
	switch a[0].Type.Phys() {
	case columnar.PhysFloat:
		less = a[1].F < a[0].F
	default:
		less = a[1].I < a[0].I
	}
	switch {
	case less:
		return columnar.Value{}, errorf("Invalid input for bin function - max value is smaller than min value")
	case bins <= 0:
		return columnar.Value{}, errorf("Invalid input for bin function - there must be > 0 bins")
	case bins > maxBins:
		return columnar.Value{}, errorf("Invalid input for bin function - max bin count of %d exceeded", maxBins)
	}
	elem := t.Elem()
	out := func(n int) []columnar.Value { return make([]columnar.Value, 0, n) }
	var vals []columnar.Value
	switch {
	case a[0].Type.Phys() == columnar.PhysFloat:
		lo, hi := a[0].F, a[1].F
		if math.IsInf(lo, 0) || math.IsNaN(lo) || math.IsInf(hi, 0) || math.IsNaN(hi) {
			return columnar.Value{}, errorf("equi_width_bucket does not support infinite or nan as min/max value")
		}
		bounds := []float64{hi}
		if lo != hi {
			var err error
			if bounds, err = binsDouble(lo, hi, bins, nice); err != nil {
				return columnar.Value{}, err
			}
		}
		vals = out(len(bounds))
		for _, x := range bounds {
			vals = append(vals, columnar.FloatValue(elem, x))
		}
	default:
		lo, hi := a[0].I, a[1].I
		if a[0].Type.IsInteger() {
			bounds := []int64{hi}
			if lo != hi {
				bounds = binsInt(lo, hi, bins, nice)
			}
			vals = out(len(bounds))
			for _, x := range bounds {
				vals = append(vals, columnar.IntValue(elem, x))
			}
			break
		}
		var ok [2]bool
		lo, ok[0] = binTimestamp(a[0])
		hi, ok[1] = binTimestamp(a[1])
		if !ok[0] || !ok[1] {
			return columnar.Value{}, errorf("equi_width_bucket does not support infinite or nan as min/max value")
		}
		bounds := []int64{hi}
		if lo != hi {
			if nice {
				bounds = binsTimestamp(lo, hi, bins)
			} else {
				bounds = binsInt(lo, hi, bins, false)
			}
		}
		vals = out(len(bounds))
		for _, x := range bounds {
			vals = append(vals, columnar.IntValue(elem, x))
		}
	}
	return columnar.Value{Type: t, Elems: vals}, nil
}

// binTimestamp is v (a DATE or TIMESTAMP) in microseconds; false when
// infinite.
func binTimestamp(v columnar.Value) (int64, bool) {
	if columnar.Infinity(v.Type, v.I) != 0 {
		return 0, false
	}
	if v.Type.ID == columnar.Date {
		return columnar.DateToTimestampChecked(v.I)
	}
	return v.I, true
}

// finishBins makes the largest bound max and orders the bounds upward
// (they were found from max down).
func finishBins[T int64 | float64](bounds []T, hi T) []T {
	if len(bounds) == 0 {
		return []T{hi}
	}
	if bounds[0] < hi {
		bounds[0] = hi
	}
	slices.Reverse(bounds)
	return bounds
}

// binsInt bounds integers: the bounds are computed on the values times
// 1000 (in 128 bits and more) so that truncation does not shift them.
func binsInt(inMin, inMax, bins int64, nice bool) []int64 {
	factor := big.NewInt(1000)
	lo := new(big.Int).Mul(big.NewInt(inMin), factor)
	hi := new(big.Int).Mul(big.NewInt(inMax), factor)
	step := new(big.Int).Quo(new(big.Int).Sub(hi, lo), big.NewInt(bins))
	if nice {
		if step.Sign() != 0 {
			s := niceInt(step, step, false)
			m := roundToInt(hi, s, true)
			if m.Cmp(lo) != 0 && s.Sign() != 0 {
				hi, step = m, s
			}
		}
		bins *= 2
	}
	if step.Sign() == 0 {
		step = big.NewInt(1)
	}
	var out []int64
	for b := new(big.Int).Set(hi); b.Cmp(lo) > 0; b.Sub(b, step) {
		q := new(big.Int).Quo(b, factor)
		x := int64(math.MaxInt64) // a nice max past BIGINT: replaced by max below
		if q.IsInt64() {
			x = q.Int64()
		}
		if len(out) > 0 {
			if x < inMin || int64(len(out)) >= bins {
				break
			}
			if x == out[len(out)-1] {
				continue
			}
		}
		out = append(out, x)
	}
	return finishBins(out, inMax)
}

// prevPow10 is the power of ten below x (10 for 67; 1 for 10).
func prevPow10(x *big.Int) *big.Int {
	p := big.NewInt(1)
	ten := big.NewInt(10)
	for p.Cmp(x) < 0 {
		p.Mul(p, ten)
	}
	return p.Quo(p, ten)
}

// roundToInt rounds x to a multiple of n: to the nearest (halves up), or
// up (ceil); divisions truncate toward zero, as DuckDB's HUGEINT ones.
func roundToInt(x, n *big.Int, ceil bool) *big.Int {
	add := new(big.Int).Quo(n, big.NewInt(2))
	if ceil {
		add.Sub(n, big.NewInt(1))
	}
	r := new(big.Int).Add(x, add)
	r.Quo(r, n)
	return r.Mul(r, n)
}

// niceInt rounds x to a multiple of 2 or 5 times the power of ten below
// step (of 10 or 50, 100 or 500 …, whichever divisors step reaches),
// taking the nearer.
func niceInt(x, step *big.Int, ceil bool) *big.Int {
	p := prevPow10(step)
	two, five := new(big.Int).Mul(p, big.NewInt(2)), new(big.Int).Set(p)
	if new(big.Int).Mul(p, big.NewInt(3)).Cmp(step) <= 0 {
		two.Mul(two, big.NewInt(5))
	}
	if new(big.Int).Mul(p, big.NewInt(2)).Cmp(step) <= 0 {
		five.Mul(five, big.NewInt(5))
	}
	if two.Sign() == 0 || five.Sign() == 0 {
		return new(big.Int).Set(x)
	}
	r2, r5 := roundToInt(x, two, ceil), roundToInt(x, five, ceil)
	d2 := new(big.Int).Abs(new(big.Int).Sub(x, r2))
	d5 := new(big.Int).Abs(new(big.Int).Sub(x, r5))
	if d2.Cmp(d5) < 0 {
		return r2
	}
	return r5
}

// prevPow10F is the power of ten below x (0.1 for 0.5, 10 for 67).
func prevPow10F(x float64) float64 {
	p := 1.0
	if x < 1 {
		for p > x {
			p /= 10
		}
		return p
	}
	for p < x {
		p *= 10
	}
	return p / 10
}

// roundToF rounds x to a multiple of n (nearest, halves away from zero, or
// up); x itself when that is not finite.
func roundToF(x, n float64, ceil bool) float64 {
	r := math.Round(x/n) * n
	if ceil {
		r = math.Ceil(x/n) * n
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return x
	}
	return r
}

// niceF is niceInt over DOUBLEs (0 stays 0).
func niceF(x, step float64) float64 {
	if x == 0 {
		return 0
	}
	p := prevPow10F(step)
	two, five := p*2, p
	if p*3 <= step {
		two *= 5
	}
	if p*2 <= step {
		five *= 5
	}
	r2, r5 := roundToF(x, two, false), roundToF(x, five, false)
	if math.Abs(x-r2) < math.Abs(x-r5) {
		return r2
	}
	return r5
}

// binsDouble bounds DOUBLEs; with nice rounding each bound is rounded to
// a tenth of the unrounded width's power of ten, against the drift of
// repeated subtraction.
func binsDouble(lo, inMax float64, bins int64, nice bool) ([]float64, error) {
	hi := inMax
	step := (hi - lo) / float64(bins)
	if math.IsInf(hi-lo, 0) {
		step = hi/float64(bins) - lo/float64(bins)
	}
	pow := prevPow10F(step)
	if nice {
		step = niceF(step, step)
		hi = roundToF(inMax, step, true)
		bins *= 2
	}
	if step == 0 {
		return nil, errorf("equi_width_bins: the bin width is 0")
	}
	mul := 10 / pow
	var out []float64
	for b := hi; b > lo; b -= step {
		if b-step == b {
			break // a step below the bound's precision: no progress
		}
		x := b
		if nice {
			x = math.Round(b*mul) / mul
		}
		if len(out) > 0 && out[len(out)-1] == x {
			continue
		}
		if x <= lo || int64(len(out)) >= bins {
			break
		}
		out = append(out, x)
	}
	return finishBins(out, inMax), nil
}

// niceTimestamp rounds max (ts) up to the unit the step is counted in:
// the first of a month for a step of a year or more, a whole day for a
// month or a day, then a whole hour, minute or second.
func niceTimestamp(ts int64, step columnar.IntervalParts) int64 {
	switch {
	case step.Months >= 12:
		y, m, d := columnar.CivilFromDays(columnar.TimestampToDate(ts))
		if d == 1 && columnar.TimeOfDay(ts) == 0 {
			return ts
		}
		if m++; m == 13 {
			y, m = y+1, 1
		}
		return columnar.DaysFromCivil(y, m, 1) * columnar.MicrosPerDay
	case step.Months > 0 || step.Days >= 1:
		return ceilTo(ts, columnar.MicrosPerDay)
	case step.Micros >= columnar.MicrosPerHour:
		return ceilTo(ts, columnar.MicrosPerHour)
	case step.Micros >= columnar.MicrosPerMinute:
		return ceilTo(ts, columnar.MicrosPerMinute)
	case step.Micros >= columnar.MicrosPerSecond:
		return ceilTo(ts, columnar.MicrosPerSecond)
	}
	return ts
}

// ceilTo rounds ts up to a multiple of unit (days, hours, … are whole
// multiples of theirs since the epoch).
func ceilTo(ts, unit int64) int64 { return -floorDiv(-ts, unit) * unit }

// roundTo rounds n to a multiple of d, halves up (n >= 0).
func roundTo(n, d int64) int64 { return (n + d/2) / d * d }

// niceInterval drops or rounds the step's smaller parts: days and
// microseconds beside six months or more, microseconds beside a month or
// five days, whole hours beside days or six hours, quarter hours above an
// hour, minutes above ten minutes, quarter minutes above a minute,
// seconds above ten seconds.
func niceInterval(iv columnar.IntervalParts) columnar.IntervalParts {
	const h, m, s = columnar.MicrosPerHour, columnar.MicrosPerMinute, columnar.MicrosPerSecond
	switch {
	case iv.Months >= 6:
		iv.Days, iv.Micros = 0, 0
	case iv.Months > 0 || iv.Days >= 5:
		iv.Micros = 0
	case iv.Days > 0 || iv.Micros >= 6*h:
		iv.Micros = roundTo(iv.Micros, h)
	case iv.Micros >= h:
		iv.Micros = roundTo(iv.Micros, 15*m)
	case iv.Micros >= 10*m:
		iv.Micros = roundTo(iv.Micros, m)
	case iv.Micros >= m:
		iv.Micros = roundTo(iv.Micros, 15*s)
	case iv.Micros >= 10*s:
		iv.Micros = roundTo(iv.Micros, s)
	}
	return iv
}

// binsTimestamp bounds timestamps with nice rounding: the difference of
// max and min field by field (months, days, time of day) divided by
// bin_count, each field's fraction carried into the next smaller one
// (a month as 30 days), made nice; max rounded up to the step's unit;
// then bounds step by step down while they are >= min.
func binsTimestamp(lo, hi, bins int64) []int64 {
	ya, ma, da := columnar.CivilFromDays(columnar.TimestampToDate(lo))
	yb, mb, db := columnar.CivilFromDays(columnar.TimestampToDate(hi))
	months := (yb-ya)*12 + (mb - ma)
	days := db - da
	micros := columnar.TimeOfDay(hi) - columnar.TimeOfDay(lo)
	n := float64(bins)
	sm, sd, su := float64(months)/n, float64(days)/n, float64(micros)/n
	if sm > 0 {
		sd += (sm - math.Floor(sm)) * columnar.DaysPerMonth
	}
	if sd > 0 {
		su += (sd - math.Floor(sd)) * columnar.MicrosPerDay
	}
	step := niceInterval(columnar.IntervalParts{Months: int32(sm), Days: int32(sd), Micros: int64(su)})
	ts := niceTimestamp(hi, step)
	if step.Months <= 0 && step.Days <= 0 && step.Micros <= 0 {
		step = columnar.IntervalParts{Micros: 1}
	}
	var out []int64
	for ts >= lo && int64(len(out)) < bins {
		out = append(out, ts)
		next, ok := AddInterval(ts, step, -1)
		if !ok {
			break
		}
		ts = next
	}
	return finishBins(out, hi)
}
