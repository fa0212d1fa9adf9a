package executor

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// timeOf is CAST(v AS TIME) for the sources DuckDB accepts: text (see
// columnar.ParseTime) and TIMESTAMP (its time of day). DATE, numbers and
// INTERVAL do not cast to TIME in DuckDB; ok is false for them.
func timeOf(v columnar.Value) (us int64, ok bool) {
	switch {
	case v.Type.IsString():
		return columnar.ParseTime(v.S)
	case v.Type.ID == columnar.TimeTZ:
		us, _ := columnar.TimeTZParts(v.I) // the local time, as DuckDB
		return us, true
	case v.Type.ID == columnar.Timestamp && columnar.Infinity(v.Type, v.I) == 0:
		return columnar.TimeOfDay(v.I), true
	case v.Type.IsTimestampUnit() && columnar.Infinity(v.Type, v.I) == 0:
		if us, ok := columnar.UnitToMicros(v.Type, v.I); ok {
			return columnar.TimeOfDay(us), true
		}
	}
	return 0, false
}

// castToTimestampUnit is CAST(v AS TIMESTAMP_S/MS/NS): text parsed
// (TIMESTAMP_NS keeps nine fractional digits; the coarser units read a
// TIMESTAMP and round it, as DuckDB does), DATE and the other timestamp
// types converted (columnar.UnitToUnit).
func castToTimestampUnit(v columnar.Value, to columnar.Type) (columnar.Value, bool) {
	from := v.Type
	var x int64
	ok := false
	switch {
	case from.IsString() && to.ID == columnar.TimestampNS:
		x, ok = columnar.ParseTimestampNS(strings.TrimSpace(v.S))
	case from.IsString():
		var us int64
		if us, _, ok = columnar.ParseTimestamp(strings.TrimSpace(v.S)); ok {
			x, ok = columnar.MicrosToUnit(to, us)
		}
	case from.ID == columnar.Date:
		var us int64
		if us, ok = columnar.DateToTimestampChecked(v.I); ok {
			x, ok = columnar.MicrosToUnit(to, us)
		}
	case from.IsTimestampFamily() || from.ID == columnar.TimestampTZ:
		if from.ID == columnar.TimestampTZ {
			from = columnar.TTimestamp // the binder has made it local (tz_local)
		}
		x, ok = columnar.UnitToUnit(from, to, v.I)
	}
	return columnar.IntValue(to, x), ok
}

// castFromTimestampUnit is CAST(v AS DATE or TIMESTAMP) of a
// TIMESTAMP_S/MS/NS value.
func castFromTimestampUnit(v columnar.Value, to columnar.Type) (columnar.Value, bool) {
	us, ok := columnar.UnitToMicros(v.Type, v.I)
	if !ok {
		return columnar.Value{}, false
	}
	if to.ID == columnar.Date {
		return columnar.IntValue(to, columnar.TimestampToDate(us)), true
	}
	return columnar.IntValue(to, us), true
}

// timeTZOf is CAST(v AS TIME WITH TIME ZONE): text parsed
// (columnar.ParseTimeTZ), a TIME or a TIMESTAMP's time of day at +00, as
// DuckDB casts them.
func timeTZOf(v columnar.Value) (int64, bool) {
	if v.Type.IsString() {
		return columnar.ParseTimeTZ(v.S)
	}
	if v.Type.ID == columnar.Time {
		return columnar.TimeTZKey(v.I, 0), true
	}
	us, ok := timeOf(v)
	return columnar.TimeTZKey(us, 0), ok
}
