package csv

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// normalizeName is a header name as normalize_names makes it (DuckDB's
// rule): accents stripped (é → e), spaces around trimmed and inside turned
// into _, lower case, only ASCII letters, digits and _ kept, and a leading
// digit or a keyword prefixed with _ so that the name needs no quotes. A
// name with nothing left stays as it was.
func normalizeName(name string, keyword func(string) bool) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.TrimSpace(name)) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == ' ':
			b.WriteByte('_')
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		}
	}
	out := b.String()
	switch {
	case out == "":
		return name
	case out[0] >= '0' && out[0] <= '9', keyword != nil && keyword(out):
		return "_" + out
	}
	return out
}
