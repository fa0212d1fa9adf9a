package columnar

import (
	"strings"
	"time"
)

// TIME WITH TIME ZONE (TIMETZ) is a time of day with its UTC offset, as
// DuckDB's dtime_tz_t: 12:00:00+05 and 07:00:00+00 are the same instant but
// different values. DuckDB orders them by the UTC instant, then the larger
// offset first; the int64 held here is that order's key, so that
// comparing, sorting, grouping and hashing work on it as on any integer:
//
//	key = (micros − offset·10^6) · timeTZSpan + (MaxTimeTZOffset − offset)
//
// micros is the local time of day (0 ..= 24:00:00), offset the UTC offset
// in seconds (|offset| ≤ 15:59:59).

// MaxTimeTZOffset is the largest UTC offset of a TIMETZ, in seconds
// (15:59:59, DuckDB's).
const MaxTimeTZOffset = 16*3600 - 1

const timeTZSpan = 2*MaxTimeTZOffset + 1

// TimeTZKey encodes a local time of day (microseconds) and its offset
// (seconds east of UTC).
func TimeTZKey(micros int64, offset int32) int64 {
	utc := micros - int64(offset)*MicrosPerSecond
	return utc*timeTZSpan + int64(MaxTimeTZOffset-offset)
}

// TimeTZParts decodes a key into the local time of day and the offset.
func TimeTZParts(key int64) (micros int64, offset int32) {
	utc, r := key/timeTZSpan, key%timeTZSpan
	if r < 0 {
		utc, r = utc-1, r+timeTZSpan
	}
	offset = int32(MaxTimeTZOffset - r)
	return utc + int64(offset)*MicrosPerSecond, offset
}

// ParseTimeTZ reads DuckDB's TIMETZ text: a time as ParseTime reads it,
// with seconds, followed by an optional offset ±HH[:MM[:SS]] or ±HHMM
// (none is +00). With a date in front DuckDB gives the time in UTC, +00.
func ParseTimeTZ(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	var offset int32
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		return 0, false
	}
	if at := strings.IndexAny(s[colon:], "+-"); at >= 0 {
		off, ok := parseUTCOffset(s[colon+at:])
		if !ok {
			return 0, false
		}
		s, offset = strings.TrimSpace(s[:colon+at]), off
	}
	if strings.Count(s[colon:], ":") < 2 || strings.HasSuffix(strings.ToUpper(s), "Z") {
		return 0, false // DuckDB wants the seconds, and takes no Z
	}
	us, ok := ParseTime(s)
	if !ok {
		return 0, false
	}
	if strings.IndexByte(s[:colon], '-') > 0 {
		// A date in front: the UTC time of day, as DuckDB gives it.
		us = TimeOfDay(us - int64(offset)*MicrosPerSecond)
		offset = 0
	}
	return TimeTZKey(us, offset), true
}

// parseUTCOffset reads ±HH[:MM[:SS]] or ±HHMM as seconds east of UTC.
func parseUTCOffset(s string) (int32, bool) {
	sign := int32(1)
	if s[0] == '-' {
		sign = -1
	}
	s = strings.TrimSpace(s[1:])
	if len(s) == 4 && !strings.Contains(s, ":") {
		s = s[:2] + ":" + s[2:]
	}
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return 0, false
	}
	var f [3]int32
	for i, p := range parts {
		if len(p) != 2 {
			return 0, false
		}
		for _, c := range []byte(p) {
			if c < '0' || c > '9' {
				return 0, false
			}
			f[i] = f[i]*10 + int32(c-'0')
		}
	}
	if f[0] > 15 || f[1] > 59 || f[2] > 59 {
		return 0, false
	}
	return sign * (f[0]*3600 + f[1]*60 + f[2]), true
}

// AppendTimeTZ appends a TIMETZ as DuckDB prints it: the local time, then
// the offset as ±HH, with :MM and :SS when they are not zero.
func AppendTimeTZ(dst []byte, key int64) []byte {
	us, off := TimeTZParts(key)
	dst = AppendTime(dst, us)
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	h, m, s := off/3600, off/60%60, off%60
	dst = append(dst, sign, byte('0'+h/10), byte('0'+h%10))
	if m != 0 || s != 0 {
		dst = append(dst, ':', byte('0'+m/10), byte('0'+m%10))
	}
	if s != 0 {
		dst = append(dst, ':', byte('0'+s/10), byte('0'+s%10))
	}
	return dst
}

// ClockTimeTZ returns a TIMETZ as a time.Time on 0001-01-01 at its local
// time, in a fixed zone of its offset (so the instant and the offset are
// both kept).
func ClockTimeTZ(key int64) time.Time {
	us, off := TimeTZParts(key)
	zone := time.FixedZone("", int(off))
	return time.Date(1, 1, 1, 0, 0, 0, 0, zone).Add(time.Duration(us) * time.Microsecond)
}

// TimeTZUTC returns the UTC time of day of a TIMETZ (its local time less
// its offset, wrapped into a day), as DuckDB writes one to Parquet.
func TimeTZUTC(key int64) int64 {
	us, off := TimeTZParts(key)
	return TimeOfDay(us - int64(off)*MicrosPerSecond)
}
