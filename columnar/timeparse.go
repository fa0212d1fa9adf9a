package columnar

import "time"

// timestampLayouts are the date and timestamp texts DuckDB reads: the date
// alone, then date and time with a space or a 'T', seconds with an
// optional fraction, and an optional trailing 'Z' or ±HH[:MM] offset.
// Fields may be unpadded ('2024-1-5 9:3').
var timestampLayouts = []string{
	"2006-1-2",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2T15:4:5.999999999",
	"2006-1-2 15:4",
	"2006-1-2T15:4",
	"2006-1-2 15:4:5.999999999Z07:00",
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999Z07",
	"2006-1-2T15:4:5.999999999Z07",
	"2006-1-2 15:4:5.999999999-0700",
}

// ParseTimestamp reads a date or timestamp text (UTC unless it carries an
// offset) as microseconds since the epoch; dateOnly says it had no time
// part. The binder's literals and the executor's casts both read with it,
// so that '2024-01-05 10:00'::DATE means the same in a constant and in a
// column.
//
// 'infinity' and '-infinity' give the infinite timestamps, 'epoch' 0.
func ParseTimestamp(s string) (us int64, dateOnly bool, ok bool) {
	if sign, ok := parseSpecial(s); ok {
		if sign == 0 {
			return 0, false, true
		}
		return InfinityOf(TTimestamp, sign), false, true
	}
	for i, l := range timestampLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UnixMicro(), i == 0, true
		}
	}
	return 0, false, false
}

// ParseDate reads a date, or a timestamp text whose date it keeps (DuckDB
// casts '2024-01-05 10:00' to DATE 2024-01-05), as days since the epoch.
func ParseDate(s string) (int64, bool) {
	us, _, ok := ParseTimestamp(s)
	if !ok {
		return 0, false
	}
	return TimestampToDate(us), true
}
