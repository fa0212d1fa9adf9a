package executor

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestLikeSegments(t *testing.T) {
	cases := []struct {
		pat, s string
		want   bool
	}{
		{"%special%requests%", "the special deposits requests", true},
		{"%special%requests%", "requests special", false},
		{"%special%requests%", "specialrequests", true},
		{"%special%requests%", "specialrequest", false},
		{"a%b%c", "abc", true},
		{"a%b%c", "axbyc", true},
		{"a%b%c", "abcx", false},
		{"a%b%c", "xabc", false},
		{"a%b%c", "ac", false},
		// The suffix must not reuse the last middle literal's bytes.
		{"%ab%b", "xab", false},
		{"%ab%b", "xabb", true},
		{"a%a", "a", false},
		{"a%a", "aa", true},
		{"ab%ba", "aba", false},
		{"ab%ba", "abba", true},
		{"%a%a%", "a", false},
		{"%a%a%", "banana", true},
		{"%%x%%", "x", true},
		{"%x%y", "yx", false},
		{"%é%ü", "aébü", true},
	}
	for _, c := range cases {
		m := compileLike([]byte(c.pat), false)
		if got := m.match([]byte(c.s)); got != c.want {
			t.Errorf("%q LIKE %q = %v, want %v", c.s, c.pat, got, c.want)
		}
	}
	if m := compileLike([]byte("%special%requests%"), false); m.kind != 5 {
		t.Errorf("%%special%%requests%% compiled to kind %d, want the segment matcher", m.kind)
	}
	if m := compileLike([]byte("%a_b%"), false); m.kind != 0 {
		t.Errorf("%%a_b%% compiled to kind %d, want the general matcher", m.kind)
	}
}

// TestLikeSegmentsAgreeWithBacktracking compares the segment matcher with
// the general backtracking matcher on random short strings and patterns
// over a two-letter alphabet, where overlaps are frequent.
func TestLikeSegmentsAgreeWithBacktracking(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	word := func(n int, alpha string) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return b
	}
	for i := 0; i < 20000; i++ {
		pat := word(1+rng.IntN(6), "ab%")
		s := word(rng.IntN(8), "ab")
		m := compileLike(pat, false)
		if m.kind != 5 {
			continue
		}
		if got, want := m.match(s), likeMatch(m.parts, s); got != want {
			t.Fatalf("%q LIKE %q: segments %v, backtracking %v", s, pat, got, want)
		}
	}
}

// BenchmarkLike measures rows/s of each LIKE shape over TPC-H-like comments.
func BenchmarkLike(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"special", "requests", "deposits", "furiously", "carefully", "final", "pending", "accounts", "blithely", "ironic"}
	rows := make([][]byte, 4096)
	for i := range rows {
		s := ""
		for j := 0; j < 6+rng.IntN(6); j++ {
			s += words[rng.IntN(len(words))] + " "
		}
		rows[i] = []byte(s)
	}
	for _, pat := range []string{"%special%requests%", "%special%", "final%", "%accounts ", "%fin_l%"} {
		m := compileLike([]byte(pat), false)
		b.Run(fmt.Sprintf("pat=%s", pat), func(b *testing.B) {
			n := 0
			for b.Loop() {
				for _, r := range rows {
					if m.match(r) {
						n++
					}
				}
			}
			b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
		})
	}
	// The backtracking matcher the segment shape replaced, for comparison.
	m := compileLike([]byte("%special%requests%"), false)
	b.Run("pat=%special%requests%/backtracking", func(b *testing.B) {
		for b.Loop() {
			for _, r := range rows {
				likeMatch(m.parts, r)
			}
		}
		b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
	})
}
