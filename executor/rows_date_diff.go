package executor

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
)

// date_diff and time_bucket with DuckDB's arithmetic (date_diff.cpp,
// time_bucket.cpp), over its whole DATE and TIMESTAMP range: calendar
// parts count on the civil date (columnar.CivilFromDays), so two DATEs
// past TIMESTAMP's range still have a difference in days; the clock parts
// count in microseconds and an overflow is an error, not a wrap.

// fnDateDiff counts the part boundaries from a[1] to a[2]: the calendar
// parts from the civil dates (weeks are whole days / 7, toward zero;
// decades, centuries and millennia truncate the years), the clock parts
// from the instants, floored.
func fnDateDiff(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	part, ok := columnar.DatePartName(a[0].S)
	if !ok {
		return columnar.Value{}, fmt.Errorf("date_diff: unknown part %q", a[0].S)
	}
	dx, dy := dayOf(a[1]), dayOf(a[2])
	yx, mx, _ := columnar.CivilFromDays(dx)
	yy, my, _ := columnar.CivilFromDays(dy)
	var n int64
	switch part {
	case "day":
		n = dy - dx
	case "week":
		n = (dy - dx) / 7
	case "month":
		n = (yy*12 + my) - (yx*12 + mx)
	case "quarter":
		n = (yy*4 + (my-1)/3) - (yx*4 + (mx-1)/3)
	case "year":
		n = yy - yx
	case "decade":
		n = yy/10 - yx/10
	case "century":
		n = yy/100 - yx/100
	case "millennium":
		n = yy/1000 - yx/1000
	case "isoyear":
		ix, _ := dateTime(a[1]).ISOWeek()
		iy, _ := dateTime(a[2]).ISOWeek()
		n = int64(iy - ix)
	case "hour", "minute", "second", "millisecond", "microsecond":
		unit := map[string]int64{"hour": 3600e6, "minute": 60e6, "second": 1e6, "millisecond": 1000, "microsecond": 1}[part]
		x, okx := instantMicros(a[1])
		y, oky := instantMicros(a[2])
		d, okd := subInt64(floorDiv(y, unit), floorDiv(x, unit))
		if !okx || !oky || !okd {
			return columnar.Value{}, fmt.Errorf("date_diff: the %ss from %s to %s are out of range", part, a[1], a[2])
		}
		n = d
	default:
		return columnar.Value{}, fmt.Errorf("date_diff: unsupported part %q", a[0].S)
	}
	return columnar.IntValue(t, n), nil
}

// dayOf is the day (since 1970-01-01) of a DATE or a TIMESTAMP value.
func dayOf(v columnar.Value) int64 {
	if v.Type.ID == columnar.Date {
		return v.I
	}
	return floorDiv(micros(v), columnar.MicrosPerDay)
}

// instantMicros is a DATE's or TIMESTAMP's microseconds since the epoch,
// false for a date past TIMESTAMP's range.
func instantMicros(v columnar.Value) (int64, bool) {
	if v.Type.ID == columnar.Date {
		return columnar.DateToTimestampChecked(v.I)
	}
	return micros(v), true
}

func subInt64(a, b int64) (int64, bool) {
	d := a - b
	return d, (a >= 0) == (b >= 0) || (d >= 0) == (a >= 0)
}

func addInt64(a, b int64) (int64, bool) {
	s := a + b
	return s, (a >= 0) != (b >= 0) || (s >= 0) == (a >= 0)
}

// fnTimeBucket truncates ts (µs) to the start of its bucket counted from
// origin (µs): buckets of a[0]'s days and microseconds, or of its months
// (then the bucket starts on the first of a month at midnight, whatever
// origin's day and time), as DuckDB computes them; an infinite origin
// gives NULL, an overflow an error.
//
// A DATE ts gives a DATE (t): a bucket of months is a date whatever the
// TIMESTAMP range; one of days reads ts as a TIMESTAMP, in its range.
func fnTimeBucket(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	iv := a[0].Interval()
	origin := a[2].I
	if columnar.Infinity(columnar.TTimestamp, origin) != 0 {
		return columnar.NullValue(t), nil
	}
	overflow := func() (columnar.Value, error) {
		return columnar.Value{}, fmt.Errorf("time_bucket: the bucket of %s is out of the TIMESTAMP range", a[1])
	}
	if iv.Months != 0 {
		if iv.Days != 0 || iv.Micros != 0 {
			return columnar.Value{}, fmt.Errorf("time_bucket: a bucket of months cannot have a day or time part")
		}
		w := int64(iv.Months)
		if w < 0 {
			return columnar.Value{}, fmt.Errorf("time_bucket: the bucket width must be positive")
		}
		o := epochMonths(floorDiv(origin, columnar.MicrosPerDay)) % w
		d := epochMonths(dayOf(a[1])) - o
		r := d / w * w
		if d < 0 && d%w != 0 {
			r -= w
		}
		r += o
		days := columnar.DaysFromCivil(1970+floorDiv(r, 12), floorMod(r, 12)+1, 1)
		if t.ID == columnar.Date {
			if days < columnar.MinDate || days > columnar.MaxDate {
				return overflow()
			}
			return columnar.IntValue(t, days), nil
		}
		us, ok := columnar.DateToTimestampChecked(days)
		if !ok {
			return overflow()
		}
		return columnar.IntValue(t, us), nil
	}
	w, ok := mulInt64(int64(iv.Days), columnar.MicrosPerDay)
	if !ok {
		return overflow()
	}
	if w, ok = addInt64(w, iv.Micros); !ok {
		return overflow()
	}
	if w <= 0 {
		return columnar.Value{}, fmt.Errorf("time_bucket: the bucket width must be positive")
	}
	ts, ok := instantMicros(a[1])
	if !ok {
		return overflow()
	}
	o := origin % w
	d, ok := subInt64(ts, o)
	if !ok {
		return overflow()
	}
	r := d / w * w
	if d < 0 && d%w != 0 {
		if r, ok = subInt64(r, w); !ok {
			return overflow()
		}
	}
	if r, ok = addInt64(r, o); !ok || r < columnar.MinTimestamp || r > columnar.MaxTimestamp {
		return overflow()
	}
	if t.ID == columnar.Date {
		return columnar.IntValue(t, columnar.TimestampToDate(r)), nil
	}
	return columnar.IntValue(t, r), nil
}

// epochMonths is the months from 1970-01 to the month of a day.
func epochMonths(days int64) int64 {
	y, m, _ := columnar.CivilFromDays(days)
	return (y-1970)*12 + m - 1
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }
