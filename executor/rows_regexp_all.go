package executor

import (
	"regexp"
	"regexp/syntax"
	"sync"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
)

// regexp_extract_all(s, pattern, group): group of every match, found as
// DuckDB finds them. From position 0, each search takes the leftmost
// match at or after the position; a non-empty match moves the position
// to its end, an empty one moves it one character on (from the position,
// not from the match). So 'a*' over 'aab' gives [aa, '', ''] where Go's
// FindAll drops the empty match right after "aa", and '\b' over 'ab ab'
// finds the boundary at 2 twice.

// fnRegexpExtractAll: a[2] is the group; a negative one gives an empty
// list, and one beyond the pattern's groups is an error at the first
// match.
func fnRegexpExtractAll(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	re, err := compileRegex(a[1].S)
	if err != nil {
		return columnar.Value{}, err
	}
	s, g := a[0].S, a[2].I
	out := columnar.Value{Type: t, Elems: []columnar.Value{}}
	if g < 0 {
		return out, nil
	}
	group := func(m []int, g int) columnar.Value {
		if m[2*g] < 0 {
			return columnar.NullValue(columnar.TVarchar)
		}
		return columnar.StringValue(s[m[2*g]:m[2*g+1]])
	}
	add := func(m []int) error {
		if names := a[2]; names.Type.ID == columnar.List {
			// ['name', …]: groups 1, 2, … as the fields of a STRUCT
			fields := make([]columnar.Value, len(names.Elems))
			for i := range fields {
				fields[i] = group(m, i+1)
			}
			out.Elems = append(out.Elems, columnar.Value{Type: t.Elem(), Elems: fields})
			return nil
		}
		if int(g) > re.NumSubexp() {
			return errorf("regexp_extract_all: the pattern has %d groups: cannot take group %d", re.NumSubexp(), g)
		}
		out.Elems = append(out.Elems, group(m, int(g)))
		return nil
	}
	if !matchesEmpty(re) {
		// No match is empty, so each search starts where the last match
		// ended: Go's FindAll finds the same ones.
		for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
			if err := add(m); err != nil {
				return columnar.Value{}, err
			}
		}
		return out, nil
	}
	from := searchFrom(re)
	for pos := 0; pos <= len(s); {
		var m []int
		if pos == 0 {
			m = re.FindStringSubmatchIndex(s)
		} else {
			// Search s[pos:] with the character before pos in front, so
			// that ^, \b and \B see it; group 1 is the whole match.
			_, w := utf8.DecodeLastRuneInString(s[:pos])
			m = from.FindStringSubmatchIndex(s[pos-w:])
			for i := range m {
				if m[i] >= 0 {
					m[i] += pos - w
				}
			}
			if m != nil {
				m = m[2:] // drop the prefix's match: group 1 is the match
			}
		}
		if m == nil {
			break
		}
		if err := add(m); err != nil {
			return columnar.Value{}, err
		}
		if m[1] > m[0] {
			pos = m[1]
			continue
		}
		if pos == len(s) {
			break
		}
		_, w := utf8.DecodeRuneInString(s[pos:])
		pos += w
	}
	return out, nil
}

var (
	emptyMatchers sync.Map // pattern → bool (matchesEmpty)
	fromPatterns  sync.Map // pattern → *regexp.Regexp (searchFrom)
)

// matchesEmpty reports whether re can match an empty string somewhere:
// a zero-width assertion counts, so the answer errs towards yes.
func matchesEmpty(re *regexp.Regexp) bool {
	if v, ok := emptyMatchers.Load(re.String()); ok {
		return v.(bool)
	}
	p, err := syntax.Parse(re.String(), syntax.Perl)
	yes := err != nil || nullable(p)
	emptyMatchers.Store(re.String(), yes)
	return yes
}

func nullable(r *syntax.Regexp) bool {
	switch r.Op {
	case syntax.OpLiteral, syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
		return false
	case syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpPlus, syntax.OpCapture:
		return nullable(r.Sub[0])
	case syntax.OpRepeat:
		return r.Min == 0 || nullable(r.Sub[0])
	case syntax.OpConcat:
		for _, x := range r.Sub {
			if !nullable(x) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, x := range r.Sub {
			if nullable(x) {
				return true
			}
		}
		return false
	}
	return true // empty match, ^, $, \A, \z, \b, \B
}

// searchFrom returns re searching a text whose first character is only
// context: \A(?s:.)(?s:.*?)(re). The lazy .*? makes the match the
// leftmost one after that character, and group 1 is it (re's groups
// follow).
func searchFrom(re *regexp.Regexp) *regexp.Regexp {
	if v, ok := fromPatterns.Load(re.String()); ok {
		return v.(*regexp.Regexp)
	}
	r := regexp.MustCompile(`\A(?s:.)(?s:.*?)(` + re.String() + `)`)
	fromPatterns.Store(re.String(), r)
	return r
}
