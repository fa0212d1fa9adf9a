package executor

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
)

// moreFuncs are the functions computed row by row (see planner/functions.go
// for their signatures). Non-strict ones see NULL arguments themselves.
var moreFuncs = map[string]struct {
	f      rowFunc
	strict bool
}{
	"add_months": {fnAddMonths, true},
}

// defRow registers a row-by-row function; strict ones are NULL when any
// argument is.
func defRow(name string, f rowFunc, strict bool) {
	moreFuncs[name] = struct {
		f      rowFunc
		strict bool
	}{f, strict}
}

func newMoreCall(fn string, args []Expr, ret columnar.Type) (Expr, bool) {
	m, ok := moreFuncs[fn]
	if !ok {
		return nil, false
	}
	ts := make([]columnar.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	return &callExpr{name: fn, args: args, t: ret, k: rowKernel(guardInfinity(fn, m.f, ts), ret, m.strict), strict: m.strict,
		vals: make([]*columnar.Vector, len(args)), out: columnar.Vector{Type: ret}}, true
}

func fnReplace(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.StringValue(strings.ReplaceAll(a[0].S, a[1].S, a[2].S)), nil
}

// fnPad pads or truncates to n characters (DuckDB: a longer string is cut).
func fnPad(left bool) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		s, n, fill := []rune(a[0].S), int(a[1].I), []rune(a[2].S)
		if n < 0 {
			n = 0
		}
		if a[1].I > maxRepeat/utf8.UTFMax {
			// A rune slice of that many characters would be gigabytes.
			return columnar.Value{}, fmt.Errorf("pad: length %d exceeds %d characters", a[1].I, maxRepeat/utf8.UTFMax)
		}
		if len(s) >= n {
			return columnar.StringValue(string(s[:n])), nil
		}
		if len(fill) == 0 {
			return columnar.StringValue(string(s)), nil
		}
		pad := make([]rune, 0, n-len(s))
		for len(pad) < n-len(s) {
			pad = append(pad, fill[len(pad)%len(fill)])
		}
		if left {
			return columnar.StringValue(string(pad) + string(s)), nil
		}
		return columnar.StringValue(string(s) + string(pad)), nil
	}
}

// fnInstr is the 1-based character position of a[1] in a[0], 0 if absent.
func fnInstr(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	i := strings.Index(a[0].S, a[1].S)
	if i < 0 {
		return columnar.IntValue(t, 0), nil
	}
	return columnar.IntValue(t, int64(utf8.RuneCountInString(a[0].S[:i])+1)), nil
}

func fnLeft(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	r, n := []rune(a[0].S), int(a[1].I)
	if n < 0 {
		n = max(len(r)+n, 0)
	}
	return columnar.StringValue(string(r[:min(n, len(r))])), nil
}

func fnRight(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	r, n := []rune(a[0].S), int(a[1].I)
	if n < 0 {
		n = max(len(r)+n, 0)
	}
	n = min(n, len(r))
	return columnar.StringValue(string(r[len(r)-n:])), nil
}

// fnSplitPart returns the n-th (1-based; negative counts from the end)
// field of s split by sep, "" when out of range; an empty sep splits s
// into its characters, as DuckDB (split_part('a,b,c', ”, 3) = 'b').
func fnSplitPart(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	var parts []string
	if a[1].S == "" {
		for _, r := range a[0].S {
			parts = append(parts, string(r))
		}
	} else {
		parts = strings.Split(a[0].S, a[1].S)
	}
	n := int(a[2].I)
	if n < 0 {
		n = len(parts) + n + 1
	}
	if n < 1 || n > len(parts) {
		return columnar.StringValue(""), nil
	}
	return columnar.StringValue(parts[n-1]), nil
}

func fnStartsWith(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.BoolValue(strings.HasPrefix(a[0].S, a[1].S)), nil
}

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

func fnMath1(f func(float64) float64) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		x := a[0].F
		r := f(x)
		if math.IsNaN(r) && !math.IsNaN(x) {
			return columnar.Value{}, fmt.Errorf("cannot take the logarithm or square root of %v", x)
		}
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			return columnar.Value{}, fmt.Errorf("cannot take the logarithm of zero")
		}
		return columnar.FloatValue(t, r), nil
	}
}

func fnMath2(f func(float64, float64) float64) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		return columnar.FloatValue(t, f(a[0].F, a[1].F)), nil
	}
}

func fnSign(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x := a[0].F
	switch {
	case x > 0:
		return columnar.IntValue(t, 1), nil
	case x < 0:
		return columnar.IntValue(t, -1), nil
	}
	return columnar.IntValue(t, 0), nil
}

// fnBest is greatest (dir 1) or least (-1), skipping NULLs.
func fnBest(dir int) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		best := columnar.NullValue(t)
		for _, v := range a {
			if v.Null {
				continue
			}
			if best.Null || columnar.Compare(v, best)*dir > 0 {
				best = v
			}
		}
		best.Type = t
		return best, nil
	}
}

func fnCurrentDate(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, time.Now().UTC().Unix()/86400), nil
}

// micros returns a DATE or TIMESTAMP value as microseconds since the epoch.
func micros(v columnar.Value) int64 {
	if v.Type.ID == columnar.Date {
		return v.I * 86400_000000
	}
	return v.I
}

// fnDateDiff counts the part boundaries between a[1] and a[2] (DuckDB
// date_diff): the difference of the truncated values.
func fnDateDiff(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x, y := micros(a[1]), micros(a[2])
	unit := map[string]int64{"microsecond": 1, "microseconds": 1, "us": 1, "millisecond": 1000, "milliseconds": 1000, "ms": 1000,
		"second": 1e6, "seconds": 1e6, "s": 1e6, "minute": 60e6, "minutes": 60e6, "m": 60e6,
		"hour": 3600e6, "hours": 3600e6, "h": 3600e6, "day": 86400e6, "days": 86400e6, "d": 86400e6}
	part := strings.ToLower(a[0].S)
	if u, ok := unit[part]; ok {
		return columnar.IntValue(t, floorDiv(y, u)-floorDiv(x, u)), nil
	}
	tx, ty := time.UnixMicro(x).UTC(), time.UnixMicro(y).UTC()
	months := func(tm time.Time) int64 { return int64(tm.Year())*12 + int64(tm.Month()) - 1 }
	switch part {
	case "month", "months", "mon":
		return columnar.IntValue(t, months(ty)-months(tx)), nil
	case "quarter", "quarters":
		return columnar.IntValue(t, floorDiv(months(ty), 3)-floorDiv(months(tx), 3)), nil
	case "year", "years", "y", "yr":
		return columnar.IntValue(t, int64(ty.Year()-tx.Year())), nil
	case "week", "weeks", "w":
		// ISO weeks start on Monday; 1970-01-01 was a Thursday.
		wk := func(us int64) int64 { return floorDiv(floorDiv(us, 86400e6)+3, 7) }
		return columnar.IntValue(t, wk(y)-wk(x)), nil
	}
	return columnar.Value{}, fmt.Errorf("date_diff: unknown part %q", a[0].S)
}

func fnToTimestamp(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	s := a[0].F
	if math.IsNaN(s) || math.IsInf(s, 0) || math.Abs(s) > 9.2e12 {
		return columnar.Value{}, fmt.Errorf("to_timestamp: %v is out of range", s)
	}
	return columnar.IntValue(t, int64(math.Round(s*1e6))), nil
}
