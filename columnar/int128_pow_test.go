package columnar

import (
	"math/big"
	"testing"
)

// TestPow10Big: every power equals 10 multiplied n times, inside the
// table and past it, and a caller changing its value changes no later one.
func TestPow10Big(t *testing.T) {
	want := big.NewInt(1)
	for n := 0; n <= 100; n++ {
		got := Pow10Big(n)
		if got.Cmp(want) != 0 {
			t.Fatalf("Pow10Big(%d) = %s, want %s", n, got, want)
		}
		got.SetInt64(-7) // the caller's own value
		if again := Pow10Big(n); again.Cmp(want) != 0 {
			t.Fatalf("Pow10Big(%d) after a caller changed it = %s", n, again)
		}
		want.Mul(want, big.NewInt(10))
	}
}
