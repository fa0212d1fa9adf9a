package executor

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
)

// Row functions of regular expressions (registered in func_string.go):
// RE2 syntax, patterns compiled once and cached.

var regexCache sync.Map // pattern → *regexp.Regexp

func compileRegex(p string) (*regexp.Regexp, error) {
	if r, ok := regexCache.Load(p); ok {
		return r.(*regexp.Regexp), nil
	}
	r, err := regexp.Compile(p)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %v", p, err)
	}
	regexCache.Store(p, r)
	return r, nil
}

func fnRegexpMatches(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	r, err := compileRegex(a[1].S)
	if err != nil {
		return columnar.Value{}, err
	}
	return columnar.BoolValue(r.MatchString(a[0].S)), nil
}

// regexRewrite turns an RE2 rewrite string (\0–\9 groups, \\ a
// backslash) into a Go Expand template. Anything else after a backslash,
// a trailing backslash or a group the pattern lacks is an error, as in
// DuckDB (RE2's CheckRewriteString).
func regexRewrite(s string, groups int) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '$':
			b.WriteString("$$")
		case c != '\\':
			b.WriteByte(c)
		case i+1 < len(s) && s[i+1] == '\\':
			b.WriteByte('\\')
			i++
		case i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			if n := int(s[i+1] - '0'); n > groups {
				return "", fmt.Errorf("invalid replacement string for regexp_replace: \\%d, the pattern has %d groups", n, groups)
			}
			b.WriteString("${" + s[i+1:i+2] + "}")
			i++
		default:
			return "", fmt.Errorf("invalid replacement string for regexp_replace: %q (a backslash takes a digit or a backslash)", s)
		}
	}
	return b.String(), nil
}

// fnRegexpReplace replaces the first match, or every match with option
// 'g'; \1 in the replacement is a group.
func fnRegexpReplace(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	r, err := compileRegex(a[1].S)
	if err != nil {
		return columnar.Value{}, err
	}
	repl, err := regexRewrite(a[2].S, r.NumSubexp())
	if err != nil {
		return columnar.Value{}, err
	}
	if len(a) > 3 && strings.Contains(a[3].S, "g") {
		return columnar.StringValue(r.ReplaceAllString(a[0].S, repl)), nil
	}
	loc := r.FindStringSubmatchIndex(a[0].S)
	if loc == nil {
		return columnar.StringValue(a[0].S), nil
	}
	var dst []byte
	dst = r.ExpandString(dst, repl, a[0].S, loc)
	return columnar.StringValue(a[0].S[:loc[0]] + string(dst) + a[0].S[loc[1]:]), nil
}

func fnRegexpExtract(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	r, err := compileRegex(a[1].S)
	if err != nil {
		return columnar.Value{}, err
	}
	m := r.FindStringSubmatchIndex(a[0].S)
	if a[2].Type.ID == columnar.List {
		// ['name', …]: groups 1, 2, … as the fields of a STRUCT, '' for
		// a group that took no part or no match.
		fields := make([]columnar.Value, len(a[2].Elems))
		for i := range fields {
			fields[i] = columnar.StringValue("")
			if 2*i+3 < len(m) && m[2*i+2] >= 0 {
				fields[i] = columnar.StringValue(a[0].S[m[2*i+2]:m[2*i+3]])
			}
		}
		return columnar.Value{Type: t, Elems: fields}, nil
	}
	g := int(a[2].I)
	if m == nil && len(a) > 3 && a[3].S == "k" {
		return columnar.StringValue(a[0].S), nil // option k keeps the string
	}
	if m == nil || g < 0 || 2*g+1 >= len(m) || m[2*g] < 0 {
		return columnar.StringValue(""), nil
	}
	return columnar.StringValue(a[0].S[m[2*g]:m[2*g+1]]), nil
}
