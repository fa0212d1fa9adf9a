package executor

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
)

// like_escape(s, pattern, escape) and its not_/ilike_ forms: LIKE with
// the escape character given (DuckDB's LIKE … ESCAPE as a function). The
// pattern is rewritten into compileLike's backslash form: the escape
// character becomes a backslash, a literal backslash is escaped; an empty
// escape means none.

// likeCache keeps compiled (pattern, escape, fold) matchers; patterns from
// a column could be many, so it stops growing at likeCacheMax entries.
var (
	likeCache  sync.Map
	likeCached atomic.Int64
)

const likeCacheMax = 4096

func fnLikeEscape(fold, not bool) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		pat, esc := a[1].S, a[2].S
		if utf8.RuneCountInString(esc) > 1 {
			return columnar.Value{}, fmt.Errorf("like_escape: the escape must be empty or one character, got %q", esc)
		}
		if e, _ := utf8.DecodeLastRuneInString(pat); esc != "" && strings.HasSuffix(pat, esc) && !strings.HasSuffix(pat[:len(pat)-utf8.RuneLen(e)], esc) {
			return columnar.Value{}, fmt.Errorf("like_escape: the pattern %q ends with the escape character", pat)
		}
		key := fmt.Sprintf("%t\x00%s\x00%s", fold, esc, pat)
		var m *likeMatcher
		if c, ok := likeCache.Load(key); ok {
			m = c.(*likeMatcher)
		} else {
			m = compileLike([]byte(escapedLike(pat, esc)), fold)
			if likeCached.Load() < likeCacheMax {
				likeCache.Store(key, m)
				likeCached.Add(1)
			}
		}
		return columnar.BoolValue(m.match([]byte(a[0].S)) != not), nil
	}
}

// escapedLike rewrites pattern with escape character esc into the
// backslash-escaped form.
func escapedLike(pat, esc string) string {
	e, _ := utf8.DecodeRuneInString(esc)
	var b strings.Builder
	rs := []rune(pat)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case esc != "" && r == e && i+1 < len(rs):
			i++
			b.WriteByte('\\')
			b.WriteRune(rs[i])
		case r == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
