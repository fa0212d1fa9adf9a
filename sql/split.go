package sql

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/b2sql/b2sql/sql/parser"
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

// Split splits a script into statements at ';' tokens of sql/parser's
// lexer, so that quotes, dollar quotes ($$a;b$$) and nested comments are
// read as the parser reads them. Leading whitespace is trimmed from each
// statement (its position follows the trim); statements holding only
// whitespace and comments are dropped. Where the script stops lexing (an
// unterminated quote or comment), the rest becomes one statement and Parse
// reports the error.
func Split(script string) []Source {
	toks, err := parser.Tokens(script)
	rest := -1 // start of the statement that runs to the end, if any
	if err != nil {
		var pe *parser.Error
		if !errors.As(err, &pe) || pe.Offset <= 0 {
			return []Source{sourceAt(script, 0, len(script))}
		}
		// The text before the failing token lexes as it does in the whole script.
		toks, _ = parser.Tokens(script[:pe.Offset])
		rest = pe.Offset
	}
	var out []Source
	start, seen := 0, false // seen: a token since start
	for _, t := range toks {
		if t.Kind == parser.TokOp && t.Val == ";" {
			if seen {
				out = append(out, sourceAt(script, start, t.Start))
			}
			start, seen = t.End, false
			continue
		}
		seen = true
	}
	if seen || rest >= 0 {
		out = append(out, sourceAt(script, start, len(script)))
	}
	return out
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
