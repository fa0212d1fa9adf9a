package executor

import (
	"fmt"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
)

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
