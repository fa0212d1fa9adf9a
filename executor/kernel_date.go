package executor

import (
	"math"
	"strings"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// toTime converts a DATE (days) or TIMESTAMP (µs) payload to a UTC time.
func toTime(t columnar.Type, v int64) time.Time {
	if t.ID == columnar.Date {
		return columnar.DateToTime(v)
	}
	return columnar.TimestampToTime(v)
}

// DatePart extracts part from a DATE/TIMESTAMP/INTERVAL payload. Exported
// for the binder's constant folding and the planner's tests.
func DatePart(part string, t columnar.Type, v int64) (int64, error) {
	if t.ID == columnar.Time {
		return timePart(part, v)
	}
	if t.ID == columnar.Interval {
		return IntervalPart(part, columnar.IntervalParts{Micros: v})
	}
	tm := toTime(t, v)
	switch part {
	case "year", "years", "y", "yr", "yrs":
		return int64(tm.Year()), nil
	case "quarter", "quarters":
		return int64((tm.Month()-1)/3 + 1), nil
	case "month", "months", "mon":
		return int64(tm.Month()), nil
	case "day", "days", "d", "dayofmonth":
		return int64(tm.Day()), nil
	case "dow", "dayofweek", "weekday":
		return int64(tm.Weekday()), nil
	case "isodow":
		d := int64(tm.Weekday())
		if d == 0 {
			d = 7
		}
		return d, nil
	case "doy", "dayofyear":
		return int64(tm.YearDay()), nil
	case "week", "weeks", "weekofyear", "w":
		_, w := tm.ISOWeek()
		return int64(w), nil
	case "isoyear":
		y, _ := tm.ISOWeek()
		return int64(y), nil
	case "hour", "hours", "h":
		return int64(tm.Hour()), nil
	case "minute", "minutes", "m", "min":
		return int64(tm.Minute()), nil
	case "second", "seconds", "s", "sec":
		return int64(tm.Second()), nil
	case "millisecond", "milliseconds", "ms":
		return int64(tm.Second())*1000 + int64(tm.Nanosecond()/1_000_000), nil
	case "microsecond", "microseconds", "us":
		return int64(tm.Second())*1_000_000 + int64(tm.Nanosecond()/1000), nil
	case "decade":
		return int64(tm.Year()) / 10, nil
	case "century":
		y := tm.Year()
		if y > 0 {
			return int64((y-1)/100 + 1), nil
		}
		return int64(y/100 - 1), nil
	case "millennium":
		y := tm.Year()
		if y > 0 {
			return int64((y-1)/1000 + 1), nil
		}
		return int64(y/1000 - 1), nil
	case "epoch":
		if t.ID == columnar.Date {
			return v * 86400, nil
		}
		return floorDiv(v, 1_000_000), nil
	case "julian":
		return int64(math.Floor(floatDatePart(part, t, v))), nil // the DOUBLE's day (kernels use floatDatePart)
	case "era":
		if tm.Year() > 0 {
			return 1, nil // AD
		}
		return 0, nil
	case "yearweek":
		return yearWeek(tm), nil
	case "timezone", "timezone_hour", "timezone_minute":
		return 0, nil // a local DATE or TIMESTAMP is at UTC
	}
	return 0, errorf("unknown date part %q", part)
}

// floatDatePart is a DOUBLE part (columnar.FloatDatePart) of a finite
// DATE or TIMESTAMP payload v: epoch seconds, the Julian day.
func floatDatePart(part string, t columnar.Type, v int64) float64 {
	us := v
	if t.ID == columnar.Date {
		us = v * columnar.MicrosPerDay
	}
	if part == "julian" {
		return julianEpoch + float64(us)/float64(columnar.MicrosPerDay)
	}
	return float64(us) / 1e6
}

// datePartKernel is date_part(part, x) with a constant part. epoch and
// julian return DOUBLEs (as DuckDB).
func datePartKernel(part string, t columnar.Type, ret columnar.Type) kernel {
	part = strings.ToLower(part)
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x := args[1]
		return forRows(b, func(i int) error {
			if !out.Valid.Get(i) {
				return nil
			}
			if t.ID == columnar.Interval {
				iv := x.IntervalAt(idx(x, i))
				if ret.Phys() == columnar.PhysFloat {
					out.Floats[i] = IntervalEpoch(iv)
					return nil
				}
				r, err := IntervalPart(part, iv)
				out.Ints[i] = r
				return err
			}
			v := x.Ints[idx(x, i)]
			if columnar.Infinity(t, v) != 0 { // an infinite date has no parts (DuckDB: NULL)
				out.SetNull(i, b.Len)
				return nil
			}
			if ret.Phys() == columnar.PhysFloat {
				out.Floats[i] = floatDatePart(part, t, v)
				return nil
			}
			r, err := DatePart(part, t, v)
			out.Ints[i] = r
			return err
		})
	}
}

// DateTrunc truncates a DATE/TIMESTAMP payload to part, returning a payload
// of the same type.
func DateTrunc(part string, t columnar.Type, v int64) (int64, error) {
	if t.ID == columnar.Date && !truncParts[part] {
		// A clock part reads the date as a TIMESTAMP, as DuckDB does.
		if _, ok := columnar.DateToTimestampChecked(v); !ok {
			return 0, errorf("date_trunc: %s is not in the TIMESTAMP range", columnar.Value{Type: columnar.TDate, I: v})
		}
	}
	tm := toTime(t, v)
	var r time.Time
	switch strings.ToLower(part) {
	case "millennium":
		r = time.Date(tm.Year()/1000*1000, 1, 1, 0, 0, 0, 0, time.UTC)
	case "century":
		r = time.Date(tm.Year()/100*100, 1, 1, 0, 0, 0, 0, time.UTC)
	case "decade":
		r = time.Date(tm.Year()/10*10, 1, 1, 0, 0, 0, 0, time.UTC)
	case "year", "years", "y", "yr":
		r = time.Date(tm.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	case "quarter":
		r = time.Date(tm.Year(), (tm.Month()-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
	case "month", "months", "mon":
		r = time.Date(tm.Year(), tm.Month(), 1, 0, 0, 0, 0, time.UTC)
	case "week", "weeks":
		wd := (int(tm.Weekday()) + 6) % 7 // ISO weeks start on Monday
		r = time.Date(tm.Year(), tm.Month(), tm.Day()-wd, 0, 0, 0, 0, time.UTC)
	case "day", "days", "d":
		r = time.Date(tm.Year(), tm.Month(), tm.Day(), 0, 0, 0, 0, time.UTC)
	case "hour", "hours", "h":
		r = tm.Truncate(time.Hour)
	case "minute", "minutes", "m":
		r = tm.Truncate(time.Minute)
	case "second", "seconds", "s":
		r = tm.Truncate(time.Second)
	case "millisecond", "milliseconds", "ms":
		r = tm.Truncate(time.Millisecond)
	case "microsecond", "microseconds", "us":
		r = tm
	default:
		return 0, errorf("unknown date part %q", part)
	}
	if t.ID == columnar.Date {
		return columnar.TimeToDate(r), nil
	}
	return r.UnixMicro(), nil
}

func dateTruncKernel(part string, t columnar.Type, ret columnar.Type) kernel {
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x := args[1]
		return forRows(b, func(i int) error {
			if !out.Valid.Get(i) {
				return nil
			}
			v := x.Ints[idx(x, i)]
			if s := columnar.Infinity(t, v); s != 0 { // truncated, infinity stays itself
				out.Ints[i] = columnar.InfinityOf(ret, s)
				return nil
			}
			r, err := DateTrunc(part, t, v)
			if err != nil {
				return err
			}
			if ret.ID == columnar.Timestamp && t.ID == columnar.Date {
				r *= columnar.MicrosPerDay
			}
			out.Ints[i] = r
			return nil
		})
	}
}

// datePartRowsKernel is date_part(part, x) with a part per row (a VARCHAR
// column): each row's name read as the binder reads a constant one; the
// DOUBLE parts are refused, as DuckDB refuses them there.
func datePartRowsKernel(t columnar.Type) kernel {
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		names, x := args[0], args[1]
		return forRows(b, func(i int) error {
			if !out.Valid.Get(i) {
				return nil
			}
			name := names.Value(idx(names, i)).S
			part, ok := columnar.DatePartName(name)
			switch {
			case !ok:
				return errorf("extract specifier %q not recognized", name)
			case columnar.FloatDatePart(part):
				return errorf("date_part of a %s per row is not supported (DuckDB: not implemented); name it as a constant", part)
			case t.ID == columnar.Interval:
				r, err := IntervalPart(part, x.IntervalAt(idx(x, i)))
				out.Ints[i] = r
				return err
			case t.ID == columnar.Time:
				r, err := timePart(part, x.Ints[idx(x, i)])
				out.Ints[i] = r
				return err
			}
			v := x.Ints[idx(x, i)]
			if columnar.Infinity(t, v) != 0 {
				out.SetNull(i, b.Len)
				return nil
			}
			r, err := DatePart(part, t, v)
			out.Ints[i] = r
			return err
		})
	}
}

// truncParts are date_trunc's calendar parts (the others are clock parts).
var truncParts = map[string]bool{"millennium": true, "century": true, "decade": true, "year": true, "quarter": true, "month": true, "week": true, "day": true}
