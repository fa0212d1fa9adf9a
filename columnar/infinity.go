package columnar

import (
	"math"
	"strings"
)

// DuckDB's infinite DATE and TIMESTAMP values: 'infinity' is later and
// '-infinity' earlier than every finite value, so they are the extreme
// payloads and sort, compare, min and max unchanged. They are DuckDB's
// own payloads too (a date is an int32 there), so that DATE - DATE of an
// infinite date gives DuckDB's number and files written for DuckDB read
// back as infinities.
const (
	DateInfinity         = math.MaxInt32
	DateNegInfinity      = -math.MaxInt32
	TimestampInfinity    = math.MaxInt64
	TimestampNegInfinity = -math.MaxInt64
)

// Infinity returns the sign of an infinite DATE or TIMESTAMP payload v of
// type t: +1, -1, or 0 for a finite value (or another type).
func Infinity(t Type, v int64) int {
	switch t.ID {
	case Date:
		return infSign(v, DateInfinity)
	case Timestamp, TimestampTZ, TimestampS, TimestampMS, TimestampNS:
		return infSign(v, TimestampInfinity)
	}
	return 0
}

func infSign(v, inf int64) int {
	switch {
	case v >= inf:
		return 1
	case v <= -inf:
		return -1
	}
	return 0
}

// InfinityOf returns the payload of type t (DATE or TIMESTAMP) that is
// infinite with the given sign.
func InfinityOf(t Type, sign int) int64 {
	inf := int64(TimestampInfinity)
	if t.ID == Date {
		inf = DateInfinity
	}
	if sign < 0 {
		return -inf
	}
	return inf
}

// parseSpecial reads the words DuckDB accepts for a date or timestamp
// besides a calendar date: 'infinity', '-infinity' (sign ±1) and 'epoch'
// (sign 0), in any case, spaces around them ignored.
func parseSpecial(s string) (sign int, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "infinity":
		return 1, true
	case "-infinity":
		return -1, true
	case "epoch":
		return 0, true
	}
	return 0, false
}

// DateToTimestamp converts a DATE payload to a TIMESTAMP one, keeping
// infinities; a date past TIMESTAMP's range (civil.go) saturates there
// (DateToTimestampChecked refuses it).
func DateToTimestamp(days int64) int64 {
	us, _ := DateToTimestampChecked(days)
	return us
}

// DateToTimestampChecked is DateToTimestamp, false for a finite date
// outside TIMESTAMP's range (DuckDB: "Date and time not in timestamp
// range").
func DateToTimestampChecked(days int64) (int64, bool) {
	if s := Infinity(TDate, days); s != 0 {
		return InfinityOf(TTimestamp, s), true
	}
	switch {
	case days < MinTimestamp/MicrosPerDay:
		return MinTimestamp, false
	case days > MaxTimestamp/MicrosPerDay:
		return MaxTimestamp, false
	}
	return days * MicrosPerDay, true
}

// TimestampToDate converts a TIMESTAMP payload to a DATE one (the day it
// falls on), keeping infinities.
func TimestampToDate(us int64) int64 {
	if s := Infinity(TTimestamp, us); s != 0 {
		return InfinityOf(TDate, s)
	}
	d := us / MicrosPerDay
	if us%MicrosPerDay < 0 {
		d--
	}
	return d
}

// appendInfinity appends "infinity" or "-infinity" for an infinite payload
// and reports whether it did.
func appendInfinity(dst []byte, t Type, v int64) ([]byte, bool) {
	switch Infinity(t, v) {
	case 1:
		return append(dst, "infinity"...), true
	case -1:
		return append(dst, "-infinity"...), true
	}
	return dst, false
}
