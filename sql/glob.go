package sql

// globMatch reports whether s matches the GLOB pattern pat, as DuckDB's
// GLOB (its ~~~ operator) reads one, byte by byte and case-sensitively:
// * matches any run of bytes, ? any one byte, [set] one byte of the set
// (ranges a-z; [!set] one byte not in it; a ] right after [ or [! is a
// member), \c the byte c itself. A [ without its ] matches nothing.
func globMatch(s, pat string) bool {
	// Backtracking over the last *: on a mismatch, that * takes one byte
	// more of s and the rest of the pattern is tried again.
	si, pi := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(pat) {
			switch c := pat[pi]; c {
			case '*':
				starP, starS = pi, si
				pi++
				continue
			case '?':
				si, pi = si+1, pi+1
				continue
			case '[':
				if next, ok := globSet(pat, pi+1, s[si]); ok {
					si, pi = si+1, next
					continue
				}
			case '\\':
				if pi+1 < len(pat) && pat[pi+1] == s[si] {
					si, pi = si+1, pi+2
					continue
				}
			default:
				if c == s[si] {
					si, pi = si+1, pi+1
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		si, pi = starS, starP+1
	}
	for pi < len(pat) && pat[pi] == '*' {
		pi++
	}
	return pi == len(pat)
}

// globSet matches byte b against the set that starts at pat[i] (after
// its [): ok reports a match, next is the index after the closing ].
func globSet(pat string, i int, b byte) (next int, ok bool) {
	negate := i < len(pat) && pat[i] == '!'
	if negate {
		i++
	}
	first, in := i, false
	for i < len(pat) {
		c := pat[i]
		if c == ']' && i > first {
			return i + 1, in != negate
		}
		if i+2 < len(pat) && pat[i+1] == '-' && pat[i+2] != ']' {
			in = in || c <= b && b <= pat[i+2]
			i += 3
			continue
		}
		in = in || c == b
		i++
	}
	return 0, false // no closing ]: no match
}
