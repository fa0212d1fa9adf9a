package executor

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
)

// Text functions of DuckDB over VARCHAR (registered in func_*.go):
//
//	repeat(s, n)            VARCHAR  n copies, '' for n ≤ 0
//	translate(s, from, to)  VARCHAR  each character of from becomes the one at the same place in to, or is dropped
//	bit_length(s)           BIGINT   8 × bytes
//	url_encode, url_decode  VARCHAR  percent-encoding (RFC 3986 unreserved characters kept)
//	to_hex(s|n)             VARCHAR  upper-case hex of the bytes, or of a BIGINT/UBIGINT's two's complement
//	unhex(s)                BLOB     an odd length reads as a leading 0
//	to_base64(b), from_base64(s)  VARCHAR, BLOB

// maxRepeat bounds the result of repeat: one cell of a gigabyte is a
// runaway query, not a string anyone wants.
const maxRepeat = 1 << 30

func fnRepeat(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	n := a[1].I
	if n <= 0 || a[0].S == "" {
		return columnar.StringValue(""), nil
	}
	if n > maxRepeat/int64(len(a[0].S)) {
		return columnar.Value{}, fmt.Errorf("repeat: %d copies of a %d-byte string exceed %d bytes", n, len(a[0].S), maxRepeat)
	}
	return columnar.StringValue(strings.Repeat(a[0].S, int(n))), nil
}

func fnTranslate(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	from, to := []rune(a[1].S), []rune(a[2].S)
	var b strings.Builder
	for _, r := range a[0].S {
		i := indexRune(from, r)
		switch {
		case i < 0:
			b.WriteRune(r)
		case i < len(to):
			b.WriteRune(to[i])
		}
	}
	return columnar.StringValue(b.String()), nil
}

// indexRune is the first position of r in rs, -1 if absent (the first
// mapping of a repeated character wins, as in DuckDB).
func indexRune(rs []rune, r rune) int {
	for i, x := range rs {
		if x == r {
			return i
		}
	}
	return -1
}

func fnBitLength(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, 8*int64(len(a[0].S))), nil
}

// url_encode keeps A-Z a-z 0-9 - _ . ~ and percent-encodes every other
// byte in upper-case hex (a space is %20, not +), as DuckDB does.
func fnURLEncode(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	const hex = "0123456789ABCDEF"
	s := a[0].S
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return columnar.StringValue(b.String()), nil
}

// url_decode turns %XX into its byte (+ stays +); a % not followed
// by two hex digits stays as it is (DuckDB's behaviour).
func fnURLDecode(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	s := a[0].S
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhexDigit(s[i+1])<<4 | unhexDigit(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	out := b.String()
	if !utf8.ValidString(out) {
		return columnar.Value{}, fmt.Errorf("url_decode: %q does not decode to valid UTF-8", s)
	}
	return columnar.StringValue(out), nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhexDigit(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// fnToHex renders the bytes of a string or blob, or an integer (BIGINT as
// its 64-bit two's complement, UBIGINT as unsigned), without leading zeros.
func fnToHex(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	v := a[0]
	if v.Type.Phys() == columnar.PhysBytes {
		return columnar.StringValue(fmt.Sprintf("%X", v.S)), nil
	}
	return columnar.StringValue(fmt.Sprintf("%X", uint64(v.I))), nil
}

func fnUnhex(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	s := a[0].S
	if len(s)%2 == 1 {
		s = "0" + s
	}
	out := make([]byte, len(s)/2)
	for i := 0; i < len(s); i += 2 {
		if !isHex(s[i]) || !isHex(s[i+1]) {
			bad := s[i]
			if isHex(bad) {
				bad = s[i+1]
			}
			return columnar.Value{}, fmt.Errorf("unhex: %q is not a hex digit", bad)
		}
		out[i/2] = unhexDigit(s[i])<<4 | unhexDigit(s[i+1])
	}
	return columnar.Value{Type: t, S: string(out)}, nil
}

func fnToBase64(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.StringValue(base64.StdEncoding.EncodeToString([]byte(a[0].S))), nil
}

func fnFromBase64(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	b, err := base64.StdEncoding.DecodeString(a[0].S)
	if err != nil {
		return columnar.Value{}, fmt.Errorf("from_base64: could not decode %q as base64", a[0].S)
	}
	return columnar.Value{Type: t, S: string(b)}, nil
}
