package columnar

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// BytesKey.Compare agrees with bytes.Compare on strings around 8 bytes
// long over an alphabet with 0x00 and 0xff (the padding of short keys
// and the largest byte), keys short and long.
func TestBytesKeyCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alpha := []byte{0, 1, 'a', 0xfe, 0xff}
	word := func() []byte {
		b := make([]byte, rng.IntN(14))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return b
	}
	for i := 0; i < 200000; i++ {
		s, k := word(), word()
		if i%3 == 0 && len(s) > 0 {
			k = append([]byte(nil), s[:rng.IntN(len(s))]...) // a prefix of s
		}
		key := NewBytesKey(k)
		if got, want := key.Compare(s), bytes.Compare(s, k); got != want {
			t.Fatalf("Compare(%x) with key %x = %d, want %d", s, k, got, want)
		}
	}
}

// IsPrefixOf agrees with bytes.HasPrefix, and PrefixSuccessor bounds the
// strings with a prefix: s starts with p exactly when p <= s < p⁺.
func TestBytesKeyPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alpha := []byte{0, 1, 'a', 0xfe, 0xff}
	word := func(n int) []byte {
		b := make([]byte, rng.IntN(n))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return b
	}
	for i := 0; i < 200000; i++ {
		s, p := word(14), word(10)
		if i%3 == 0 && len(s) > 0 {
			p = append([]byte(nil), s[:rng.IntN(len(s))]...)
		}
		key := NewBytesKey(p)
		want := bytes.HasPrefix(s, p)
		if got := key.IsPrefixOf(s); got != want {
			t.Fatalf("IsPrefixOf(%x) with key %x = %v, want %v", s, p, got, want)
		}
		up, ok := PrefixSuccessor(p)
		in := bytes.Compare(s, p) >= 0 && (!ok || bytes.Compare(s, up) < 0)
		if in != want {
			t.Fatalf("prefix %x, successor %x (%v): %x in range %v, starts with it %v", p, up, ok, s, in, want)
		}
	}
}
