package sql

import "testing"

// TestGlobMatch checks GLOB patterns on names; the answers are DuckDB
// 1.5's for SELECT s ~~~ p (bench/cmd/duck).
func TestGlobMatch(t *testing.T) {
	for _, c := range []struct {
		s, p string
		want bool
	}{
		{"col1", "col*", true},
		{"Other", "o*", false}, // case-sensitive
		{"Other", "O*", true},
		{"col1", "col?", true},
		{"col10", "col?", false},
		{"col1", "[co]*", true},
		{"Other", "[co]*", false},
		{"Other", "[!co]*", true},
		{"b", "[a-c]", true},
		{"d", "[a-c]", false},
		{"]", "[]]", true},
		{"a*b", `a\*b`, true},
		{"axb", `a\*b`, false},
		{"abc", "*", true},
		{"", "*", true},
		{"", "?", false},
		{"abcbc", "*bc", true},
		{"abcb", "a*b*c", false},
		{"a", "[a", false}, // no closing ]
		{"aXbXc", "a*X*c", true},
	} {
		if got := globMatch(c.s, c.p); got != c.want {
			t.Errorf("%q GLOB %q = %v, want %v", c.s, c.p, got, c.want)
		}
	}
}
