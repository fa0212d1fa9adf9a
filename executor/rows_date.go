package executor

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// Row functions of the date family (registered in func_date.go).

func fnCurrentDate(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, time.Now().UTC().Unix()/86400), nil
}

// micros returns a DATE or TIMESTAMP value as microseconds since the epoch.
func micros(v columnar.Value) int64 {
	if v.Type.ID == columnar.Date {
		return v.I * 86400_000000
	}
	if v.Type.IsTimestampUnit() { // TIMESTAMP_NS: epoch_ns and strftime
		us, _ := columnar.UnitToMicros(v.Type, v.I)
		return us
	}
	return v.I
}

func fnToTimestamp(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	s := a[0].F
	if math.IsNaN(s) || math.IsInf(s, 0) || math.Abs(s) > 9.2e12 {
		return columnar.Value{}, fmt.Errorf("to_timestamp: %v is out of range", s)
	}
	return columnar.IntValue(t, int64(math.Round(s*1e6))), nil
}

func fnMakeDate(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	y, m, d := a[0].I, a[1].I, a[2].I
	if y < -290000 || y > 290000 || m < 1 || m > 12 || d < 1 || d > 31 {
		return columnar.Value{}, fmt.Errorf("make_date: %d-%d-%d is not a valid date", y, m, d)
	}
	tm := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
	if tm.Day() != int(d) {
		return columnar.Value{}, fmt.Errorf("make_date: %d-%d-%d is not a valid date", y, m, d)
	}
	return columnar.IntValue(t, floorDiv(tm.Unix(), 86400)), nil
}

func dateTime(v columnar.Value) time.Time { return time.UnixMicro(micros(v)).UTC() }

func fnLastDay(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	tm := dateTime(a[0])
	last := time.Date(tm.Year(), tm.Month()+1, 0, 0, 0, 0, 0, time.UTC)
	return columnar.IntValue(t, floorDiv(last.Unix(), 86400)), nil
}

func fnDayName(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.StringValue(dateTime(a[0]).Weekday().String()), nil
}

func fnMonthName(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.StringValue(dateTime(a[0]).Month().String()), nil
}

func fnEpochMs(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if t.ID == columnar.Timestamp {
		ms := a[0].I
		if ms > (1<<63-1)/1000 || ms < -(1<<63-1)/1000 {
			return columnar.Value{}, fmt.Errorf("epoch_ms: %d is out of the TIMESTAMP range", ms)
		}
		return columnar.IntValue(t, ms*1000), nil
	}
	return columnar.IntValue(t, floorDiv(micros(a[0]), 1000)), nil
}

func fnEpochScaled(k int64) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		if columnar.Infinity(a[0].Type, a[0].I) != 0 {
			return columnar.NullValue(t), nil // no epoch (DuckDB: NULL)
		}
		if a[0].Type.ID == columnar.TimestampNS && k == 1000 {
			return columnar.IntValue(t, a[0].I), nil // epoch_ns: the payload itself
		}
		us := micros(a[0])
		if us > math.MaxInt64/k || us < math.MinInt64/k {
			return columnar.Value{}, fmt.Errorf("epoch_ns: %s is out of range for nanoseconds", a[0])
		}
		return columnar.IntValue(t, us*k), nil
	}
}

func fnMakeTimestamp(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if len(a) == 1 {
		if t.ID == columnar.Timestamp && (a[0].I < columnar.MinTimestamp || a[0].I > columnar.MaxTimestamp) || columnar.Infinity(t, a[0].I) != 0 {
			return columnar.Value{}, fmt.Errorf("make_timestamp: %d microseconds is out of the TIMESTAMP range", a[0].I)
		}
		return columnar.IntValue(t, a[0].I), nil
	}
	y, mo, d, h, mi, s := a[0].I, a[1].I, a[2].I, a[3].I, a[4].I, a[5].F
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || !(s >= 0 && s < 60) {
		return columnar.Value{}, fmt.Errorf("make_timestamp: %d-%d-%d %d:%d:%v is not a valid timestamp", y, mo, d, h, mi, s)
	}
	day := time.Date(int(y), time.Month(mo), int(d), 0, 0, 0, 0, time.UTC)
	if day.Day() != int(d) {
		return columnar.Value{}, fmt.Errorf("make_timestamp: %d-%d-%d is not a valid date", y, mo, d)
	}
	us := day.UnixMicro() + (h*3600+mi*60)*1e6 + int64(math.Round(s*1e6))
	if us < columnar.MinTimestamp || us > columnar.MaxTimestamp {
		return columnar.Value{}, fmt.Errorf("make_timestamp: %d-%d-%d %d:%d:%v is out of the TIMESTAMP range", y, mo, d, h, mi, s)
	}
	return columnar.IntValue(t, us), nil
}

// dateSubUnits are the fixed-length parts of date_sub, in microseconds.
var dateSubUnits = map[string]int64{
	"microsecond": 1, "microseconds": 1, "us": 1, "millisecond": 1000, "milliseconds": 1000, "ms": 1000,
	"second": 1e6, "seconds": 1e6, "s": 1e6, "sec": 1e6, "minute": 60e6, "minutes": 60e6, "m": 60e6, "min": 60e6,
	"hour": 3600e6, "hours": 3600e6, "h": 3600e6, "day": 86400e6, "days": 86400e6, "d": 86400e6,
	"week": 7 * 86400e6, "weeks": 7 * 86400e6, "w": 7 * 86400e6,
}

// dateSubMonths are the calendar parts, in months.
var dateSubMonths = map[string]int64{
	"month": 1, "months": 1, "mon": 1, "quarter": 3, "quarters": 3, "year": 12, "years": 12, "y": 12, "yr": 12,
	"decade": 120, "decades": 120, "century": 1200, "centuries": 1200, "millennium": 12000, "millennia": 12000,
}

// fnDateSub counts whole parts from a[1] to a[2], negative when a[2] is
// earlier: date_sub('month', '2020-01-31', '2020-02-29') is 1, since the
// end is the last day of its month.
func fnDateSub(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	part := strings.ToLower(a[0].S)
	x, y := micros(a[1]), micros(a[2])
	if u, ok := dateSubUnits[part]; ok {
		return columnar.IntValue(t, (y-x)/u), nil
	}
	per, ok := dateSubMonths[part]
	if !ok {
		return columnar.Value{}, fmt.Errorf("date_sub: unknown part %q", a[0].S)
	}
	sign := int64(1)
	if y < x {
		x, y, sign = y, x, -1
	}
	return columnar.IntValue(t, sign*(wholeMonths(x, y)/per)), nil
}

// wholeMonths is the number of complete months from x to y (x <= y): a
// month is complete when y's day and time of day reach x's, or y is the
// last day of its month (at or after x's time of day).
func wholeMonths(x, y int64) int64 {
	tx, ty := time.UnixMicro(x).UTC(), time.UnixMicro(y).UTC()
	n := int64(ty.Year()-tx.Year())*12 + int64(ty.Month()-tx.Month())
	dx, dy := tx.Day(), ty.Day()
	if last := time.Date(ty.Year(), ty.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day(); dy == last {
		dy = max(dy, dx)
	}
	clock := func(tm time.Time) int64 {
		return tm.UnixMicro() - floorDiv(tm.UnixMicro(), columnar.MicrosPerDay)*columnar.MicrosPerDay
	}
	if dy < dx || dy == dx && clock(ty) < clock(tx) {
		n--
	}
	return n
}

func fnYearWeek(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, yearWeek(dateTime(a[0]))), nil // kernel_date.go
}

func fnJulian(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.FloatValue(t, julianEpoch+float64(micros(a[0]))/float64(columnar.MicrosPerDay)), nil
}
