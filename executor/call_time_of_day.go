package executor

import (
	"fmt"
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// TIME (microseconds since midnight) in the executor, as DuckDB defines it:
//
//	TIME ± INTERVAL, INTERVAL + TIME    TIME       wrapped into one day (23:00 + 2 hours = 01:00)
//	DATE + TIME, TIME + DATE            TIMESTAMP  (temporalArithKernel: the date scaled to µs plus the time)
//	date_part(hour|minute|second|millisecond|microsecond, t)  BIGINT; epoch DOUBLE seconds
//	make_time(h, m, s DOUBLE)           TIME       an error outside 00:00:00 ..= 24:00:00
//	date_diff / date_sub / epoch_*      on TIMEs as on timestamps of 1970-01-01 (rows_date.go)

// fnTimeOfAvg is avg(TIME) OVER a window, from the DOUBLE average of the
// microseconds: the nearest microsecond, a tie down, as fnTimeAvg.
func fnTimeOfAvg(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, int64(math.Ceil(a[0].F-0.5))), nil
}

// fnTimeAvg is avg(TIME) from the BIGINT sum and count of its microseconds
// (the binder's rewrite): DuckDB rounds the quotient to the nearest
// microsecond, a tie down (avg of 0 and 1 µs is 0, of 0 and 3 µs 1).
func fnTimeAvg(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	s, n := a[0].I, a[1].I
	if n <= 0 {
		return columnar.NullValue(t), nil
	}
	q, r := s/n, s%n
	if 2*r > n {
		q++
	}
	return columnar.IntValue(t, q), nil
}

// fnTimeOfMicros is an interpolated median or quantile_cont of TIMEs:
// DuckDB rounds it to the nearest microsecond, a tie up.
func fnTimeOfMicros(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, int64(math.Floor(a[0].F+0.5))), nil
}

// timePart is date_part on a TIME. Hours run to 24 for 24:00:00, as in
// DuckDB; seconds, milliseconds and microseconds count within the minute.
func timePart(part string, us int64) (int64, error) {
	switch part {
	case "hour", "hours", "h":
		return us / columnar.MicrosPerHour, nil
	case "minute", "minutes", "m", "min":
		return us / columnar.MicrosPerMinute % 60, nil
	case "second", "seconds", "s", "sec":
		return us / columnar.MicrosPerSecond % 60, nil
	case "millisecond", "milliseconds", "ms":
		return us % columnar.MicrosPerMinute / 1000, nil
	case "microsecond", "microseconds", "us":
		return us % columnar.MicrosPerMinute, nil
	case "epoch":
		return us / columnar.MicrosPerSecond, nil
	}
	return 0, errorf("date_part %q is not defined for TIME", part)
}

// fnMakeTime is make_time(hour, minute, seconds): DuckDB checks each field
// (hour 0..24, minute 0..59, seconds 0..60) and then the whole time, so
// make_time(12, 34, 60) is 12:35:00 and make_time(24, 0, 0) is 24:00:00.
func fnMakeTime(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	h, m, s := a[0].I, a[1].I, a[2].F
	us := int64(math.Round(s * 1e6))
	if h < 0 || h > 24 || m < 0 || m > 59 || !(s >= 0 && s <= 60) {
		return columnar.Value{}, fmt.Errorf("make_time: time out of range: %d:%d:%v", h, m, s)
	}
	us += h*columnar.MicrosPerHour + m*columnar.MicrosPerMinute
	if us > columnar.MicrosPerDay {
		return columnar.Value{}, fmt.Errorf("make_time: time out of range: %d:%d:%v", h, m, s)
	}
	return columnar.IntValue(t, us), nil
}
