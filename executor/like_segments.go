package executor

import "bytes"

// likeSegments is a LIKE pattern made of literals and '%' only, such as
// '%special%requests%' (TPC-H Q13) or 'a%b%c': an anchored prefix, literals
// that must follow one another, an anchored suffix. Taking each middle
// literal at its leftmost occurrence (bytes.Index) after the previous one
// is exact for such patterns: an earlier match never rules out a later
// one, so the backtracking of the general matcher is never needed.
type likeSegments struct {
	prefix, suffix []byte
	mids           [][]byte
	minLen         int
}

// compileSegments builds the segments of a pattern whose parts are
// literals and '%' runs (at least one '%'); ok is false when it has '_'.
func compileSegments(parts []likePart) (likeSegments, bool) {
	var g likeSegments
	anyRun := false
	for i, p := range parts {
		switch {
		case p.one:
			return g, false
		case p.anyRun:
			anyRun = true
		case i == 0:
			g.prefix = p.lit
		case i == len(parts)-1:
			g.suffix = p.lit
		default:
			g.mids = append(g.mids, p.lit)
		}
		g.minLen += len(p.lit)
	}
	return g, anyRun
}

func (g *likeSegments) match(s []byte) bool {
	if len(s) < g.minLen || !bytes.HasPrefix(s, g.prefix) || !bytes.HasSuffix(s, g.suffix) {
		return false
	}
	// The middle literals must lie between the prefix and the suffix,
	// without overlapping either.
	pos, end := len(g.prefix), len(s)-len(g.suffix)
	for _, m := range g.mids {
		j := bytes.Index(s[pos:end], m)
		if j < 0 {
			return false
		}
		pos += j + len(m)
	}
	return true
}

type likePart struct {
	anyRun bool // '%'
	one    bool // '_'
	lit    []byte
}
