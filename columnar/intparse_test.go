package columnar

import (
	"math/big"
	"regexp"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// TestParseInt: DuckDB 1.5.6's answers to CAST(text AS BIGINT/UBIGINT).
func TestParseInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0.5", 1, true}, {"-0.5", -1, true}, {"2.5", 3, true}, {"5.5e-1", 1, true},
		{" 1.49 ", 1, true}, {"1e2", 100, true}, {".5", 1, true}, {"5.", 5, true},
		{"+1.5", 2, true}, {"1_000", 1000, true}, {"0x10", 16, true}, {"0X10", 16, true},
		{"0b101", 5, true}, {"1.5_0", 2, true}, {"1_0.5", 11, true}, {"1.e1", 10, true},
		{"00012", 12, true}, {"1e-400", 0, true}, {"9223372036854775807.4", 9223372036854775807, true},
		{"-9223372036854775808", -9223372036854775808, true},
		{"9223372036854775808", 0, false}, {"1e20", 0, false}, {"_1", 0, false}, {"1_", 0, false},
		{"1__0", 0, false}, {"0x_10", 0, false}, {"-0x10", 0, false}, {"1e1_0", 10000000000, true}, {"0xF_F", 255, true}, {"0b1_01", 5, true}, {"0xF_", 0, false}, {"0b1__0", 0, false}, {"1e_10", 0, false},
		{"-", 0, false}, {".", 0, false}, {"1e", 0, false}, {"e5", 0, false}, {"1 000", 0, false},
		{"0o17", 0, false}, {"+ 1", 0, false}, {"", 0, false}, {"1e99999999999", 0, false},
		{"1e-32768", 0, true}, {"1e-32769", 0, false}, {"0e-100000", 0, false},
	} {
		got, ok := ParseInt(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseInt(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"0xFFFFFFFFFFFFFFFF", 1<<64 - 1, true}, {"-0", 0, true}, {"18446744073709551615.4", 1<<64 - 1, true},
		{"-0.4", 0, false}, {"-1", 0, false}, {"18446744073709551615.5", 0, false},
	} {
		got, ok := ParseUint(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseUint(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzParseInt: never panics, and a plain decimal text (sign, digits, a
// point, an exponent) reads as its exact value rounded half away from
// zero, computed here with big.Rat.
func FuzzParseInt(f *testing.F) {
	for _, s := range []string{"0.5", "-2.5e1", "1_000", "0x1F", "9223372036854775807.5", "1e-400", ".5e1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g := fuzzguard.Start(t, len(s))
		defer g.Done()
		got, ok := ParseInt(s)
		if !plainDecimal.MatchString(s) || len(s) > 60 {
			return
		}
		r, rok := new(big.Rat).SetString(s)
		if !rok || strings.Count(strings.ToLower(s), "e") > 0 && expTooBig(s) {
			return
		}
		// half away from zero: trunc(r + sign(r)/2)
		half := big.NewRat(int64(r.Sign()), 2)
		q := new(big.Int).Quo(new(big.Rat).Add(r, half).Num(), new(big.Rat).Add(r, half).Denom())
		fits := q.IsInt64()
		if ok != fits || ok && q.Int64() != got {
			t.Fatalf("ParseInt(%q) = %d, %v; exact rounding gives %s", s, got, ok, q)
		}
	})
}

var plainDecimal = regexp.MustCompile(`^[+-]?[0-9]*\.?[0-9]*([eE][+-]?[0-9]+)?$`)

// expTooBig skips exponents big.Rat would spend long on.
func expTooBig(s string) bool {
	i := strings.IndexAny(s, "eE")
	e := strings.TrimLeft(s[i+1:], "+-")
	return len(e) > 3
}
