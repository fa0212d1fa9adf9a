package executor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
)

// More numeric and conversion functions of DuckDB (see planner/functions.go):
//
//	trunc_digits(x, n)   x's type  trunc(x, n): toward zero at n decimal digits (n < 0: left of the point)
//	fmod(x, y), fdiv(x, y)  DOUBLE  x - y·floor(x/y), with y's sign (NaN for y = 0); floor(x / y)
//	nextafter(x, y)      DOUBLE    the next double after x toward y
//	unicode(s)           INTEGER   code point of the first character, -1 for '' (ord)
//	octet_length(s)      BIGINT    bytes
//	bin(x)               VARCHAR   binary digits of a BIGINT's two's complement, or of a string's bytes
//	format_bytes(n)      VARCHAR   1024-based: "1.5 KiB"; format_bytes_decimal: 1000-based "1.5 kB"
func init() {
	defRow("octet_length", fnOctetLength, true)
	defRow("bin", fnBin, true)
}

// fnTruncDigits truncates toward zero, keeping n digits after the point:
// a DECIMAL's scaled integer or an integer loses its low digits, a float
// is scaled, truncated and scaled back.
func fnTruncDigits(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	v, n := a[0], a[1].I
	switch {
	case v.Type.Phys() == columnar.PhysFloat:
		p := math.Pow(10, float64(n))
		return columnar.FloatValue(t, math.Trunc(v.F*p)/p), nil
	case v.Type.Phys() == columnar.PhysInt:
		drop := -n
		if v.Type.ID == columnar.Decimal {
			drop += int64(v.Type.Scale)
		}
		if drop <= 0 {
			return columnar.IntValue(t, v.I), nil
		}
		if drop >= int64(len(pow10)) {
			return columnar.IntValue(t, 0), nil
		}
		return columnar.IntValue(t, v.I/pow10[drop]*pow10[drop]), nil
	}
	return columnar.Value{}, fmt.Errorf("trunc: cannot truncate %s", v.Type)
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

// fnFormatBytes renders a byte count in the largest unit it reaches;
// below one unit it is "N bytes".
func fnFormatBytes(base float64, units []string) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		n := a[0].I
		x := math.Abs(float64(n))
		if x < base {
			if n == 1 || n == -1 {
				return columnar.StringValue(fmt.Sprintf("%d byte", n)), nil
			}
			return columnar.StringValue(fmt.Sprintf("%d bytes", n)), nil
		}
		u := 0
		for x /= base; x >= base && u+1 < len(units); u++ {
			x /= base
		}
		// One decimal, truncated (1023.97 KiB is "1023.9 KiB"), as DuckDB.
		x = math.Trunc(x*10) / 10
		if n < 0 {
			x = -x
		}
		return columnar.StringValue(fmt.Sprintf("%.1f %s", x, units[u])), nil
	}
}
