package executor

import (
	"fmt"
	"strings"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// Conversions between TIMESTAMP WITH TIME ZONE (an instant) and local
// time in a zone (see columnar/timezone.go). The binder turns casts and
// functions that depend on the session's TimeZone into these calls, with
// the zone's name as the last argument (a constant, or a column for
// AT TIME ZONE):
//
//	tz_local(TIMESTAMPTZ, zone)      TIMESTAMP    the local time of the instant
//	tz_instant(TIMESTAMP, zone)      TIMESTAMPTZ  the instant of the local time
//	tz_text(TIMESTAMPTZ, zone)       VARCHAR      DuckDB's text, with the offset
//	tz_parse(VARCHAR, zone)          TIMESTAMPTZ  an error for bad text
//	try_tz_parse(VARCHAR, zone)      TIMESTAMPTZ  NULL for bad text
//	tz_offset(TIMESTAMPTZ, zone)     BIGINT       the zone's UTC offset at the instant, in seconds
//	tz_add(TIMESTAMPTZ, INTERVAL, zone), tz_sub  TIMESTAMPTZ  months and days on the local
//	                                 calendar, microseconds on the instant (DuckDB's ICU)
//	tz_diff(TIMESTAMPTZ, TIMESTAMPTZ, zone)     INTERVAL     whole local days, then the microseconds left
//	strftime_tz(TIMESTAMPTZ, VARCHAR, zone)     VARCHAR      strftime of the local time; %z, %Z the zone's

func fnTZLocal(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	loc, err := columnar.LoadZone(a[1].S)
	if err != nil {
		return columnar.Value{}, err
	}
	return columnar.IntValue(t, columnar.InstantToLocal(a[0].I, loc)), nil
}

// fnTZTimeTZ is CAST(instant AS TIMETZ) in a zone, as DuckDB: the local
// time of day with the zone's offset at that instant; ±infinity is an error.
func fnTZTimeTZ(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	loc, err := columnar.LoadZone(a[1].S)
	if err != nil {
		return columnar.Value{}, err
	}
	if columnar.Infinity(columnar.TTimestampTZ, a[0].I) != 0 {
		// DuckDB's cast (its timestamp_casts.test; its CLI's ICU cast gives NULL).
		return columnar.Value{}, errorf("cannot get the time of an infinite TIMESTAMP WITH TIME ZONE")
	}
	local := columnar.InstantToLocal(a[0].I, loc)
	off := (local - a[0].I) / columnar.MicrosPerSecond
	return columnar.IntValue(t, columnar.TimeTZKey(columnar.TimeOfDay(local), int32(off))), nil
}

func fnTZInstant(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	loc, err := columnar.LoadZone(a[1].S)
	if err != nil {
		return columnar.Value{}, err
	}
	return columnar.IntValue(t, columnar.LocalToInstant(a[0].I, loc)), nil
}

func fnTZText(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	loc, err := columnar.LoadZone(a[1].S)
	if err != nil {
		return columnar.Value{}, err
	}
	return columnar.StringValue(string(columnar.AppendTimestampTZ(nil, a[0].I, loc))), nil
}

func fnTZParse(try bool) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		loc, err := columnar.LoadZone(a[1].S)
		if err != nil {
			return columnar.Value{}, err
		}
		us, ok := columnar.ParseTimestampTZ(a[0].S, loc)
		if !ok {
			if try {
				return columnar.NullValue(t), nil
			}
			return columnar.Value{}, fmt.Errorf("could not cast %q to TIMESTAMP WITH TIME ZONE", a[0].S)
		}
		return columnar.IntValue(t, us), nil
	}
}

func fnTZOffset(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	loc, err := columnar.LoadZone(a[1].S)
	if err != nil {
		return columnar.Value{}, err
	}
	if columnar.Infinity(a[0].Type, a[0].I) != 0 {
		return columnar.NullValue(t), nil
	}
	return columnar.IntValue(t, columnar.ZoneOffsetSeconds(a[0].I, loc)), nil
}

func fnTZAdd(sign int64) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		loc, err := columnar.LoadZone(a[2].S)
		if err != nil {
			return columnar.Value{}, err
		}
		us, iv := a[0].I, a[1].Interval()
		if columnar.Infinity(a[0].Type, us) != 0 {
			return columnar.IntValue(t, us), nil
		}
		if iv.Months != 0 || iv.Days != 0 {
			local, ok := AddInterval(columnar.InstantToLocal(us, loc), columnar.IntervalParts{Months: iv.Months, Days: iv.Days}, sign)
			if !ok {
				return columnar.Value{}, fmt.Errorf("timestamp out of range")
			}
			us = columnar.LocalToInstant(local, loc)
		}
		r, ok := AddInterval(us, columnar.IntervalParts{Micros: iv.Micros}, sign)
		if !ok {
			return columnar.Value{}, fmt.Errorf("timestamp out of range")
		}
		return columnar.IntValue(t, r), nil
	}
}

// fnTZDiff is a - b as DuckDB's ICU computes it: the most days n such
// that b plus n days on the local calendar does not pass a, then the
// microseconds from there to a (a day across a DST change is 23 or 25
// hours long: '2024-03-10 12:00' - '2024-03-09 12:00' in New York is
// 1 day).
func fnTZDiff(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	loc, err := columnar.LoadZone(a[2].S)
	if err != nil {
		return columnar.Value{}, err
	}
	x, y := a[0].I, a[1].I
	if columnar.Infinity(a[0].Type, x) != 0 || columnar.Infinity(a[1].Type, y) != 0 {
		iv, ok := TimestampDiff(x, y)
		if !ok {
			return columnar.Value{}, fmt.Errorf("interval out of range")
		}
		return columnar.IntervalValue(iv), nil
	}
	sign := int64(1)
	if x < y {
		x, y, sign = y, x, -1
	}
	ly := columnar.InstantToLocal(y, loc)
	plus := func(n int64) int64 { return columnar.LocalToInstant(ly+n*columnar.MicrosPerDay, loc) }
	n := (columnar.InstantToLocal(x, loc) - ly) / columnar.MicrosPerDay
	for n > 0 && plus(n) > x {
		n--
	}
	for plus(n+1) <= x {
		n++
	}
	rest := x - plus(n)
	if n != int64(int32(n)) {
		return columnar.Value{}, fmt.Errorf("interval out of range")
	}
	return columnar.IntervalValue(columnar.IntervalParts{Days: int32(sign * n), Micros: sign * rest}), nil
}

func fnStrftimeTZ(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	loc, err := columnar.LoadZone(a[2].S)
	if err != nil {
		return columnar.Value{}, err
	}
	if columnar.Infinity(a[0].Type, a[0].I) != 0 {
		return columnar.StringValue(a[0].String()), nil
	}
	var b strings.Builder
	if err := appendStrftime(&b, time.UnixMicro(a[0].I).In(loc), a[1].S); err != nil {
		return columnar.Value{}, err
	}
	return columnar.StringValue(b.String()), nil
}
