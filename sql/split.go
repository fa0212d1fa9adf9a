package sql

import (
	"strings"
	"unicode/utf8"
)

// Source is one statement of a script: its text (without the terminating
// ';') and where that text starts in the whole script, so that positions are
// reported relative to the script. Line and Col are 1-based; a zero Source
// position is read as 1:1.
type Source struct {
	Text   string
	Offset int // byte offset of Text in the script
	Line   int
	Col    int // in runes
}

// Split splits a script into statements at ';' outside quotes and comments.
// Leading whitespace is trimmed from each statement (its position follows
// the trim); statements holding only whitespace and comments are dropped.
// Unterminated quotes or comments end the script: the rest becomes one
// statement and Parse reports the error.
func Split(script string) []Source {
	var out []Source
	start, seen := 0, false // seen: a token character since start
	emit := func(end int) {
		if seen {
			out = append(out, sourceAt(script, start, end))
		}
		start, seen = end+1, false
	}
	for i := 0; i < len(script); {
		c := script[i]
		switch {
		case c == ';':
			emit(i)
			i++
		case c == '\'' || c == '"' || c == '`':
			seen = true
			i = skipQuoted(script, i)
		case c == '-' && strings.HasPrefix(script[i:], "--"):
			if j := strings.IndexByte(script[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(script)
			}
		case c == '/' && strings.HasPrefix(script[i:], "/*"):
			if j := strings.Index(script[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				seen = true // let Parse report the unterminated comment
				i = len(script)
			}
		default:
			if !isSpace(c) {
				seen = true
			}
			i++
		}
	}
	emit(len(script))
	return out
}

// skipQuoted returns the offset just past the quoted text starting at i; a
// doubled quote character inside is an escaped quote.
func skipQuoted(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(s)
}

// sourceAt builds the Source for script[start:end], trimming leading space.
func sourceAt(script string, start, end int) Source {
	for start < end && isSpace(script[start]) {
		start++
	}
	p := posIn(script, start, Pos{1, 1})
	return Source{Text: script[start:end], Offset: start, Line: p.Line, Col: p.Col}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// posIn returns the position of byte offset off in text, text itself
// starting at base.
func posIn(text string, off int, base Pos) Pos {
	if off > len(text) {
		off = len(text)
	}
	if off < 0 {
		off = 0
	}
	p := base
	if p.Line <= 0 {
		p.Line = 1
	}
	if p.Col == 0 {
		p.Col = 1 // a zero Source; a negative Col is a prefix the parser added (fromFirst)
	}
	prefix := text[:off]
	if nl := strings.LastIndexByte(prefix, '\n'); nl >= 0 {
		p.Line += strings.Count(prefix, "\n")
		p.Col = 1 + utf8.RuneCountInString(prefix[nl+1:])
		return p
	}
	p.Col += utf8.RuneCountInString(prefix)
	return p
}
