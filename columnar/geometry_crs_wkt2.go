package columnar

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A WKT2:2019 CRS text, read as DuckDB 1.5 reads one to name a GEOMETRY's
// CRS: a tree of KEYWORD[child, …] (or KEYWORD(…)) nodes whose leaves are
// "strings" and numbers. Only the root keyword, its name (the first
// child, a string) and an ID["AUTH", code] child matter; text after the
// root node is ignored. A bracket left open is an error, with DuckDB's
// words and byte position.

// wkt2Node is a keyword (with children), a string or a number.
type wkt2Node struct {
	keyword  string // "" for a string or a number
	children []*wkt2Node
	str      *string
	num      *float64
}

type wkt2Parser struct {
	s   string
	pos int
}

func (p *wkt2Parser) skipSpace() {
	for p.pos < len(p.s) && isCSpace(p.s[p.pos]) {
		p.pos++
	}
}

// isCSpace is C's isspace.
func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// tryMatch takes c (any case) and the blanks after it.
func (p *wkt2Parser) tryMatch(c byte) bool {
	if p.pos < len(p.s) && (p.s[p.pos] == c || isASCIILetter(c) && p.s[p.pos]|0x20 == c|0x20) {
		p.pos++
		p.skipSpace()
		return true
	}
	return false
}

func (p *wkt2Parser) match(c byte) error {
	if p.tryMatch(c) {
		return nil
	}
	if p.pos == len(p.s) {
		return fmt.Errorf("Expected '%c' but got end of input at position %d", c, p.pos)
	}
	return fmt.Errorf("Expected '%c' but got '%c' at position %d", c, p.s[p.pos], p.pos)
}

// node reads one node; nil when none starts here.
func (p *wkt2Parser) node() (*wkt2Node, error) {
	if p.tryMatch('"') {
		start := p.pos
		end := strings.IndexByte(p.s[start:], '"')
		if end < 0 {
			return nil, fmt.Errorf("Unterminated string starting at position %d", start)
		}
		p.pos = start + end
		str := p.s[start:p.pos]
		if err := p.match('"'); err != nil {
			return nil, err
		}
		return &wkt2Node{str: &str}, nil
	}
	start := p.pos
	for p.pos < len(p.s) && (isASCIILetter(p.s[p.pos]) || p.s[p.pos] == '_') {
		p.pos++
	}
	if p.pos > start {
		n := &wkt2Node{keyword: p.s[start:p.pos]}
		p.skipSpace()
		for _, br := range [...][2]byte{{'[', ']'}, {'(', ')'}} {
			if !p.tryMatch(br[0]) {
				continue
			}
			for {
				c, err := p.node()
				if err != nil {
					return nil, err
				}
				if c == nil {
					break
				}
				n.children = append(n.children, c)
				if !p.tryMatch(',') {
					break
				}
			}
			return n, p.match(br[1])
		}
		return n, nil
	}
	if f, n := wkt2Number(p.s[p.pos:]); n > 0 {
		p.pos += n
		p.skipSpace()
		return &wkt2Node{num: &f}, nil
	}
	return nil, nil
}

// wkt2Number reads the longest decimal number (optional '-', digits,
// fraction, exponent) or inf/infinity/nan at the start of s; n is 0 when
// none is there.
func wkt2Number(s string) (float64, int) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	for _, w := range [...]string{"infinity", "inf", "nan"} {
		if len(s)-i >= len(w) && strings.EqualFold(s[i:i+len(w)], w) {
			f, _ := strconv.ParseFloat(s[:i+len(w)], 64)
			return f, i + len(w)
		}
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return 0, 0
	}
	if i < len(s) && s[i]|0x20 == 'e' {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	f, _ := strconv.ParseFloat(s[:i], 64) // a range error keeps ±Inf, as from_chars
	return f, i
}

// wkt2CRSKeywords are the root keywords of a WKT2:2019 CRS.
var wkt2CRSKeywords = []string{"BOUNDCRS", "COMPOUNDCRS", "ENGCRS", "ENGINEERINGCRS", "GEODCRS",
	"GEODETICCRS", "GEOGCRS", "GEOGRAPHICCRS", "PARAMETRICCRS", "PROJCRS",
	"PROJECTEDCRS", "TIMECRS", "VERTCRS", "VERTICALCRS"}

// wkt2ID is the code of n's first usable ID["AUTH", code] child ("" for
// none): AUTH:code, a number code written as an integer.
func wkt2ID(n *wkt2Node) string {
	for _, c := range n.children {
		if !strings.EqualFold(c.keyword, "ID") || len(c.children) < 2 || c.children[0].str == nil {
			continue
		}
		auth, code := *c.children[0].str, c.children[1]
		switch {
		case code.num != nil:
			if *code.num < 0 || *code.num > math.MaxUint64 || math.IsNaN(*code.num) {
				continue
			}
			return auth + ":" + strconv.FormatUint(uint64(*code.num), 10)
		case code.str != nil:
			return auth + ":" + *code.str
		}
		return ""
	}
	return ""
}

// wkt2CRS reads text as a WKT2 CRS and returns the code it is identified
// by (its ID[…], else its name); ok is false when text is not one.
func wkt2CRS(text string) (code string, ok bool, err error) {
	p := &wkt2Parser{s: text}
	p.skipSpace()
	root, err := p.node()
	if err != nil || root == nil || root.keyword == "" || !containsFold(wkt2CRSKeywords, root.keyword) || len(root.children) == 0 {
		return "", false, err
	}
	named := root
	if strings.EqualFold(root.keyword, "BOUNDCRS") { // named by its transformation
		if len(root.children) < 3 || root.children[2].keyword == "" || len(root.children[2].children) == 0 {
			return "", false, nil
		}
		named = root.children[2]
	}
	first := named.children[0]
	if first.str == nil {
		return "", false, nil
	}
	if code = wkt2ID(named); code == "" {
		code = *first.str
	}
	return code, true, nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
