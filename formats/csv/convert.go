package csv

import (
	"math"
	"strconv"
	"time"
	"unsafe"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/strftime"
)

// A converter turns the text of one column into values of its type, as
// DuckDB casts text: integers and decimals with optional sign and
// surrounding spaces, DOUBLE with strconv's syntax (and the decimal
// separator option), BOOLEAN from true/false/t/f/1/0 (any case), DATE and
// TIMESTAMP in ISO 8601 or the dateformat/timestampformat given, TIME as
// H:M[:S[.f]].
type converter struct {
	t      columnar.Type
	date   *strftime.Format // nil: ISO
	ts     *strftime.Format // nil: ISO
	decSep byte             // '.' unless decimal_separator says otherwise
	// cast is Options.Cast, for the types convertInto has no parser of.
	cast func(string, columnar.Type) (columnar.Value, bool)
}

// str views b as a string without copying; the string must not outlive b.
func str(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// trimSpace drops the spaces DuckDB's casts ignore around a number.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// parseInt reads a base-10 int64 with an optional sign.
func parseInt(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	neg := false
	switch b[0] {
	case '-':
		neg, b = true, b[1:]
	case '+':
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		if len(b) > 19 {
			// Leading zeros may still make it fit.
			for len(b) > 19 && b[0] == '0' {
				b = b[1:]
			}
			if len(b) > 19 {
				return 0, false
			}
		} else {
			return 0, false
		}
	}
	var u uint64
	for _, c := range b {
		d := c - '0'
		if d > 9 {
			return 0, false
		}
		u = u*10 + uint64(d)
	}
	if len(b) == 19 && u < 1e18 {
		return 0, false // wrapped
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// parseUint reads a base-10 uint64.
func parseUint(b []byte) (uint64, bool) {
	if len(b) > 0 && b[0] == '+' {
		b = b[1:]
	}
	u, err := strconv.ParseUint(str(b), 10, 64)
	return u, err == nil
}

// parseFloat reads a DOUBLE.
func parseFloat(b []byte, sep byte) (float64, bool) {
	if sep != '.' && sep != 0 {
		var tmp [64]byte
		if len(b) > len(tmp) {
			return 0, false
		}
		n := copy(tmp[:], b)
		for i := range n {
			switch tmp[i] {
			case sep:
				tmp[i] = '.'
			case '.':
				return 0, false
			}
		}
		b = tmp[:n]
	}
	if f, ok := fastFloat(b); ok {
		return f, true
	}
	for _, c := range b {
		if c == '_' || c == 'x' || c == 'X' {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(str(b), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true // ±Inf or 0, as DuckDB rounds
		}
		return 0, false
	}
	return f, true
}

// parseBool reads true/false/t/f/1/0 in any case.
func parseBool(b []byte) (bool, bool) {
	switch len(b) {
	case 1:
		switch b[0] {
		case 't', 'T', '1':
			return true, true
		case 'f', 'F', '0':
			return false, true
		}
	case 4:
		if b[0]|0x20 == 't' && b[1]|0x20 == 'r' && b[2]|0x20 == 'u' && b[3]|0x20 == 'e' {
			return true, true
		}
	case 5:
		if b[0]|0x20 == 'f' && b[1]|0x20 == 'a' && b[2]|0x20 == 'l' && b[3]|0x20 == 's' && b[4]|0x20 == 'e' {
			return false, true
		}
	}
	return false, false
}

// parseDecimal reads a decimal into an int64 scaled by 10^scale, rounding
// half away from zero past the scale; false if it needs more than prec
// digits.
func parseDecimal(b []byte, prec, scale int, sep byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	neg := false
	switch b[0] {
	case '-':
		neg, b = true, b[1:]
	case '+':
		b = b[1:]
	}
	var v int64
	intDigits, frac := 0, 0
	seenSep, any := false, false
	round := false
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			any = true
			if !seenSep {
				if v == 0 && c == '0' {
					continue
				}
				intDigits++
				if intDigits > prec-scale {
					return 0, false
				}
				v = v*10 + int64(c-'0')
				continue
			}
			if frac < scale {
				v = v*10 + int64(c-'0')
				frac++
			} else if frac == scale {
				round = c >= '5'
				frac++
			}
		case c == sep && !seenSep:
			seenSep = true
		case c == 'e' || c == 'E':
			f, ok := parseFloat(b, sep)
			if !ok {
				return 0, false
			}
			_ = i
			s := f * math.Pow10(scale)
			if neg {
				s = -s
			}
			r := math.Round(s)
			if math.Abs(r) >= math.Pow10(prec) {
				return 0, false
			}
			return int64(r), true
		default:
			return 0, false
		}
	}
	if !any {
		return 0, false
	}
	for ; frac < scale; frac++ {
		v *= 10
	}
	if round {
		v++
	}
	if prec < 19 && v >= int64(math.Pow10(prec)) {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// parseISODate reads YYYY-MM-DD quickly, falling back to columnar's
// general date syntax.
func parseISODate(b []byte) (int64, bool) {
	if len(b) == 10 && b[4] == '-' && b[7] == '-' {
		y, ok1 := digits4(b[0:4])
		m, ok2 := digits2(b[5:7])
		d, ok3 := digits2(b[8:10])
		if ok1 && ok2 && ok3 && m >= 1 && m <= 12 && d >= 1 && int64(d) <= columnar.DaysInMonth(int64(y), int64(m)) {
			return daysFromCivil(y, m, d), true
		}
		return 0, false
	}
	if !looksDate(b) {
		return 0, false
	}
	return columnar.ParseDate(string(b))
}

// looksDate is a cheap test that b may be an ISO date or timestamp text
// (four or more year digits, after an optional '-', then a '-'), so that
// other text does not go through the slow general parser, and "01-02-24"
// is left to the sniffer's %y-%m-%d as DuckDB's sniffer leaves it.
func looksDate(b []byte) bool {
	if len(b) < 8 {
		return false
	}
	i := 0
	if b[0] == '-' {
		i = 1
	}
	n := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i, n = i+1, n+1
	}
	return n >= 4 && i < len(b) && b[i] == '-'
}

// parseISOTimestamp reads YYYY-MM-DD[ T]HH:MM:SS[.ffffff] quickly,
// falling back to columnar's general syntax (offsets, unpadded fields).
func parseISOTimestamp(b []byte) (int64, bool) {
	if len(b) >= 19 && b[4] == '-' && b[7] == '-' && (b[10] == ' ' || b[10] == 'T') && b[13] == ':' && b[16] == ':' {
		y, ok1 := digits4(b[0:4])
		m, ok2 := digits2(b[5:7])
		d, ok3 := digits2(b[8:10])
		hh, ok4 := digits2(b[11:13])
		mm, ok5 := digits2(b[14:16])
		ss, ok6 := digits2(b[17:19])
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && m >= 1 && m <= 12 && d >= 1 && int64(d) <= columnar.DaysInMonth(int64(y), int64(m)) && hh < 24 && mm < 60 && ss < 60 {
			rest := b[19:]
			var frac int64
			if len(rest) > 0 && rest[0] == '.' {
				n := 0
				rest = rest[1:]
				for len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
					if n < 6 {
						frac = frac*10 + int64(rest[0]-'0')
					}
					n++
					rest = rest[1:]
				}
				if n == 0 {
					return 0, false
				}
				for ; n < 6; n++ {
					frac *= 10
				}
			}
			if len(rest) == 0 {
				days := daysFromCivil(y, m, d)
				return days*columnar.MicrosPerDay + int64(hh)*3600e6 + int64(mm)*60e6 + int64(ss)*1e6 + frac, true
			}
		}
	}
	if !looksDate(b) {
		return 0, false
	}
	us, _, ok := columnar.ParseTimestamp(string(b))
	return us, ok
}

func digits2(b []byte) (int, bool) {
	a, c := b[0]-'0', b[1]-'0'
	return int(a)*10 + int(c), a <= 9 && c <= 9
}

func digits4(b []byte) (int, bool) {
	x, ok1 := digits2(b[0:2])
	y, ok2 := digits2(b[2:4])
	return x*100 + y, ok1 && ok2
}

// daysFromCivil is the days since 1970-01-01 of a proleptic Gregorian
// date (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// parseTime reads a time of day (no date part).
func parseTime(b []byte) (int64, bool) {
	if len(b) < 3 || b[0] < '0' || b[0] > '9' {
		return 0, false
	}
	for _, c := range b {
		if c == '-' || c == '/' {
			return 0, false
		}
	}
	return columnar.ParseTime(str(b))
}

// convertInto sets row r of v from text b; false if b is not a value of
// v's type.
func (c *converter) convertInto(v *columnar.Vector, r int, b []byte) bool {
	switch c.t.ID {
	case columnar.Varchar:
		v.Bytes[r] = b
		return true
	case columnar.Blob:
		if c.cast == nil {
			v.Bytes[r] = b
			return true
		}
	case columnar.Bool:
		x, ok := parseBool(trimSpace(b))
		v.Bools[r] = x
		return ok
	case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Int64, columnar.Uint8, columnar.Uint16, columnar.Uint32:
		x, ok := parseInt(trimSpace(b))
		if !ok {
			return false
		}
		if lo, hi := c.t.IntRange(); x < lo || x > hi {
			return false
		}
		v.Ints[r] = x
		return true
	case columnar.Uint64:
		x, ok := parseUint(trimSpace(b))
		v.Uints[r] = x
		return ok
	case columnar.Float32, columnar.Float64:
		x, ok := parseFloat(trimSpace(b), c.decSep)
		if c.t.ID == columnar.Float32 {
			x = float64(float32(x))
		}
		v.Floats[r] = x
		return ok
	case columnar.Decimal:
		x, ok := parseDecimal(trimSpace(b), int(c.t.Precision), int(c.t.Scale), c.decSep)
		v.Ints[r] = x
		return ok
	case columnar.Date:
		var x int64
		var ok bool
		if c.date != nil {
			x, ok = c.date.ParseDays(b)
		} else {
			x, ok = parseISODate(trimSpace(b))
		}
		v.Ints[r] = x
		return ok
	case columnar.Timestamp:
		var x int64
		var ok bool
		if c.ts != nil {
			x, ok = c.ts.ParseMicros(b)
		} else {
			x, ok = parseISOTimestamp(trimSpace(b))
		}
		v.Ints[r] = x
		return ok
	case columnar.Time:
		x, ok := parseTime(trimSpace(b))
		v.Ints[r] = x
		return ok
	case columnar.TimestampTZ:
		// Without an offset or zone, a time in UTC (the engine's cast too).
		x, ok := columnar.ParseTimestampTZ(string(b), time.UTC)
		v.Ints[r] = x
		return ok
	}
	if c.cast == nil {
		return false
	}
	x, ok := c.cast(string(b), c.t)
	if ok {
		v.SetValue(r, columnar.MaxBatch, x)
	}
	return ok
}

// supported reports whether a column may be read as t (with cast, the
// engine's conversion from text, for the types convertInto leaves to it).
func supported(t columnar.Type, cast bool) bool {
	switch t.ID {
	case columnar.Null:
		return false
	case columnar.Interval:
		return cast
	}
	return true
}

// pow10s are the powers of ten a float64 holds exactly.
var pow10s = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat reads [-]digits[.digits] with at most 15 significant digits
// and 22 decimals exactly: the mantissa and the power of ten are both
// exact doubles, so one IEEE division rounds correctly (Clinger's fast
// path). Anything else is left to strconv.
func fastFloat(b []byte) (float64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	if len(b) == 0 || len(b) > 17 {
		return 0, false
	}
	var m uint64
	digits, frac := 0, -1
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			if m != 0 {
				digits++
			}
		case c == '.' && frac < 0 && i > 0:
			frac = len(b) - i - 1
			if frac == 0 {
				return 0, false
			}
		default:
			return 0, false
		}
	}
	if digits > 15 {
		return 0, false
	}
	if frac < 0 {
		frac = 0
	}
	f := float64(m) / pow10s[frac]
	if neg {
		f = -f
	}
	return f, true
}
