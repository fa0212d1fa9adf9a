package executor

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
)

// printf(fmt, args…) and format(fmt, args…), DuckDB's two string
// formatters: C-style %d %5.2f %-8s …, and fmtlib-style {} {1} {:>8.2f}
// … . Any argument type is accepted; a conversion that does not fit the
// argument (%d of a DOUBLE) is an error, as in DuckDB.

// fmtArgs hands out the arguments after the format, by position.
type fmtArgs struct {
	fn   string
	vals []columnar.Value
	next int
}

func (a *fmtArgs) take(i int) (columnar.Value, error) {
	if i < 0 {
		i = a.next
		a.next++
	}
	if i >= len(a.vals) {
		return columnar.Value{}, fmt.Errorf("%s: argument %d is out of range (%d given)", a.fn, i+1, len(a.vals))
	}
	return a.vals[i], nil
}

// maxFormatWidth bounds a field width: a runaway width would allocate a
// cell of that size.
const maxFormatWidth = 1 << 20

func fnPrintf(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	f, args := a[0].S, &fmtArgs{fn: "printf", vals: a[1:]}
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0123456789.*", f[j]) >= 0 {
			j++
		}
		spec := f[i+1 : j]
		// C's length modifiers (%hhd, %ld, %llx) say how wide the
		// argument is; the argument carries its own type here, so
		// they are read and dropped, as DuckDB does.
		for j < len(f) && (f[j] == 'h' || f[j] == 'l') {
			j++
		}
		if j == len(f) {
			return columnar.Value{}, fmt.Errorf("printf: the format ends inside %q", f[i:])
		}
		verb := f[j]
		i = j
		spec, err := starWidths(spec, args)
		if err != nil {
			return columnar.Value{}, err
		}
		for _, w := range strings.SplitN(strings.TrimLeft(spec, "-+ #0"), ".", 2) {
			if len(w) > 7 || w != "" && atoiOr(w) > maxFormatWidth {
				return columnar.Value{}, fmt.Errorf("printf: width or precision %s is too large (at most %d)", w, maxFormatWidth)
			}
		}
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		v, err := args.take(-1)
		if err != nil {
			return columnar.Value{}, err
		}
		s, err := fmtOne("printf", spec, verb, v)
		if err != nil {
			return columnar.Value{}, err
		}
		b.WriteString(s)
	}
	return columnar.StringValue(b.String()), nil
}

// starWidths replaces each * of a spec (%*d, %.*f) by the integer
// argument it stands for, taken before the value, as C's printf does;
// a negative * width is a left-justified field ("%-5d").
func starWidths(spec string, args *fmtArgs) (string, error) {
	if !strings.Contains(spec, "*") {
		return spec, nil
	}
	var b strings.Builder
	for k := 0; k < len(spec); k++ {
		if spec[k] != '*' {
			b.WriteByte(spec[k])
			continue
		}
		w, err := args.take(-1)
		if err != nil {
			return "", err
		}
		if !isIntValue(w) || w.Type.Wide() || w.Null {
			return "", fmt.Errorf("printf: a * width needs an integer, got %s", w.Type)
		}
		b.WriteString(strconv.FormatInt(w.I, 10))
	}
	return b.String(), nil
}

// fmtOne formats v with a C-style spec (flags, width, precision) and verb.
func fmtOne(fn, spec string, verb byte, v columnar.Value) (string, error) {
	switch verb {
	case 'd', 'i', 'u', 'x', 'X', 'o', 'c', 'b':
		if !isIntValue(v) {
			return "", fmt.Errorf("%s: %%%c needs an integer, got %s", fn, verb, v.Type)
		}
		switch verb {
		case 'i', 'u':
			verb = 'd'
		case 'c':
			if v.Type.Wide() {
				return fmt.Sprintf("%"+spec+"c", rune(v.Wide128().Lo)), nil
			}
			return fmt.Sprintf("%"+spec+"c", rune(v.I)), nil
		}
		// printf's %x %o %b of a negative number print its two's
		// complement, as C does (64 bits, 128 for a HUGEINT); format's
		// fmtlib prints a sign.
		twos := fn == "printf" && verb != 'd'
		if v.Type.Wide() {
			return fmtWide(spec, verb, v, twos), nil
		}
		if v.Type.ID == columnar.Uint64 || twos && v.I < 0 {
			return fmt.Sprintf("%"+spec+string(verb), uint64(v.I)), nil
		}
		return fmt.Sprintf("%"+spec+string(verb), v.I), nil
	case 'f', 'F', 'e', 'E', 'g', 'G':
		if !v.Type.IsNumeric() {
			return "", fmt.Errorf("%s: %%%c needs a number, got %s", fn, verb, v.Type)
		}
		if verb == 'F' {
			verb = 'f'
		}
		return fmt.Sprintf("%"+spec+string(verb), v.AsFloat()), nil
	case 's':
		// printf hands numbers to its formatter as numbers, and %s of a
		// number is an error there (DuckDB); other values print as text.
		if fn == "printf" && v.Type.IsNumeric() {
			return "", fmt.Errorf("%s: invalid type specifier \"s\" for a value of type %s", fn, v.Type)
		}
		return fmt.Sprintf("%"+spec+"s", v.AppendText(nil)), nil
	}
	return "", fmt.Errorf("%s: unknown conversion %%%c", fn, verb)
}

// fmtWide formats a HUGEINT or UHUGEINT, a negative one as its 128-bit
// two's complement if twos.
func fmtWide(spec string, verb byte, v columnar.Value, twos bool) string {
	n := v.WideBig()
	if twos && n.Sign() < 0 {
		n.Add(n, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	return fmt.Sprintf("%"+spec+string(verb), n)
}

func isIntValue(v columnar.Value) bool {
	return v.Type.IsInteger() || v.Type.ID == columnar.Bool || v.Type.ID == columnar.Hugeint || v.Type.ID == columnar.Uhugeint
}

func fnFormat(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	f, args := a[0].S, &fmtArgs{fn: "format", vals: a[1:]}
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c == '}' {
			if i+1 < len(f) && f[i+1] == '}' {
				i++
			}
			b.WriteByte('}')
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(f) && f[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		end := strings.IndexByte(f[i:], '}')
		if end < 0 {
			return columnar.Value{}, fmt.Errorf("format: unmatched { in %q", f)
		}
		field := f[i+1 : i+end]
		i += end
		pos, spec, _ := strings.Cut(field, ":")
		idx := -1
		if pos != "" {
			n, err := strconv.Atoi(pos)
			if err != nil || n < 0 {
				return columnar.Value{}, fmt.Errorf("format: bad argument index %q", pos)
			}
			idx = n
		}
		v, err := args.take(idx)
		if err != nil {
			return columnar.Value{}, err
		}
		s, err := fmtField(spec, v)
		if err != nil {
			return columnar.Value{}, err
		}
		b.WriteString(s)
	}
	return columnar.StringValue(b.String()), nil
}

// fmtField formats v by a fmtlib spec: [[fill]align][sign][#][0][width][,][.precision][type].
func fmtField(spec string, v columnar.Value) (string, error) {
	fill, align := ' ', byte(0)
	if r, n := utf8.DecodeRuneInString(spec); n > 0 && n < len(spec) && strings.IndexByte("<>^", spec[n]) >= 0 {
		fill, align, spec = r, spec[n], spec[n+1:]
	} else if spec != "" && strings.IndexByte("<>^", spec[0]) >= 0 {
		align, spec = spec[0], spec[1:]
	}
	var flags strings.Builder
	for spec != "" && strings.IndexByte("+- #", spec[0]) >= 0 {
		if spec[0] != '-' {
			flags.WriteByte(spec[0])
		}
		spec = spec[1:]
	}
	zero := false
	if spec != "" && spec[0] == '0' {
		zero, spec = true, spec[1:]
	}
	k := 0
	for k < len(spec) && spec[k] >= '0' && spec[k] <= '9' {
		k++
	}
	width, err := strconv.Atoi(spec[:k])
	if k > 0 && (err != nil || width > maxFormatWidth) {
		return "", fmt.Errorf("format: width %s is too large (at most %d)", spec[:k], maxFormatWidth)
	}
	spec = spec[k:]
	comma := false
	if spec != "" && spec[0] == ',' {
		comma, spec = true, spec[1:]
	}
	prec := ""
	if spec != "" && spec[0] == '.' {
		k = 1
		for k < len(spec) && spec[k] >= '0' && spec[k] <= '9' {
			k++
		}
		prec, spec = spec[:k], spec[k:]
		if p := prec[1:]; len(p) > 7 || atoiOr(p) > maxFormatWidth {
			return "", fmt.Errorf("format: precision %s is too large (at most %d)", p, maxFormatWidth)
		}
	}
	if len(spec) > 1 {
		return "", fmt.Errorf("format: bad format spec %q", spec)
	}
	var s string
	numeric := v.Type.IsNumeric()
	switch {
	case spec == "" && (prec == "" || !numeric) || spec == "s":
		s = string(v.AppendText(nil))
		if v.Type.ID == columnar.Varchar && prec != "" {
			n, _ := strconv.Atoi(prec[1:])
			if r := []rune(s); len(r) > n {
				s = string(r[:n])
			}
		}
		if flags.Len() > 0 && numeric && v.AsFloat() >= 0 && strings.Contains(flags.String(), "+") {
			s = "+" + s
		}
	case spec == "":
		// A precision without a type: significant digits, as fmtlib's general format.
		var err error
		if s, err = fmtOne("format", flags.String()+prec, 'g', v); err != nil {
			return "", err
		}
	default:
		var err error
		if s, err = fmtOne("format", flags.String()+prec, spec[0], v); err != nil {
			return "", err
		}
	}
	if comma && numeric {
		s = groupThousands(s)
	}
	n := utf8.RuneCountInString(s)
	if n >= width {
		return s, nil
	}
	pad := width - n
	if zero && align == 0 && numeric {
		sign := ""
		if s != "" && (s[0] == '-' || s[0] == '+' || s[0] == ' ') {
			sign, s = s[:1], s[1:]
		}
		return sign + strings.Repeat("0", pad) + s, nil
	}
	if align == 0 {
		align = '<'
		if numeric {
			align = '>'
		}
	}
	f := string(fill)
	switch align {
	case '>':
		return strings.Repeat(f, pad) + s, nil
	case '^':
		return strings.Repeat(f, pad/2) + s + strings.Repeat(f, pad-pad/2), nil
	}
	return s + strings.Repeat(f, pad), nil
}

// groupThousands puts commas between groups of three digits of the
// integer part of a formatted number.
func groupThousands(s string) string {
	start := 0
	if s != "" && (s[0] == '-' || s[0] == '+') {
		start = 1
	}
	end := start
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	digits := s[start:end]
	var b strings.Builder
	b.WriteString(s[:start])
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	b.WriteString(s[end:])
	return b.String()
}

func atoiOr(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
