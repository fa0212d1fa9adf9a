package executor

import (
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// age(a, b) is a - b as years, months, days and time of day, subtracted
// field by field the way DuckDB does: a negative field borrows from the
// next larger one, days borrowing the length of the earlier value's month
// (age('2020-03-01', '2019-01-15 10:00') is 1 year 1 month 16 days
// 14:00:00), the years and months as the INTERVAL's months. age(b) binds
// as age(today at midnight, b).

func fnAge(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x, y := micros(a[0]), micros(a[1])
	sign := int64(1)
	if x < y {
		x, y, sign = y, x, -1
	}
	tx, ty := time.UnixMicro(x).UTC(), time.UnixMicro(y).UTC()
	years := int64(tx.Year() - ty.Year())
	months := int64(tx.Month() - ty.Month())
	days := int64(tx.Day() - ty.Day())
	// The time of day as one microsecond count borrows a day at once,
	// which is what hours, minutes, seconds and microseconds borrowing
	// in turn amount to.
	tod := func(tm time.Time) int64 {
		return int64(tm.Hour())*3600e6 + int64(tm.Minute())*60e6 + int64(tm.Second())*1e6 + int64(tm.Nanosecond()/1000)
	}
	us := tod(tx) - tod(ty)
	if us < 0 {
		us += columnar.MicrosPerDay
		days--
	}
	monthDays := int64(time.Date(ty.Year(), ty.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day())
	for days < 0 {
		days += monthDays
		months--
	}
	for months < 0 {
		months += 12
		years--
	}
	return columnar.IntervalValue(columnar.IntervalParts{
		Months: int32(sign * (years*12 + months)), Days: int32(sign * days), Micros: sign * us}), nil
}
