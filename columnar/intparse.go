package columnar

import (
	"math"
	"math/bits"
	"strings"
)

// ParseInt reads text as CAST(text AS BIGINT) does in DuckDB: spaces
// around it, an optional sign, decimal digits with single underscores
// between them ('1_000'), or 0x/0b digits without a sign; a fraction or an
// exponent rounds half away from zero ('0.5' is 1, '-2.5' is -3, '5.5e-1'
// is 1). The caller narrows the result to a smaller type.
func ParseInt(s string) (int64, bool) {
	neg, mag, ok := parseIntMagnitude(s)
	switch {
	case !ok:
		return 0, false
	case neg && mag <= 1<<63:
		return int64(-mag), true // -(1<<63) wraps to itself
	case !neg && mag <= math.MaxInt64:
		return int64(mag), true
	}
	return 0, false
}

// ParseUint is ParseInt for UBIGINT: a minus sign is refused but on zero
// ('-0'), as in DuckDB.
func ParseUint(s string) (uint64, bool) {
	neg, mag, ok := parseIntMagnitude(s)
	if !ok || neg && mag != 0 || neg && hasNonZeroDigit(s) {
		return 0, false
	}
	return mag, true
}

func hasNonZeroDigit(s string) bool {
	mant, _, _ := strings.Cut(strings.ToLower(s), "e")
	return strings.ContainsAny(mant, "123456789")
}

// parseIntMagnitude reads the sign and the rounded magnitude of s.
func parseIntMagnitude(s string) (neg bool, mag uint64, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			ok = parseBase(s[2:], 16, &mag)
			return false, mag, ok
		case 'b', 'B':
			ok = parseBase(s[2:], 2, &mag)
			return false, mag, ok
		}
	}
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	mant, exp, hasExp := strings.Cut(s, "e")
	if !hasExp {
		mant, exp, hasExp = strings.Cut(s, "E")
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	ip, ok1 := digitsOf(intPart)
	fp, ok2 := digitsOf(frac)
	if !ok1 || !ok2 || ip == "" && fp == "" {
		return false, 0, false
	}
	e := 0
	if hasExp {
		x, ok := parseExponent(exp)
		if !ok {
			return false, 0, false
		}
		e = x
	}
	// The value is digits × 10^(e - len(fp)); keep the integer digits and
	// round on the first one dropped.
	digits := strings.TrimLeft(ip+fp, "0")
	point := len(digits) - len(fp) + e // digits before the decimal point
	if digits == "" {
		return neg, 0, true
	}
	if point > 20 {
		return false, 0, false
	}
	var whole string
	var next byte = '0'
	switch {
	case point <= 0:
		if point == 0 {
			next = digits[0]
		}
	case point >= len(digits):
		whole = digits + strings.Repeat("0", point-len(digits))
	default:
		whole, next = digits[:point], digits[point]
	}
	for i := 0; i < len(whole); i++ {
		hi, lo := bits.Mul64(mag, 10)
		lo, carry := bits.Add64(lo, uint64(whole[i]-'0'), 0)
		if hi != 0 || carry != 0 {
			return false, 0, false
		}
		mag = lo
	}
	if next >= '5' {
		if mag == math.MaxUint64 {
			return false, 0, false
		}
		mag++
	}
	return neg, mag, true
}

// digitsOf returns the decimal digits of s with the single underscores
// between them removed; ok is false for any other character.
func digitsOf(s string) (string, bool) {
	if !strings.Contains(s, "_") {
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return "", false
			}
		}
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			b.WriteByte(c)
		case c == '_' && i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]):
		default:
			return "", false
		}
	}
	return b.String(), true
}

// parseExponent reads a signed decimal exponent, single underscores
// between its digits allowed ('1_2e1_0'); DuckDB refuses one past
// ±32768 (even on a zero: '0e-100000' is no integer).
func parseExponent(s string) (int, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	s, ok := digitsOf(s)
	if !ok || s == "" {
		return 0, false
	}
	e := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		if e = e*10 + int(s[i]-'0'); e > 32768 {
			return 0, false
		}
	}
	if neg {
		e = -e
	}
	return e, true
}

// parseBase reads unsigned digits of base 16 or 2 into *mag, single
// underscores between them allowed ('0xFF_FF', '0b01_01'), as DuckDB.
func parseBase(s string, base uint64, mag *uint64) bool {
	if s == "" {
		return false
	}
	var m uint64
	for i := 0; i < len(s); i++ {
		var d uint64
		c := s[i] | 0x20
		if s[i] == '_' && i > 0 && i+1 < len(s) && s[i-1] != '_' && s[i+1] != '_' {
			continue
		}
		switch {
		case isDigit(s[i]):
			d = uint64(s[i] - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		default:
			return false
		}
		if d >= base {
			return false
		}
		hi, lo := bits.Mul64(m, base)
		if hi != 0 {
			return false
		}
		m = lo + d
		if m < lo {
			return false
		}
	}
	*mag = m
	return true
}
