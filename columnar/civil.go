package columnar

// Dates as DuckDB reads and prints them: the proleptic Gregorian calendar
// over astronomical years (year 0 is 1 BC), from 5877642-06-25 (BC) to
// 5881580-07-10 for a DATE (DuckDB's int32 days) and from 290309-12-22
// (BC) to 294247-01-10 04:00:54.775806 for a TIMESTAMP. A year of four
// digits or more prints as it is; years up to 0 print as 1 - year with
// " (BC)" after the date ('0044-03-15 (BC)' is year -43), and read so.

const (
	// MinDate and MaxDate are the finite DATE payloads' bounds.
	MinDate = -2147483646 // 5877642-06-25 (BC)
	MaxDate = 2147483646  // 5881580-07-10
	// MinTimestamp and MaxTimestamp are the finite TIMESTAMP payloads'
	// bounds (µs).
	MinTimestamp = -9223372022400000000 // 290309-12-22 (BC) 00:00:00
	MaxTimestamp = 9223372036854775806  // 294247-01-10 04:00:54.775806
)

// DaysFromCivil returns the days since 1970-01-01 of year y (astronomical),
// month m and day d (Howard Hinnant's days_from_civil).
func DaysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// CivilFromDays is DaysFromCivil's inverse.
func CivilFromDays(days int64) (y, m, d int64) {
	z := days + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// DaysInMonth is the number of days of month m of year y (astronomical).
func DaysInMonth(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// appendCivilDate appends days as YYYY-MM-DD and reports whether the year
// is BC (the caller appends " (BC)" where DuckDB puts it).
func appendCivilDate(dst []byte, days int64) ([]byte, bool) {
	y, m, d := CivilFromDays(days)
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	dst = appendPadded(dst, y, 4)
	dst = append(dst, '-')
	dst = appendPadded(dst, m, 2)
	dst = append(dst, '-')
	return appendPadded(dst, d, 2), bc
}

// appendClock appends the time of day µs (0 ≤ µs < a day) as HH:MM:SS.
func appendClock(dst []byte, sec int64) []byte {
	dst = appendPadded(dst, sec/3600, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, sec/60%60, 2)
	dst = append(dst, ':')
	return appendPadded(dst, sec%60, 2)
}

func appendPadded(dst []byte, v int64, width int) []byte {
	var buf [20]byte
	i := len(buf)
	for v > 0 || len(buf)-i < width {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	return append(dst, buf[i:]...)
}

// appendDateTime appends a finite timestamp of sec seconds since the
// epoch as DuckDB does, the fraction left to the caller:
// "YYYY-MM-DD HH:MM:SS", "YYYY-MM-DD (BC) HH:MM:SS" before year 1.
func appendDateTime(dst []byte, sec int64) []byte {
	dst, bc := appendCivilDate(dst, floorDiv(sec, 86400))
	if bc {
		dst = append(dst, " (BC)"...)
	}
	dst = append(dst, ' ')
	return appendClock(dst, floorMod(sec, 86400))
}

// parseCivilDate reads the date at the start of s as DuckDB does: an
// optional '-' (a negative astronomical year), the year's digits, the
// month and the day (one or two digits each) separated by '-' or '/'
// alike, and an optional " (BC)" (year 1 - y). It returns the days and
// the rest of s.
func parseCivilDate(s string) (days int64, rest string, ok bool) {
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg, i = true, i+1
	}
	y, i, ok := parseDigits(s, i, 1, 7)
	if !ok || i >= len(s) || s[i] != '-' && s[i] != '/' {
		return 0, "", false
	}
	sep := s[i]
	m, i, ok := parseDigits(s, i+1, 1, 2)
	if !ok || i >= len(s) || s[i] != sep {
		return 0, "", false
	}
	d, i, ok := parseDigits(s, i+1, 1, 2)
	if !ok {
		return 0, "", false
	}
	if neg {
		y = -y
	}
	rest = s[i:]
	if len(rest) >= 5 && rest[0] == ' ' && rest[1:5] == "(BC)" {
		if neg {
			return 0, "", false
		}
		y, rest = 1-y, rest[5:]
	}
	if m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, m) {
		return 0, "", false
	}
	days = DaysFromCivil(y, m, d)
	return days, rest, days >= MinDate && days <= MaxDate
}

// parseDigits reads lo to hi decimal digits of s from i.
func parseDigits(s string, i, lo, hi int) (int64, int, bool) {
	var v int64
	n := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' && n < hi {
		v = v*10 + int64(s[i]-'0')
		i, n = i+1, n+1
	}
	return v, i, n >= lo && (i >= len(s) || s[i] < '0' || s[i] > '9')
}
