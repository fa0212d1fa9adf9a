package columnar

import (
	"strconv"
	"time"
)

// DuckDB's TIMESTAMP_S, TIMESTAMP_MS and TIMESTAMP_NS hold a local date
// and time in another unit than TIMESTAMP's microseconds. They exist so
// that a file's timestamps keep their precision (a Parquet NANOS column is
// TIMESTAMP_NS); functions and arithmetic read them as TIMESTAMP, as
// DuckDB's implicit casts do. Their infinities are TIMESTAMP's payloads.

// IsTimestampUnit reports whether t is TIMESTAMP_S, TIMESTAMP_MS or
// TIMESTAMP_NS.
func (t Type) IsTimestampUnit() bool {
	return t.ID == TimestampS || t.ID == TimestampMS || t.ID == TimestampNS
}

// IsTimestampFamily reports whether t is a local timestamp of any unit:
// TIMESTAMP or one of the unit types.
func (t Type) IsTimestampFamily() bool { return t.ID == Timestamp || t.IsTimestampUnit() }

// TimestampUnitType returns DuckDB's type for TIMESTAMP(p), p fractional
// digits of a second: 0 is TIMESTAMP_S, 1..3 TIMESTAMP_MS, 4..6 TIMESTAMP,
// 7..9 TIMESTAMP_NS; false past 9.
func TimestampUnitType(p int) (Type, bool) {
	switch {
	case p == 0:
		return TTimestampS, true
	case p >= 1 && p <= 3:
		return TTimestampMS, true
	case p >= 4 && p <= 6:
		return TTimestamp, true
	case p >= 7 && p <= 9:
		return TTimestampNS, true
	}
	return Type{}, false
}

// unitsPerMicro is how many units of t make a microsecond (NS: 1000), or
// how many microseconds make one unit when negative (S: -1e6, MS: -1000).
func unitsPerMicro(id TypeID) int64 {
	switch id {
	case TimestampS:
		return -MicrosPerSecond
	case TimestampMS:
		return -1000
	case TimestampNS:
		return 1000
	}
	return 1
}

// UnitToMicros converts a payload of a TIMESTAMP_S/MS/NS (or TIMESTAMP)
// type t to TIMESTAMP's microseconds: seconds and milliseconds exactly
// (false past TIMESTAMP's range), nanoseconds truncated toward zero as
// DuckDB's cast does (1969-12-31 23:59:59.999999999 becomes 1970-01-01).
// Infinities stay infinite.
func UnitToMicros(t Type, v int64) (int64, bool) {
	if s := infSign(v, TimestampInfinity); s != 0 {
		return InfinityOf(TTimestamp, s), true
	}
	k := unitsPerMicro(t.ID)
	if k > 0 {
		return v / k, true
	}
	if v > (TimestampInfinity-1)/-k || v < -(TimestampInfinity-1)/-k {
		return 0, false
	}
	return v * -k, true
}

// MicrosToUnit converts a TIMESTAMP payload us to type t's unit: to
// seconds and milliseconds rounded half away from the epoch, as DuckDB's
// casts round (Timestamp::GetEpochRounded); to nanoseconds exactly, false
// outside what an int64 of nanoseconds holds (about 1677..2262).
func MicrosToUnit(t Type, us int64) (int64, bool) {
	if s := infSign(us, TimestampInfinity); s != 0 {
		return InfinityOf(TTimestamp, s), true
	}
	k := unitsPerMicro(t.ID)
	if k > 0 {
		if us > (TimestampInfinity-1)/k || us < -(TimestampInfinity-1)/k {
			return 0, false
		}
		return us * k, true
	}
	// Halve the unit first so that the scaled value cannot overflow;
	// stepping away from zero before the last halving rounds half away.
	v := us / (-k / 2)
	if v < 0 {
		v--
	} else {
		v++
	}
	return v / 2, true
}

// UnitToUnit converts a payload between two timestamp types (TIMESTAMP
// included). DuckDB defines the casts to a finer unit (exact) and from
// TIMESTAMP_NS to TIMESTAMP; ok is false for the others and for values the
// target cannot hold.
func UnitToUnit(from, to Type, v int64) (int64, bool) {
	if from.ID == to.ID {
		return v, true
	}
	if to.ID == Timestamp {
		return UnitToMicros(from, v)
	}
	if from.ID == Timestamp {
		return MicrosToUnit(to, v)
	}
	if s := infSign(v, TimestampInfinity); s != 0 {
		return InfinityOf(TTimestamp, s), true
	}
	per := func(id TypeID) int64 { // units per second
		switch id {
		case TimestampS:
			return 1
		case TimestampMS:
			return 1000
		}
		return 1_000_000_000
	}
	f, g := per(from.ID), per(to.ID)
	if g < f {
		return 0, false // DuckDB: "Unimplemented type for cast"
	}
	m := g / f
	if v > (TimestampInfinity-1)/m || v < -(TimestampInfinity-1)/m {
		return 0, false
	}
	return v * m, true
}

// ParseTimestampNS reads a timestamp text as nanoseconds since the epoch,
// keeping up to nine fractional digits (more are dropped, as DuckDB
// does); false for text that is no timestamp or lies past TIMESTAMP_NS's
// range.
func ParseTimestampNS(s string) (int64, bool) {
	if sign, ok := parseSpecial(s); ok {
		if sign == 0 {
			return 0, true
		}
		return InfinityOf(TTimestamp, sign), true
	}
	days, clock, _, _, ok := parseDateTime(s) // timeparse.go
	if !ok || days > (TimestampInfinity-1)/(MicrosPerDay*1000)+1 || days < -(TimestampInfinity-1)/(MicrosPerDay*1000)-1 {
		return 0, false
	}
	sec := days*86400 + floorDiv(clock, 1e9)
	if sec > (TimestampInfinity-1)/1_000_000_000-1 || sec < -(TimestampInfinity-1)/1_000_000_000+1 {
		return 0, false
	}
	ns := sec*1e9 + floorMod(clock, 1e9)
	return ns, ns > -TimestampInfinity && ns < TimestampInfinity
}

// AppendTimestampUnit formats a TIMESTAMP_S/MS/NS payload as DuckDB
// prints it: the date and time, then the fraction of a second without
// trailing zeros (nanosecond digits for TIMESTAMP_NS).
func AppendTimestampUnit(dst []byte, t Type, v int64) []byte {
	if dst, ok := appendInfinity(dst, TTimestamp, v); ok {
		return dst
	}
	var sec, ns int64
	switch t.ID {
	case TimestampS:
		sec = v
	case TimestampMS:
		sec, ns = floorDiv(v, 1000), floorMod(v, 1000)*1_000_000
	case TimestampNS:
		sec, ns = floorDiv(v, 1e9), floorMod(v, 1e9)
	default:
		return AppendTimestamp(dst, v)
	}
	dst = appendDateTime(dst, sec) // civil.go
	if ns != 0 {
		s := strconv.FormatInt(ns+1e9, 10)[1:]
		for s[len(s)-1] == '0' {
			s = s[:len(s)-1]
		}
		dst = append(append(dst, '.'), s...)
	}
	return dst
}

// TimestampUnitToTime converts a timestamp payload of type t (TIMESTAMP
// or a unit type, finite) to a UTC time.Time with all its precision.
func TimestampUnitToTime(t Type, v int64) time.Time {
	switch t.ID {
	case TimestampS:
		return time.Unix(v, 0).UTC()
	case TimestampMS:
		return time.UnixMilli(v).UTC()
	case TimestampNS:
		return time.Unix(0, v).UTC()
	}
	return TimestampToTime(v)
}
