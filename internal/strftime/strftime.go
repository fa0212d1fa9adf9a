// Package strftime reads and writes dates and timestamps with DuckDB's
// strftime/strptime format specifiers, for the dateformat and
// timestampformat options of the CSV and JSON readers and writers.
//
// Supported specifiers: %Y (4-digit year), %y (2-digit year, 1970..2069 as
// DuckDB), %m, %-m, %d, %-d (1 or 2 digits when reading), %H, %-H, %I, %-I
// (12-hour clock with %p), %M, %-M, %S, %-S, %f (microseconds, 1 to 6
// digits when reading; 6 when writing), %g (milliseconds), %n
// (nanoseconds, floored to µs), %p (AM/PM), %b/%h and %B (month names), %a
// and %A (weekday names, read and ignored), %j (day of year, reading
// only with %Y), %z (+HH[:MM] offset, applied), %Z (a zone name, read and
// ignored: UTC is assumed), %% (a literal %). Any other character must
// match itself.
package strftime

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Format is a parsed format string. The zero value is invalid.
type Format struct {
	src   string
	items []item
	// HasTime reports whether the format reads a time of day.
	HasTime bool
}

type item struct {
	spec byte   // 0: literal
	lit  string // for literals
	pad  bool   // false for %-x (no zero padding when writing)
}

// ErrFormat is wrapped by Parse errors.
var ErrFormat = errors.New("invalid format string")

// Parse parses a DuckDB strftime format string.
func Parse(f string) (*Format, error) {
	out := &Format{src: f}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out.items = append(out.items, item{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			lit.WriteByte(c)
			continue
		}
		i++
		if i == len(f) {
			return nil, fmt.Errorf("%w %q: trailing %%", ErrFormat, f)
		}
		pad := true
		if f[i] == '-' {
			pad = false
			i++
			if i == len(f) {
				return nil, fmt.Errorf("%w %q: trailing %%-", ErrFormat, f)
			}
		}
		s := f[i]
		switch s {
		case '%':
			lit.WriteByte('%')
			continue
		case 'Y', 'y', 'm', 'd', 'j', 'b', 'h', 'B', 'a', 'A':
		case 'H', 'I', 'M', 'S', 'f', 'g', 'n', 'p', 'z', 'Z':
			out.HasTime = true
		default:
			return nil, fmt.Errorf("%w %q: unknown specifier %%%c", ErrFormat, f, s)
		}
		if s == 'h' {
			s = 'b'
		}
		flush()
		out.items = append(out.items, item{spec: s, pad: pad})
	}
	flush()
	return out, nil
}

// String returns the format string.
func (f *Format) String() string { return f.src }

var monthNames = [...]string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
var dayNames = [...]string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// digits reads 1..max digits (exactly max when exact) from s.
func digits(s []byte, max int, exact bool) (v int, n int, ok bool) {
	for n < max && n < len(s) && s[n] >= '0' && s[n] <= '9' {
		v = v*10 + int(s[n]-'0')
		n++
	}
	if n == 0 || exact && n != max {
		return 0, 0, false
	}
	return v, n, true
}

// name matches one of names (or its 3-letter abbreviation) at the start
// of s, case-insensitively.
func name(s []byte, names []string) (idx, n int, ok bool) {
	for i, nm := range names {
		if len(s) >= len(nm) && strings.EqualFold(string(s[:len(nm)]), nm) {
			return i, len(nm), true
		}
	}
	for i, nm := range names {
		if len(s) >= 3 && strings.EqualFold(string(s[:3]), nm[:3]) {
			return i, 3, true
		}
	}
	return 0, 0, false
}

// ParseMicros reads s as a timestamp: microseconds since the epoch (UTC,
// or the %z offset applied). ok is false unless the whole of s matches.
func (f *Format) ParseMicros(s []byte) (us int64, ok bool) {
	year, month, day, yday := 1970, 1, 1, 0
	hour, min, sec, micro := 0, 0, 0, 0
	pm, has12 := -1, false
	offset := 0
	for _, it := range f.items {
		if it.spec == 0 {
			if len(s) < len(it.lit) || string(s[:len(it.lit)]) != it.lit {
				return 0, false
			}
			s = s[len(it.lit):]
			continue
		}
		var v, n int
		switch it.spec {
		case 'Y':
			neg := len(s) > 0 && s[0] == '-'
			if neg {
				s = s[1:]
			}
			v, n, ok = digits(s, 4, false)
			if neg {
				v = -v
			}
			year = v
		case 'y':
			v, n, ok = digits(s, 2, false)
			if v < 70 {
				year = 2000 + v
			} else {
				year = 1900 + v
			}
		case 'm':
			v, n, ok = digits(s, 2, false)
			month = v
		case 'd':
			v, n, ok = digits(s, 2, false)
			day = v
		case 'j':
			v, n, ok = digits(s, 3, false)
			yday = v
		case 'H':
			v, n, ok = digits(s, 2, false)
			hour = v
		case 'I':
			v, n, ok = digits(s, 2, false)
			hour, has12 = v, true
		case 'M':
			v, n, ok = digits(s, 2, false)
			min = v
		case 'S':
			v, n, ok = digits(s, 2, false)
			sec = v
		case 'f', 'g', 'n':
			max := map[byte]int{'f': 6, 'g': 3, 'n': 9}[it.spec]
			v, n, ok = digits(s, max, false)
			for k := n; k < max; k++ {
				v *= 10
			}
			switch it.spec {
			case 'g':
				v *= 1000
			case 'n':
				v /= 1000
			}
			micro = v
		case 'p':
			if len(s) < 2 {
				return 0, false
			}
			switch strings.ToUpper(string(s[:2])) {
			case "AM":
				pm = 0
			case "PM":
				pm = 1
			default:
				return 0, false
			}
			n, ok = 2, true
		case 'b', 'B':
			v, n, ok = name(s, monthNames[:])
			month = v + 1
		case 'a', 'A':
			_, n, ok = name(s, dayNames[:])
		case 'z':
			if len(s) > 0 && (s[0] == 'Z' || s[0] == 'z') {
				n, ok = 1, true
				break
			}
			if len(s) < 3 || s[0] != '+' && s[0] != '-' {
				return 0, false
			}
			h, hn, hok := digits(s[1:], 2, true)
			if !hok {
				return 0, false
			}
			n, ok = 1+hn, true
			m := 0
			rest := s[n:]
			if len(rest) > 0 && rest[0] == ':' {
				rest = rest[1:]
				n++
			}
			if mm, mn, mok := digits(rest, 2, true); mok {
				m, n = mm, n+mn
			}
			offset = h*3600 + m*60
			if s[0] == '-' {
				offset = -offset
			}
		case 'Z':
			for n < len(s) && (s[n] >= 'A' && s[n] <= 'Z' || s[n] >= 'a' && s[n] <= 'z' || s[n] == '_' || s[n] == '/') {
				n++
			}
			ok = n > 0
		}
		if !ok {
			return 0, false
		}
		s = s[n:]
	}
	if len(s) != 0 {
		return 0, false
	}
	if has12 || pm >= 0 {
		if hour < 1 || hour > 12 {
			return 0, false
		}
		hour %= 12
		if pm == 1 {
			hour += 12
		}
	}
	if month < 1 || month > 12 || day < 1 || hour > 23 || min > 59 || sec > 59 {
		return 0, false
	}
	var t time.Time
	if yday > 0 {
		t = time.Date(year, 1, 1, hour, min, sec, 0, time.UTC).AddDate(0, 0, yday-1)
		if t.Year() != year {
			return 0, false
		}
	} else {
		t = time.Date(year, time.Month(month), day, hour, min, sec, 0, time.UTC)
		if t.Day() != day { // 31 April
			return 0, false
		}
	}
	return t.Unix()*1e6 + int64(micro) - int64(offset)*1e6, true
}

// ParseDays reads s as a date: days since the epoch (a time part, if the
// format has one, is dropped).
func (f *Format) ParseDays(s []byte) (int64, bool) {
	us, ok := f.ParseMicros(s)
	if !ok {
		return 0, false
	}
	d := us / 86400e6
	if us%86400e6 < 0 {
		d--
	}
	return d, true
}

// AppendMicros appends the timestamp us (microseconds since the epoch,
// UTC) formatted by f.
func (f *Format) AppendMicros(dst []byte, us int64) []byte {
	t := time.UnixMicro(us).UTC()
	num := func(v, width int, pad bool) {
		if !pad {
			dst = fmt.Appendf(dst, "%d", v)
			return
		}
		dst = fmt.Appendf(dst, "%0*d", width, v)
	}
	for _, it := range f.items {
		switch it.spec {
		case 0:
			dst = append(dst, it.lit...)
		case 'Y':
			num(t.Year(), 4, true)
		case 'y':
			num(t.Year()%100, 2, it.pad)
		case 'm':
			num(int(t.Month()), 2, it.pad)
		case 'd':
			num(t.Day(), 2, it.pad)
		case 'j':
			num(t.YearDay(), 3, it.pad)
		case 'H':
			num(t.Hour(), 2, it.pad)
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			num(h, 2, it.pad)
		case 'M':
			num(t.Minute(), 2, it.pad)
		case 'S':
			num(t.Second(), 2, it.pad)
		case 'f':
			num(t.Nanosecond()/1000, 6, true)
		case 'g':
			num(t.Nanosecond()/1e6, 3, true)
		case 'n':
			num(t.Nanosecond(), 9, true)
		case 'p':
			if t.Hour() < 12 {
				dst = append(dst, "AM"...)
			} else {
				dst = append(dst, "PM"...)
			}
		case 'b':
			dst = append(dst, strings.ToUpper(monthNames[t.Month()-1][:1])+monthNames[t.Month()-1][1:3]...)
		case 'B':
			dst = append(dst, strings.ToUpper(monthNames[t.Month()-1][:1])+monthNames[t.Month()-1][1:]...)
		case 'a':
			dst = append(dst, strings.ToUpper(dayNames[t.Weekday()][:1])+dayNames[t.Weekday()][1:3]...)
		case 'A':
			dst = append(dst, strings.ToUpper(dayNames[t.Weekday()][:1])+dayNames[t.Weekday()][1:]...)
		case 'z':
			dst = append(dst, "+00"...)
		case 'Z':
			dst = append(dst, "UTC"...)
		}
	}
	return dst
}

// AppendDays appends the date days (since the epoch) formatted by f.
func (f *Format) AppendDays(dst []byte, days int64) []byte {
	return f.AppendMicros(dst, days*86400e6)
}
