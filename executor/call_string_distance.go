package executor

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
)

// Edit distances and similarities, over bytes as in DuckDB (é counts as
// two):
//
//	levenshtein(a, b)              BIGINT  insertions, deletions, substitutions
//	damerau_levenshtein(a, b)      BIGINT  plus transpositions of adjacent bytes (unrestricted)
//	hamming(a, b)                  BIGINT  differing positions; an error for unequal lengths
//	jaro_similarity(a, b)          DOUBLE  0 when either is empty
//	jaro_winkler_similarity(a, b)  DOUBLE  Jaro plus 0.1 per common prefix byte (at most 4) when Jaro > 0.7

func fnLevenshtein(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, int64(levenshtein(a[0].S, a[1].S))), nil
}

// levenshtein keeps one row of the edit-distance table.
func levenshtein(s, u string) int {
	row := make([]int, len(u)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(s); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(u); j++ {
			cost := 1
			if s[i-1] == u[j-1] {
				cost = 0
			}
			next := min(row[j]+1, row[j-1]+1, diag+cost)
			diag, row[j] = row[j], next
		}
	}
	return row[len(u)]
}

func fnDamerau(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, int64(damerau(a[0].S, a[1].S))), nil
}

// damerau is the unrestricted Damerau–Levenshtein distance (Lowrance and
// Wagner): a substring may be edited after a transposition, so
// damerau('ca', 'abc') is 2 where the restricted form gives 3.
func damerau(s, u string) int {
	n, m := len(s), len(u)
	inf := n + m
	// d is (n+2)×(m+2); row and column 0 hold inf.
	w := m + 2
	d := make([]int, (n+2)*w)
	at := func(i, j int) *int { return &d[i*w+j] }
	*at(0, 0) = inf
	for i := 0; i <= n; i++ {
		*at(i+1, 0), *at(i+1, 1) = inf, i
	}
	for j := 0; j <= m; j++ {
		*at(0, j+1), *at(1, j+1) = inf, j
	}
	var last [256]int // last row where each byte occurred in s
	for i := 1; i <= n; i++ {
		db := 0
		for j := 1; j <= m; j++ {
			i1, j1 := last[u[j-1]], db
			cost := 1
			if s[i-1] == u[j-1] {
				cost, db = 0, j
			}
			*at(i+1, j+1) = min(*at(i, j)+cost, *at(i+1, j)+1, *at(i, j+1)+1,
				*at(i1, j1)+(i-i1-1)+1+(j-j1-1))
		}
		last[s[i-1]] = i
	}
	return *at(n+1, m+1)
}

func fnHamming(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	s, u := a[0].S, a[1].S
	if s == "" || u == "" {
		// DuckDB: "Strings must be of length > 0".
		return columnar.Value{}, fmt.Errorf("hamming: the strings must not be empty")
	}
	if len(s) != len(u) {
		return columnar.Value{}, fmt.Errorf("hamming: the strings must have the same length (%d and %d bytes)", len(s), len(u))
	}
	n := 0
	for i := range len(s) {
		if s[i] != u[i] {
			n++
		}
	}
	return columnar.IntValue(t, int64(n)), nil
}

func fnJaro(winkler bool) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		s, u := a[0].S, a[1].S
		sim := jaro(s, u)
		if winkler && sim > 0.7 {
			p := 0
			for p < 4 && p < len(s) && p < len(u) && s[p] == u[p] {
				p++
			}
			sim += float64(p) * 0.1 * (1 - sim)
		}
		return columnar.FloatValue(t, sim), nil
	}
}

// jaro is the Jaro similarity: m matching bytes (equal, and at most
// max(len)/2-1 apart) and t half the matches out of order give
// (m/|s| + m/|u| + (m-t)/m) / 3.
func jaro(s, u string) float64 {
	if len(s) == 0 || len(u) == 0 {
		return 0
	}
	win := max(max(len(s), len(u))/2-1, 0)
	ms, mu := make([]bool, len(s)), make([]bool, len(u))
	m := 0
	for i := range len(s) {
		for j := max(0, i-win); j < min(len(u), i+win+1); j++ {
			if !mu[j] && s[i] == u[j] {
				ms[i], mu[j] = true, true
				m++
				break
			}
		}
	}
	if m == 0 {
		return 0
	}
	half, j := 0, 0
	for i := range len(s) {
		if !ms[i] {
			continue
		}
		for !mu[j] {
			j++
		}
		if s[i] != u[j] {
			half++
		}
		j++
	}
	fm := float64(m)
	return (fm/float64(len(s)) + fm/float64(len(u)) + (fm-float64(half/2))/fm) / 3
}
