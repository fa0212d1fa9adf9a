package executor

import (
	"fmt"
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// Functions of INTERVALs (DuckDB's):
//
//	interval_of(n, unit)         n units (to_days(n), INTERVAL (n) HOUR):
//	                             seconds and milliseconds take a fraction
//	                             (rounded to the microsecond), the other
//	                             units truncate n to whole units, as
//	                             DuckDB's to_seconds(DOUBLE) and
//	                             to_hours(BIGINT)
//	interval_mul, interval_div   INTERVAL × number, INTERVAL / number
//	date_part, epoch             see IntervalPart and IntervalEpoch

// fractionalUnits are the units that take fractional counts, and their
// length in microseconds.
var fractionalUnits = map[string]float64{"millisecond": 1e3, "second": 1e6}

func fnIntervalOf(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	unit := a[1].S
	outOfRange := func() (columnar.Value, error) {
		return columnar.Value{}, fmt.Errorf("interval of %s %ss is out of range", a[0], unit)
	}
	var n int64
	if a[0].Type.IsFloat() {
		f := a[0].F
		if per, ok := fractionalUnits[unit]; ok {
			us := math.Round(f * per)
			if math.IsNaN(us) || math.Abs(us) >= 1<<63 {
				return outOfRange()
			}
			return columnar.IntervalValue(columnar.IntervalParts{Micros: int64(us)}), nil
		}
		f = math.Trunc(f)
		if math.IsNaN(f) || math.Abs(f) >= 1<<63 {
			return outOfRange()
		}
		n = int64(f)
	} else {
		n = a[0].I
	}
	iv, ok := columnar.IntervalOfUnits(n, unit)
	if !ok {
		return outOfRange()
	}
	return columnar.IntervalValue(iv), nil
}

// IntervalPart is date_part(part, iv) as DuckDB defines it on an
// interval: years, months (of the year), decades … from the months;
// days from the days; hours, minutes and seconds from the microseconds
// (hours not wrapped at 24), milliseconds and microseconds counting the
// seconds of the minute too; each part with the interval's sign.
func IntervalPart(part string, iv columnar.IntervalParts) (int64, error) {
	m, us := int64(iv.Months), iv.Micros
	switch part {
	case "year", "years", "y", "yr", "yrs":
		return m / 12, nil
	case "month", "months", "mon", "mons":
		return m % 12, nil
	case "quarter", "quarters":
		return m%12/3 + 1, nil
	case "decade", "decades":
		return m / 120, nil
	case "century", "centuries":
		return m / 1200, nil
	case "millennium", "millennia":
		return m / 12000, nil
	case "day", "days", "d":
		return int64(iv.Days), nil
	case "hour", "hours", "h":
		return us / columnar.MicrosPerHour, nil
	case "minute", "minutes", "m", "min", "mins":
		return us % columnar.MicrosPerHour / columnar.MicrosPerMinute, nil
	case "second", "seconds", "s", "sec", "secs":
		return us % columnar.MicrosPerMinute / columnar.MicrosPerSecond, nil
	case "millisecond", "milliseconds", "ms", "msec", "msecs":
		return us % columnar.MicrosPerMinute / 1000, nil
	case "microsecond", "microseconds", "us", "usec", "usecs":
		return us % columnar.MicrosPerMinute, nil
	case "epoch":
		return int64(IntervalEpoch(iv)), nil
	}
	return 0, errorf("interval units %q not recognized", part)
}

// IntervalEpoch is the interval in seconds as DuckDB counts it: a year of
// 365.25 days, a month of 30, a day of 24 hours.
func IntervalEpoch(iv columnar.IntervalParts) float64 {
	years, months := int64(iv.Months)/12, int64(iv.Months)%12
	days := float64(years)*365.25 + float64(months*columnar.DaysPerMonth) + float64(iv.Days)
	return days*86400 + float64(iv.Micros)/1e6
}

// fnIntervalMul is INTERVAL × n. An integer n scales each field; a
// fractional one spills each field's fraction one unit down as DuckDB
// does (months into 30-day days, days into microseconds).
func fnIntervalMul(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	iv := a[0].Interval()
	if a[1].Type.ID == columnar.Int64 {
		n := a[1].I
		m, d := int64(iv.Months)*n, int64(iv.Days)*n
		u, ok := mulInt64(iv.Micros, n)
		if !ok || m != int64(int32(m)) || d != int64(int32(d)) || (n != 0 && (m/n != int64(iv.Months) || d/n != int64(iv.Days))) {
			return columnar.Value{}, fmt.Errorf("interval %s × %d is out of range", a[0], n)
		}
		return columnar.IntervalValue(columnar.IntervalParts{Months: int32(m), Days: int32(d), Micros: u}), nil
	}
	return scaledInterval(a[0], iv, a[1].F)
}

func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	r := a * b
	if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return r, true
}

// fnIntervalDiv is INTERVAL / n; x / 0 is NULL (as DuckDB).
func fnIntervalDiv(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[1].F == 0 {
		return columnar.NullValue(t), nil
	}
	return scaledInterval(a[0], a[0].Interval(), 1/a[1].F)
}

func scaledInterval(orig columnar.Value, iv columnar.IntervalParts, k float64) (columnar.Value, error) {
	m := float64(iv.Months) * k
	wm := math.Trunc(m)
	d := float64(iv.Days)*k + (m-wm)*columnar.DaysPerMonth
	wd := math.Trunc(d)
	u := math.Round(float64(iv.Micros)*k + (d-wd)*columnar.MicrosPerDay)
	if math.IsNaN(u) || math.Abs(u) >= 1<<63 || math.Abs(wm) >= 1<<31 || math.Abs(wd) >= 1<<31 {
		return columnar.Value{}, fmt.Errorf("interval %s × %v is out of range", orig, k)
	}
	return columnar.IntervalValue(columnar.IntervalParts{Months: int32(wm), Days: int32(wd), Micros: int64(u)}), nil
}
