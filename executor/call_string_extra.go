package executor

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// More string functions of DuckDB (see planner/functions.go):
//
//	jaccard(a, b)             DOUBLE   |A ∩ B| / |A ∪ B| of the sets of bytes; an error for an empty string
//	regexp_escape(s)          VARCHAR  every ASCII character but letters, digits and _ escaped (RE2's QuoteMeta)
//	to_base(n, radix[, min])  VARCHAR  n ≥ 0 in radix 2–36, upper-case, zero-padded to min digits

func fnJaccard(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	s, u := a[0].S, a[1].S
	if s == "" || u == "" {
		return columnar.Value{}, fmt.Errorf("jaccard: both strings must be non-empty")
	}
	var inS, inU [256]bool
	for i := 0; i < len(s); i++ {
		inS[s[i]] = true
	}
	for i := 0; i < len(u); i++ {
		inU[u[i]] = true
	}
	both, either := 0, 0
	for c := range 256 {
		if inS[c] && inU[c] {
			both++
		}
		if inS[c] || inU[c] {
			either++
		}
	}
	return columnar.FloatValue(t, float64(both)/float64(either)), nil
}

func fnRegexpEscape(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	s := a[0].S
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_':
		case c == 0:
			b.WriteString(`\x00`)
			continue
		default:
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return columnar.StringValue(b.String()), nil
}

func fnToBase(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	n, radix := a[0].I, a[1].I
	if n < 0 {
		return columnar.Value{}, fmt.Errorf("to_base: the number must be at least 0, got %d", n)
	}
	if radix < 2 || radix > 36 {
		return columnar.Value{}, fmt.Errorf("to_base: the radix must be between 2 and 36, got %d", radix)
	}
	s := strings.ToUpper(strconv.FormatInt(n, int(radix)))
	if len(a) > 2 {
		if a[2].I < 0 || a[2].I > 64 {
			return columnar.Value{}, fmt.Errorf("to_base: the minimum length must be between 0 and 64, got %d", a[2].I)
		}
		if pad := int(a[2].I) - len(s); pad > 0 {
			s = strings.Repeat("0", pad) + s
		}
	}
	return columnar.StringValue(s), nil
}
