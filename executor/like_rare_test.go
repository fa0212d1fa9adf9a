package executor

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestLikeRareByteAgreesWithRegexp checks LIKE with the rare-byte test
// against a regular expression built from the pattern ('%' .*, '_' one
// character), on random values and patterns mixing common and rare bytes,
// '_', and a multi-byte character, with ILIKE's folding too.
func TestLikeRareByteAgreesWithRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	pick := func(n int, alpha []string) string {
		var b strings.Builder
		for range n {
			b.WriteString(alpha[rng.IntN(len(alpha))])
		}
		return b.String()
	}
	values := []string{"e", "q", "Q", " ", "é", "x", "eq"}
	patterns := []string{"e", "q", "Q", "é", "x", "%", "%", "_"}
	tested := map[int]int{}
	for range 30000 {
		pat := pick(1+rng.IntN(5), patterns)
		s := pick(rng.IntN(7), values)
		fold := rng.IntN(4) == 0
		var re strings.Builder
		re.WriteString("^(?s)")
		if fold {
			re.WriteString("(?i)")
		}
		for _, r := range pat {
			switch r {
			case '%':
				re.WriteString(".*")
			case '_':
				re.WriteString(".")
			default:
				re.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		re.WriteString("$")
		want := regexp.MustCompile(re.String()).MatchString(s)
		m := compileLike([]byte(pat), fold)
		if got := m.match([]byte(s)); got != want {
			t.Fatalf("%q LIKE %q (fold %v, kind %d, rare %q): got %v, want %v", s, pat, fold, m.kind, m.rare, got, want)
		}
		if m.hasRare {
			tested[m.kind]++
		}
	}
	for _, k := range []int{0, 4, 5} {
		if tested[k] == 0 {
			t.Errorf("no pattern of kind %d had a rare byte", k)
		}
	}
	if m := compileLike([]byte("%special%requests%"), false); !m.hasRare || m.rare != 'q' {
		t.Errorf("%%special%%requests%%: rare byte %q (%v), want 'q'", m.rare, m.hasRare)
	}
}
