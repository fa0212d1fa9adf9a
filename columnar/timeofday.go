package columnar

import (
	"strings"
	"time"
)

// TIME values are microseconds since midnight, as DuckDB's dtime_t. The
// range is 00:00:00 through 24:00:00 inclusive: DuckDB reads '24:00:00'
// (the end of a day, ISO 8601) and keeps it distinct from 00:00:00.

// MicrosPerHour and MicrosPerMinute split a time of day into fields.
const (
	MicrosPerMinute = 60 * MicrosPerSecond
	MicrosPerHour   = 60 * MicrosPerMinute
)

// ParseTime reads a time of day as DuckDB casts text to TIME:
// "[YYYY-MM-DD ]H:M[:S[.ffffff]]" with one or more hour digits and one or
// two minute and second digits, surrounding spaces, a fraction whose
// digits past the sixth are dropped, and an ignored trailing 'Z' or
// ±HH[:MM] offset (DuckDB keeps the wall clock time); after the seconds of
// a time without a date DuckDB ignores any text, and so does ParseTime.
// A date alone reads as midnight; a date with a 'T' or space before the
// time is skipped. Hours run to 24, and 24 only as 24:00:00.
func ParseTime(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	dated := false
	if i := strings.IndexAny(s, "-:"); i > 0 && s[i] == '-' {
		// A date first: it must be a date, and its time (if any) follows.
		date, rest := s, ""
		if j := strings.IndexAny(s, " T"); j >= 0 {
			date, rest = s[:j], strings.TrimLeft(s[j+1:], " ")
		}
		if _, ok := ParseDate(date); !ok {
			return 0, false
		}
		if rest == "" {
			return 0, true
		}
		s, dated = rest, true
	}
	h, s, ok := timeField(s, 0)
	if !ok || len(s) == 0 || s[0] != ':' {
		return 0, false
	}
	m, s, ok := timeField(s[1:], 2)
	if !ok || m > 59 {
		return 0, false
	}
	var sec, frac int64
	seconds := len(s) > 0 && s[0] == ':'
	if seconds {
		if sec, s, ok = timeField(s[1:], 2); !ok || sec > 59 {
			return 0, false
		}
		if len(s) > 0 && s[0] == '.' {
			s = s[1:]
			digits := 0
			for len(s) > 0 && isDigit(s[0]) {
				if digits < 6 {
					frac = frac*10 + int64(s[0]-'0')
				}
				digits++
				s = s[1:]
			}
			for ; digits < 6; digits++ {
				frac *= 10
			}
		}
	}
	// DuckDB ignores whatever follows a time with seconds ('12:34:56 PM'
	// reads 12:34:56); after H:M, or a date's time, only a zone may follow.
	if (dated || !seconds) && !timeSuffixOK(s) {
		return 0, false
	}
	us := h*MicrosPerHour + m*MicrosPerMinute + sec*MicrosPerSecond + frac
	if h > 24 || us > MicrosPerDay {
		return 0, false
	}
	return us, true
}

// timeField reads a run of digits (at most max when max > 0) as a number.
func timeField(s string, max int) (int64, string, bool) {
	var n int64
	i := 0
	for i < len(s) && isDigit(s[i]) && (max == 0 || i < max) && n < 1e6 {
		n = n*10 + int64(s[i]-'0')
		i++
	}
	return n, s[i:], i > 0
}

// timeSuffixOK accepts what may follow a time: nothing, or a zone
// designator DuckDB ignores when it reads TIME ('Z', '+02', '-05:30'),
// possibly after spaces.
func timeSuffixOK(s string) bool {
	s = strings.TrimLeft(s, " ")
	switch {
	case s == "" || s == "Z":
		return true
	case s[0] != '+' && s[0] != '-':
		return false
	}
	h, rest, ok := timeField(s[1:], 2)
	if !ok || h > 24 {
		return false
	}
	if len(rest) > 0 && rest[0] == ':' {
		var m int64
		if m, rest, ok = timeField(rest[1:], 2); !ok || m > 59 {
			return false
		}
	}
	return strings.TrimSpace(rest) == ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// AppendTime formats microseconds since midnight as DuckDB prints a TIME:
// "HH:MM:SS", then ".ffffff" with trailing zeros trimmed when the fraction
// is not zero.
func AppendTime(dst []byte, us int64) []byte {
	h, m, s, f := us/MicrosPerHour, us/MicrosPerMinute%60, us/MicrosPerSecond%60, us%MicrosPerSecond
	dst = append(dst, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10))
	if f == 0 {
		return dst
	}
	dst = append(dst, '.')
	for d := int64(100_000); f != 0; d /= 10 {
		dst = append(dst, byte('0'+f/d))
		f %= d
	}
	return dst
}

// ClockTime returns a TIME as a time.Time on 0001-01-01 UTC, as the
// DuckDB Go driver scans one (24:00:00 is 0001-01-02 00:00:00).
func ClockTime(us int64) time.Time {
	return time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(us) * time.Microsecond)
}

// TimeOfDay returns the time of day of a timestamp (microseconds since the
// epoch), as CAST(ts AS TIME): the remainder modulo a day, never negative.
func TimeOfDay(us int64) int64 {
	t := us % MicrosPerDay
	if t < 0 {
		t += MicrosPerDay
	}
	return t
}

// WrapTime brings a time moved by an interval back into one day, as DuckDB
// does for TIME ± INTERVAL: 23:00 + 2 hours is 01:00, 01:00 - 2 hours is
// 23:00, and a sum landing on 24:00:00 reads 00:00:00.
func WrapTime(us int64) int64 { return TimeOfDay(us) }
