package columnar

import "time"

// clockLayouts are the times of day DuckDB reads after a date and a space
// or a 'T' (timestampLayouts without their date): seconds with an
// optional fraction, and an optional trailing 'Z' or ±HH[:MM] offset.
// Fields may be unpadded ('2024-1-5 9:3').
var clockLayouts = []string{
	"15:4:5.999999999",
	"15:4",
	"15:4:5.999999999Z07:00",
	"15:4:5.999999999Z07",
	"15:4:5.999999999-0700",
}

// ParseTimestamp reads a date or timestamp text (UTC unless it carries an
// offset) as microseconds since the epoch; dateOnly says it had no time
// part. The binder's literals and the executor's casts both read with it,
// so that '2024-01-05 10:00'::DATE means the same in a constant and in a
// column. The date is read as DuckDB reads it (civil.go: years of any
// width, BC), and must lie in the TIMESTAMP range.
//
// 'infinity' and '-infinity' give the infinite timestamps, 'epoch' 0.
func ParseTimestamp(s string) (us int64, dateOnly bool, ok bool) {
	if sign, ok := parseSpecial(s); ok {
		if sign == 0 {
			return 0, false, true
		}
		return InfinityOf(TTimestamp, sign), false, true
	}
	days, clock, dateOnly, _, ok := parseDateTime(s)
	if !ok || days < MinTimestamp/MicrosPerDay-1 || days > MaxTimestamp/MicrosPerDay+1 {
		return 0, false, false
	}
	us = days*MicrosPerDay + floorDiv(clock, 1000)
	return us, dateOnly, us >= MinTimestamp && us <= MaxTimestamp
}

// parseDateTime reads a date and an optional time of day: clock is its
// nanoseconds after the date's midnight (an offset may move it outside
// the day), offset says the text carried one.
func parseDateTime(s string) (days, clock int64, dateOnly, offset, ok bool) {
	days, rest, ok := parseCivilDate(s) // civil.go
	if !ok {
		return 0, 0, false, false, false
	}
	if rest == "" {
		return days, 0, true, false, true
	}
	if rest[0] != ' ' && rest[0] != 'T' {
		return 0, 0, false, false, false
	}
	for i, l := range clockLayouts {
		if t, err := time.Parse("2006-01-02 "+l, "1970-01-01 "+rest[1:]); err == nil {
			return days, t.Unix()*1e9 + int64(t.Nanosecond()), false, i >= 2, true
		}
	}
	return 0, 0, false, false, false
}

// ParseDate reads a date, or a timestamp text whose date it keeps (DuckDB
// casts '2024-01-05 10:00' to DATE 2024-01-05), as days since the epoch.
func ParseDate(s string) (int64, bool) {
	if sign, ok := parseSpecial(s); ok {
		if sign == 0 {
			return 0, true
		}
		return InfinityOf(TDate, sign), true
	}
	days, clock, _, _, ok := parseDateTime(s)
	if !ok {
		return 0, false
	}
	return days + floorDiv(clock, MicrosPerDay*1000), true
}
