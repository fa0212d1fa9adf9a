package csv

import (
	"strconv"
	"testing"
)

// TestFastFloat checks the fast path against strconv, bit for bit.
func TestFastFloat(t *testing.T) {
	for _, s := range []string{"0", "1.5", "-3.25", "395.5", "0.1", "0.30000000000000004", "123456789012345", "1234567890.12345", "-0.000001", "9007199254740993", "1.", ".5", "1.2.3", "-", "12e3", "007.50"} {
		want, werr := strconv.ParseFloat(s, 64)
		got, ok := fastFloat([]byte(s))
		if ok && (werr != nil || got != want) {
			t.Errorf("%q: fast %v, strconv %v %v", s, got, want, werr)
		}
		if p, ok := parseFloat([]byte(s), '.'); ok != (werr == nil) || ok && p != want {
			t.Errorf("%q: parseFloat %v %v, strconv %v %v", s, p, ok, want, werr)
		}
	}
}

func TestFieldEnd(t *testing.T) {
	lx := newLexer(Dialect{Delim: ';', Quote: '"'})
	for _, s := range []string{"", "a", "abcdefgh", "abcdefgh;", "abcdefghijklmnop\n", "ab\rcd", "0123456789abcdef0123;x", "\x80\x81;", "é;"} {
		want := len(s)
		for i := 0; i < len(s); i++ {
			if s[i] == ';' || s[i] == '\n' || s[i] == '\r' {
				want = i
				break
			}
		}
		if got := lx.fieldEnd([]byte(s), 0); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
}
