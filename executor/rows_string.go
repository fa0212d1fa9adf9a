package executor

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
)

// Row functions of the string family (registered in func_string.go).

func fnReplace(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.StringValue(strings.ReplaceAll(a[0].S, a[1].S, a[2].S)), nil
}

// fnPad pads or truncates to n characters (DuckDB: a longer string is cut).
func fnPad(left bool) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		s, n, fill := []rune(a[0].S), int(a[1].I), []rune(a[2].S)
		if n < 0 {
			n = 0
		}
		if a[1].I > maxRepeat/utf8.UTFMax {
			// A rune slice of that many characters would be gigabytes.
			return columnar.Value{}, fmt.Errorf("pad: length %d exceeds %d characters", a[1].I, maxRepeat/utf8.UTFMax)
		}
		if len(s) >= n {
			return columnar.StringValue(string(s[:n])), nil
		}
		if len(fill) == 0 {
			return columnar.StringValue(string(s)), nil
		}
		pad := make([]rune, 0, n-len(s))
		for len(pad) < n-len(s) {
			pad = append(pad, fill[len(pad)%len(fill)])
		}
		if left {
			return columnar.StringValue(string(pad) + string(s)), nil
		}
		return columnar.StringValue(string(s) + string(pad)), nil
	}
}

// fnInstr is the 1-based character position of a[1] in a[0], 0 if absent.
func fnInstr(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	i := strings.Index(a[0].S, a[1].S)
	if i < 0 {
		return columnar.IntValue(t, 0), nil
	}
	return columnar.IntValue(t, int64(utf8.RuneCountInString(a[0].S[:i])+1)), nil
}

func fnLeft(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	r, n := []rune(a[0].S), int(a[1].I)
	if n < 0 {
		n = max(len(r)+n, 0)
	}
	return columnar.StringValue(string(r[:min(n, len(r))])), nil
}

// fnOverlay is SQL's OVERLAY: the characters before start (1-based), the
// replacement, then those from start + length on, length being the
// replacement's when absent or negative. A start at or before 1 keeps
// nothing before the replacement and, past the end, everything.
func fnOverlay(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	s, r := []rune(a[0].S), a[1].S
	start := a[2].I
	n := int64(utf8.RuneCountInString(r))
	if len(a) == 4 && a[3].I >= 0 {
		n = a[3].I
	}
	// Both within ±2^62 so that start - 1 + n cannot overflow; the
	// string is far shorter.
	start, n = max(min(start, 1<<62), -(1<<62)), min(n, 1<<62)
	clampTo := func(i int64) int { return int(max(0, min(i, int64(len(s))))) }
	before, after := clampTo(start-1), clampTo(start-1+n)
	return columnar.StringValue(string(s[:before]) + r + string(s[after:])), nil
}

func fnRight(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	r, n := []rune(a[0].S), int(a[1].I)
	if n < 0 {
		n = max(len(r)+n, 0)
	}
	n = min(n, len(r))
	return columnar.StringValue(string(r[len(r)-n:])), nil
}

// fnSplitPart returns the n-th (1-based; negative counts from the end)
// field of s split by sep, "" when out of range; an empty sep splits s
// into its characters, as DuckDB (split_part('a,b,c', ”, 3) = 'b').
func fnSplitPart(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	var parts []string
	if a[1].S == "" {
		for _, r := range a[0].S {
			parts = append(parts, string(r))
		}
	} else {
		parts = strings.Split(a[0].S, a[1].S)
	}
	n := int(a[2].I)
	if n < 0 {
		n = len(parts) + n + 1
	}
	if n < 1 || n > len(parts) {
		return columnar.StringValue(""), nil
	}
	return columnar.StringValue(parts[n-1]), nil
}

func fnStartsWith(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.BoolValue(strings.HasPrefix(a[0].S, a[1].S)), nil
}

func fnContains(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.BoolValue(strings.Contains(a[0].S, a[1].S)), nil
}

func fnEndsWith(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.BoolValue(strings.HasSuffix(a[0].S, a[1].S)), nil
}

func fnStrlen(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, int64(len(a[0].S))), nil
}

func fnConcatWS(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].Null {
		return columnar.NullValue(t), nil
	}
	parts := make([]string, 0, len(a)-1)
	for _, v := range a[1:] {
		if !v.Null {
			parts = append(parts, v.S)
		}
	}
	return columnar.StringValue(strings.Join(parts, a[0].S)), nil
}

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

func fnUnicode(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].S == "" {
		return columnar.IntValue(t, -1), nil
	}
	r, _ := utf8.DecodeRuneInString(a[0].S)
	return columnar.IntValue(t, int64(r)), nil
}

func fnOctetLength(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, int64(len(a[0].S))), nil
}

func fnBin(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	v := a[0]
	if v.Type.Phys() != columnar.PhysBytes {
		return columnar.StringValue(strconv.FormatUint(uint64(v.I), 2)), nil
	}
	var b strings.Builder
	for i := 0; i < len(v.S); i++ {
		fmt.Fprintf(&b, "%08b", v.S[i])
	}
	return columnar.StringValue(b.String()), nil
}

// chr(code) is the character with that Unicode code point; ascii(s) the
// code point of the first character of s (0 for an empty string), as in DuckDB.
func fnChr(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	n := a[0].I
	if n < 0 || n > utf8.MaxRune || !utf8.ValidRune(rune(n)) {
		return columnar.Value{}, fmt.Errorf("chr: %d is not a valid Unicode code point", n)
	}
	return columnar.StringValue(string(rune(n))), nil
}

func fnASCII(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	r, _ := utf8.DecodeRuneInString(a[0].S)
	if a[0].S == "" {
		r = 0
	}
	return columnar.IntValue(t, int64(r)), nil
}
