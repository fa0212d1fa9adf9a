package columnar

import (
	"bytes"
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends v as JSON, as DuckDB writes it in JSON output: a LIST
// as an array, a STRUCT as an object of its fields, a MAP as an object of
// its entries (keys as their text), numbers (AppendJSONFloat) and
// booleans bare, NULL as null, every other value as a string of its text.
func (v Value) AppendJSON(dst []byte) []byte {
	if v.Null {
		return append(dst, "null"...)
	}
	switch v.Type.ID {
	case List:
		dst = append(dst, '[')
		for i, e := range v.Elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = e.AppendJSON(dst)
		}
		return append(dst, ']')
	case Struct, Map:
		dst = append(dst, '{')
		fs := v.Type.Fields()
		for i, e := range v.Elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			if v.Type.ID == Struct {
				dst = appendJSONString(dst, fs[i].Name)
				dst = append(dst, ':')
				dst = e.AppendJSON(dst)
				continue
			}
			if len(e.Elems) == 2 {
				dst = appendJSONString(dst, e.Elems[0].String())
				dst = append(dst, ':')
				dst = e.Elems[1].AppendJSON(dst)
			}
		}
		return append(dst, '}')
	case Bool:
		return strconv.AppendBool(dst, v.Bool())
	case Float32, Float64:
		return AppendJSONFloat(dst, v.F)
	case Decimal:
		return AppendJSONFloat(dst, v.AsFloat())
	}
	if v.Type.IsInteger() {
		return v.AppendText(dst)
	}
	return appendJSONString(dst, v.String())
}

// appendJSONString appends s as a JSON string.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		case c < utf8.RuneSelf:
			dst = append(dst, c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, `\ufffd`...)
			} else {
				dst = append(dst, s[i:i+size]...)
			}
			i += size
			continue
		}
		i++
	}
	return append(dst, '"')
}

// AppendJSONFloat writes a DOUBLE as DuckDB's JSON writer does: shortest
// digits, a ".0" on integral values, NaN and Infinity bare.
func AppendJSONFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	abs := math.Abs(f)
	if f == math.Trunc(f) && abs < 1e21 {
		dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
		return append(dst, ".0"...)
	}
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	// DuckDB writes the exponent bare: 1e300 and 1.5e-7, where Go writes
	// 1e+300 and 1.5e-07.
	n := len(dst)
	dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
	e := n + bytes.IndexByte(dst[n:], 'e') + 1
	digits := e
	if dst[digits] == '+' || dst[digits] == '-' {
		digits++
	}
	z := digits
	for z < len(dst)-1 && dst[z] == '0' {
		z++
	}
	if dst[e] == '+' {
		return append(dst[:e], dst[z:]...)
	}
	return append(dst[:digits], dst[z:]...)
}
