package executor

import (
	"fmt"
	"strings"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// Calendar arithmetic and parsing of timestamps (registered in func_*.go):
//
//	add_months(ts, n)          TIMESTAMP + n calendar months
//	strptime(s, fmt)           TIMESTAMP parsed with DuckDB's % codes; an error when s does not match
//	try_strptime(s, fmt)       the same, NULL when s does not match
//
// They are registered in func_date.go.
// fnAddMonths adds a[1] months to the TIMESTAMP a[0]; a day past the end of
// the target month becomes its last day (2024-01-31 + 1 month =
// 2024-02-29), as in DuckDB and PostgreSQL.
func fnAddMonths(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, AddMonths(a[0].I, a[1].I)), nil
}

// AddMonths adds n calendar months to a timestamp in microseconds, clamping
// the day to the target month's length. Exported for constant folding.
func AddMonths(us, n int64) int64 {
	tm := time.UnixMicro(us).UTC()
	y, m, d := tm.Date()
	total := int64(y)*12 + int64(m) - 1 + n
	ny, nm := int(floorDiv(total, 12)), time.Month(total-floorDiv(total, 12)*12+1)
	last := time.Date(ny, nm+1, 0, 0, 0, 0, 0, time.UTC).Day()
	d = min(d, last)
	clock := tm.Sub(time.Date(y, m, tm.Day(), 0, 0, 0, 0, time.UTC))
	return time.Date(ny, nm, d, 0, 0, 0, 0, time.UTC).Add(clock).UnixMicro()
}

// checkStrptimeFormat checks the format when the call is built, as DuckDB
// does: it must be a constant, and an empty one or an unknown code is an
// error even for try_strptime and even when the text is NULL.
func checkStrptimeFormat(fn string, args []Expr) error {
	if (fn == "strptime" || fn == "try_strptime") && len(args) == 2 {
		v, ok := ConstValue(args[1])
		if !ok {
			return errorf("%s: the format must be a constant", fn)
		}
		formats := []columnar.Value{v}
		if v.Type.ID == columnar.List {
			formats = v.Elems // a list of formats, tried in order
		}
		for _, v := range formats {
			if err := checkFormat(fn, v); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkFormat(fn string, v columnar.Value) error {
	if v.Null {
		return nil
	}
	if v.S == "" {
		return errorf("%s: empty format string", fn)
	}
	for f := 0; f+1 < len(v.S); f++ {
		if v.S[f] != '%' {
			continue
		}
		f++
		if v.S[f] == '-' && f+1 < len(v.S) {
			f++
		}
		if !strings.ContainsRune(strptimeCodes, rune(v.S[f])) {
			return errorf("%s: unsupported format code %%%c in %q", fn, v.S[f], v.S)
		}
	}
	return nil
}

// strptimeCodes are the letters after % that Strptime reads.
const strptimeCodes = "YymdeUWVwuGHIMSfgnjpbhBaAzZ%Xxc"

// strptimeComposite spells out %X, %x and %c as DuckDB prints them
// (strftime(ts, '%X|%x|%c') = 03:04:05|2020-01-02|2020-01-02 03:04:05).
var strptimeComposite = strings.NewReplacer("%%", "%%", "%X", "%H:%M:%S", "%x", "%Y-%m-%d", "%c", "%Y-%m-%d %H:%M:%S")

func fnStrptime(try bool) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		if a[1].Type.ID == columnar.List {
			// A list of formats: the first that parses the text.
			for _, f := range a[1].Elems {
				if f.Null {
					continue
				}
				if v, err := strptimeAs(t, a[0].S, f.S); err == nil {
					return columnar.IntValue(t, v), nil
				}
			}
			if try {
				return columnar.NullValue(t), nil
			}
			return columnar.Value{}, fmt.Errorf("strptime: could not parse %q with any of the formats", a[0].S)
		}
		if a[1].S == "" {
			// A bad format is an error even for try_strptime (DuckDB).
			return columnar.Value{}, fmt.Errorf("strptime: empty format string")
		}
		v, err := strptimeAs(t, a[0].S, a[1].S)
		if err != nil {
			if try {
				return columnar.NullValue(t), nil
			}
			return columnar.Value{}, err
		}
		return columnar.IntValue(t, v), nil
	}
}

var monthNames = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
var dayNames = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// Strptime parses s with a DuckDB/C format and returns microseconds since
// the epoch (UTC; a %z offset is applied). Codes: %Y %y %m %d %e %H %I %M
// %S %f (up to 6 digits) %g (milliseconds) %n (nanoseconds, up to 9
// digits; below a microsecond they are dropped here, see StrptimeNS) %p
// %b %h %B %a %A %j %z %Z %%; "%-d" style flags are accepted. Numbers may
// have fewer digits than their width; any other character must match
// itself, and one space matches any run of white space. The words
// infinity, -infinity and epoch parse whatever the format, as in DuckDB.
func Strptime(s, format string) (int64, error) {
	us, ns, err := strptime(s, format)
	if ns >= 500 {
		us++
	}
	return us, err
}

// StrptimeNS is Strptime in nanoseconds, the TIMESTAMP_NS that a format
// with %n parses to; a time outside TIMESTAMP_NS's range is an error.
func StrptimeNS(s, format string) (int64, error) {
	us, ns, err := strptime(s, format)
	if err != nil || columnar.Infinity(columnar.TTimestamp, us) != 0 {
		return us, err
	}
	const lim = (columnar.TimestampInfinity - 1) / 1000
	if us > lim || us < -lim {
		return 0, fmt.Errorf("strptime: %q is out of the range of TIMESTAMP_NS", s)
	}
	return us*1000 + int64(ns), nil
}

// strptimeAs parses to the payload of t: nanoseconds for TIMESTAMP_NS,
// microseconds otherwise.
func strptimeAs(t columnar.Type, s, format string) (int64, error) {
	if t.ID == columnar.TimestampNS {
		return StrptimeNS(s, format)
	}
	return Strptime(s, format)
}

// strptimeSpecial are the words that parse whatever the format.
var strptimeSpecial = map[string]int64{"infinity": columnar.TimestampInfinity, "-infinity": columnar.TimestampNegInfinity, "epoch": 0}

// strptime parses s to microseconds and the nanoseconds below them.
func strptime(s, format string) (int64, int, error) {
	if v, ok := strptimeSpecial[strings.ToLower(strings.TrimSpace(s))]; ok {
		return v, 0, nil
	}
	if strings.Contains(format, "%") {
		// DuckDB's composite codes stand for their parts.
		format = strptimeComposite.Replace(format)
	}
	fail := func(why string) (int64, int, error) {
		return 0, 0, fmt.Errorf("could not parse %q with format %q: %s", s, format, why)
	}
	year, month, day, hour, minute, sec, micro, nano := 1900, 1, 1, 0, 0, 0, 0, 0
	yday, pm, ampm, offset := 0, false, false, 0
	// Week-based fields: week is %U, %W or %V (weekKind), wday the day of
	// the week as %w counts it (0 = Sunday) or -1; isoYear is %G.
	week, wday, isoYear := 0, -1, 0
	// mode is the field that decides the date, as DuckDB settles it: 0
	// (none yet), 'd' (%d/%m: the calendar date wins over any week or day
	// of year), 'Y' (a year: %U/%W/%j may still count from it), 'U'/'W'
	// (week of the year), 'V' (ISO week date: %V/%G), 'j' (day of year).
	// Two different week or day-of-year fields conflict.
	mode, isoWeekSet, isoYearSet, isoWdaySet := byte(0), false, false, false
	conflict := func(code byte) (int64, int, error) {
		return fail(fmt.Sprintf("%%%c conflicts with an earlier week or day-of-year field", code))
	}
	i := 0
	num := func(maxDigits int) (int, bool) {
		j, v := i, 0
		neg := false
		if j < len(s) && (s[j] == '-' || s[j] == '+') && maxDigits > 4 {
			neg = s[j] == '-'
			j++
		}
		start := j
		for j < len(s) && j-start < maxDigits && s[j] >= '0' && s[j] <= '9' {
			v = v*10 + int(s[j]-'0')
			j++
		}
		if j == start {
			return 0, false
		}
		i = j
		if neg {
			v = -v
		}
		return v, true
	}
	name := func(names []string) (int, bool) {
		rest := strings.ToLower(s[i:])
		for k, n := range names {
			if strings.HasPrefix(rest, n) {
				i += len(n)
				return k, true
			}
		}
		for k, n := range names {
			if strings.HasPrefix(rest, n[:3]) {
				i += 3
				return k, true
			}
		}
		return 0, false
	}
	for f := 0; f < len(format); f++ {
		c := format[f]
		if c == ' ' {
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			continue
		}
		if c != '%' || f+1 == len(format) {
			if i >= len(s) || s[i] != c {
				return fail(fmt.Sprintf("expected %q at position %d", c, i+1))
			}
			i++
			continue
		}
		f++
		if format[f] == '-' && f+1 < len(format) {
			f++
		}
		var ok bool
		switch code := format[f]; code {
		case 'Y':
			// Followed directly by another number (%Y%d%m), a year has 4 digits.
			digits := 9
			if f+2 < len(format) && format[f+1] == '%' && strings.IndexByte("YmdHMSjUWVuwGeyfgIy", format[f+2]) >= 0 {
				digits = 4
			}
			year, ok = num(digits)
			if mode == 0 || mode == 'V' {
				mode = 'Y' // a year overrides an ISO week date
			}
		case 'y':
			if mode == 0 || mode == 'V' {
				mode = 'Y'
			}
			var y int
			if y, ok = num(2); ok {
				year = 2000 + y // C and DuckDB: 00–68 → 20xx, 69–99 → 19xx
				if y >= 69 {
					year = 1900 + y
				}
			}
		case 'm':
			month, ok = num(2)
			mode = 'd'
		case 'd', 'e':
			day, ok = num(2)
			mode = 'd'
		case 'U', 'W':
			switch mode {
			case 'd':
			case 0, 'Y':
				mode = code
			default:
				return conflict(code)
			}
			week, ok = num(2)
		case 'V':
			switch {
			case mode == 'd':
			case mode == 0 || mode == 'V' && !isoWeekSet:
				mode = 'V'
			default:
				return conflict(code)
			}
			week, ok = num(2)
			isoWeekSet = true
		case 'w':
			wday, ok = num(1)
			ok = ok && wday <= 6
		case 'u':
			var u int
			u, ok = num(1)
			ok = ok && u >= 1 && u <= 7 && !isoWdaySet
			wday, isoWdaySet = u%7, true
		case 'G':
			switch {
			case mode == 'd' || mode == 'Y':
			case mode == 0 || mode == 'V' && !isoYearSet:
				mode = 'V'
			default:
				return conflict(code)
			}
			isoYear, ok = num(9)
			isoYearSet = true
		case 'H':
			hour, ok = num(2)
		case 'I':
			hour, ok = num(2)
			ampm = true
		case 'M':
			minute, ok = num(2)
		case 'S':
			sec, ok = num(2)
		case 'f', 'g':
			start := i
			digits := 6
			if code == 'g' {
				digits = 3
			}
			var v int
			if v, ok = num(digits); ok {
				for k := i - start; k < 6; k++ {
					v *= 10
				}
				micro = v
			}
		case 'n':
			start := i
			var v int
			if v, ok = num(9); ok {
				for k := i - start; k < 9; k++ {
					v *= 10
				}
				micro, nano = v/1000, v%1000
			}
		case 'j':
			switch mode {
			case 'd':
			case 0, 'Y':
				mode = 'j'
			default:
				return conflict(code)
			}
			yday, ok = num(3)
		case 'p':
			rest := strings.ToUpper(s[i:])
			switch {
			case strings.HasPrefix(rest, "AM"):
				ok = true
			case strings.HasPrefix(rest, "PM"):
				ok, pm = true, true
			}
			i += 2
			ampm = true
		case 'b', 'h', 'B':
			var k int
			if k, ok = name(monthNames); ok {
				month = k + 1
			}
		case 'a', 'A':
			_, ok = name(dayNames)
		case 'z':
			ok = parseOffset(s, &i, &offset)
		case 'Z':
			for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z') {
				i++
			}
			ok = true
		case '%':
			ok = i < len(s) && s[i] == '%'
			i++
		default:
			return 0, 0, fmt.Errorf("strptime: unsupported format code %%%c", code)
		}
		if !ok {
			return fail(fmt.Sprintf("%%%c does not match at position %d", format[f], i+1))
		}
	}
	if i != len(s) {
		return fail(fmt.Sprintf("unexpected %q at position %d", s[i:], i+1))
	}
	if ampm {
		if hour < 1 || hour > 12 {
			return fail("hour out of range for %I")
		}
		hour %= 12
		if pm {
			hour += 12
		}
	}
	if month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || sec > 59 {
		return fail("field out of range")
	}
	var tm time.Time
	switch {
	case mode == 'j':
		if yday < 1 || yday > 366 { // DuckDB takes day 366 of a common year as Jan 1 next

			return fail("day of year out of range")
		}
		tm = time.Date(year, 1, 1, hour, minute, sec, micro*1000, time.UTC).AddDate(0, 0, yday-1)
	case mode == 'U' || mode == 'W' || mode == 'V':
		if mode == 'V' && !isoWeekSet {
			week = 1 // %G alone: its ISO week 1
		}
		d, ok := weekDate(year, isoYear, week, mode, wday)
		if !ok {
			return fail("week out of range")
		}
		tm = time.Date(d.Year(), d.Month(), d.Day(), hour, minute, sec, micro*1000, time.UTC)
	default:
		if day > time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
			return fail("day out of range")
		}
		tm = time.Date(year, time.Month(month), day, hour, minute, sec, micro*1000, time.UTC)
	}
	return tm.UnixMicro() - int64(offset)*1_000_000, nano, nil
}

// weekDate is the date of week (of kind %U: weeks from the year's first
// Sunday; %W: from its first Monday, earlier days being week 0; %V: the
// ISO week of isoYear, or of year when %G is absent) on day wday (%w's
// numbering; -1: the week's first day).
func weekDate(year, isoYear, week int, kind byte, wday int) (time.Time, bool) {
	jan1 := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
	switch kind {
	case 'U', 'W':
		if week > 53 {
			return time.Time{}, false
		}
		first := time.Sunday
		if kind == 'W' {
			first = time.Monday
		}
		start := jan1.AddDate(0, 0, (int(first)-int(jan1.Weekday())+7)%7) // week 1's first day
		off := 0
		if wday >= 0 {
			off = (wday - int(first) + 7) % 7
		}
		return start.AddDate(0, 0, (week-1)*7+off), true
	}
	if week < 1 || week > 53 {
		return time.Time{}, false
	}
	if isoYear != 0 {
		year = isoYear
	}
	jan4 := time.Date(year, 1, 4, 0, 0, 0, 0, time.UTC)
	monday := jan4.AddDate(0, 0, -((int(jan4.Weekday()) + 6) % 7)) // ISO week 1's Monday
	off := 0
	if wday >= 0 {
		off = (wday + 6) % 7
	}
	return monday.AddDate(0, 0, (week-1)*7+off), true
}

// parseOffset reads a UTC offset (+hh, +hhmm, +hh:mm or Z) at s[*i:] into
// seconds east of UTC.
func parseOffset(s string, i *int, out *int) bool {
	if *i < len(s) && (s[*i] == 'Z' || s[*i] == 'z') {
		*i++
		return true
	}
	if *i >= len(s) || s[*i] != '+' && s[*i] != '-' {
		return false
	}
	sign := 1
	if s[*i] == '-' {
		sign = -1
	}
	j := *i + 1
	digits := func(n int) (int, bool) {
		if j+n > len(s) {
			return 0, false
		}
		v := 0
		for k := range n {
			c := s[j+k]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		j += n
		return v, true
	}
	h, ok := digits(2)
	if !ok {
		return false
	}
	m := 0
	if j < len(s) && s[j] == ':' {
		j++
	}
	if v, ok := digits(2); ok {
		m = v
	}
	*out = sign * (h*3600 + m*60)
	*i = j
	return true
}
