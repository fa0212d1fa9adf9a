package sql

import (
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
	// piece holds Text's tokens when Split made the Source: Parse then
	// parses from them instead of lexing Text again.
	piece *parser.Piece
}

// Split splits a script into statements at ';' tokens of sql/parser's
// lexer (parser.Split), so that quotes, dollar quotes ($$a;b$$) and nested
// comments are read as the parser reads them. The script is lexed once:
// Parse takes each statement's tokens from its Source. Leading whitespace
// is trimmed from each statement (its position follows the trim);
// statements holding only whitespace and comments are dropped. Where the
// script stops lexing (an unterminated quote or comment), the rest becomes
// one statement and Parse reports the error.
func Split(script string) []Source {
	pieces := parser.Split(script)
	out := make([]Source, len(pieces))
	at, pos := 0, Pos{1, 1} // positions are counted forward, once over the script
	for i := range pieces {
		p := &pieces[i]
		pos = posIn(script[at:], p.Start-at, pos)
		at = p.Start
		out[i] = Source{Text: p.Text, Offset: p.Start, Line: pos.Line, Col: pos.Col, piece: p}
	}
	return out
}

// lexed returns src's tokens: those Split lexed, or Text lexed now.
func (src Source) lexed() *parser.Piece {
	if src.piece != nil && src.piece.Text == src.Text {
		return src.piece
	}
	return parser.Lex(src.Text)
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
