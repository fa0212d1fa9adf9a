package executor

import "strings"

// A LIKE pattern whose match must contain some literal (%special%requests%,
// %infix%, a%b_c) cannot match a value lacking any byte of those literals.
// Testing for the literals' rarest byte first with bytes.IndexByte (vector
// instructions, a few instructions per 16 bytes) rejects most values
// before the literal search, whose brute force on short values (bytealg
// for values up to 64 bytes) costs about 8 instructions per byte: TPC-H
// Q13's o_comment contains 'q' (of "requests") in 20% of rows.

// commonBytes lists bytes from the most to the least frequent in text:
// space, lowercase letters by English frequency, digits, uppercase
// letters, common punctuation. Bytes it lacks count as rarer than all of
// them (other punctuation, UTF-8 multi-byte sequences). A heuristic only:
// any byte of the literals gives the same answers.
const commonBytes = " etaoinshrdlcumwfgypbvkjxqz0123456789ETAOINSHRDLCUMWFGYPBVKJXQZ.,-'/:_"

// rareByte returns the byte of the parts' literals least frequent in text
// by commonBytes; ok is false when the parts have no literal bytes.
func rareByte(parts []likePart) (rare byte, ok bool) {
	best := -1
	for _, p := range parts {
		for _, c := range p.lit {
			r := strings.IndexByte(commonBytes, c)
			if r < 0 {
				r = len(commonBytes)
			}
			if r > best {
				best, rare = r, c
			}
		}
	}
	return rare, best >= 0
}
