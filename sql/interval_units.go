package sql

import (
	"fmt"
	"strings"
)

// hasCalendarUnit reports whether interval text counts months, quarters
// or years, whose length in days depends on the date they start from.
func hasCalendarUnit(text string) bool {
	for _, f := range strings.Fields(strings.ToLower(text)) {
		f = strings.TrimLeft(f, "0123456789.+-")
		if strings.HasPrefix(f, "mon") || strings.HasPrefix(f, "quarter") || strings.HasPrefix(f, "y") {
			return true
		}
	}
	return false
}

// syntaxNear renders "syntax error at or near "x"" for token t, or "at end
// of input" past the last token.
func syntaxNear(src Source, t token) string {
	if t.off >= len(src.Text) || t.end <= t.off {
		return "syntax error at end of input"
	}
	return fmt.Sprintf("syntax error at or near %q", src.Text[t.off:t.end])
}
