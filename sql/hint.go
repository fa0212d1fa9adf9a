package sql

import (
	"fmt"
	"strings"
)

// didYouMean returns ` (did you mean "x"?)` for the candidate closest to
// name by edit distance, or "" when none is close enough to help.
func didYouMean(name string, candidates []string) string {
	best, bestD := "", -1
	lname := strings.ToLower(name)
	for _, c := range candidates {
		d := editDistance(lname, strings.ToLower(c))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	// Allow about one edit per three characters, and never a full rewrite
	// (x is not a typo of a): close typos, not unrelated names.
	n := len([]rune(name))
	if bestD < 0 || bestD > max(1, n/3) || bestD >= n {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
