package parser

import "strings"

// Open is what a piece of SQL text leaves open at its end: a quoted
// string or identifier, a dollar quote or a comment still waiting for its
// end.
type Open uint8

const (
	OpenNone         Open = iota
	OpenString            // '…, E'…, X'…
	OpenIdent             // "… or `…
	OpenDollar            // $$… or $tag$…
	OpenBlockComment      // /* … (nested comments count their depth)
	OpenLineComment       // -- … up to the end of the text
)

// Scanned is where the lexer stands at the end of a text, for a REPL
// deciding whether its input holds whole statements.
type Scanned struct {
	Open Open
	// Body is the offset of the open construct's content (just after its
	// opening quote or tag), when Open is not OpenNone.
	Body int
	// Tokens counts the text's tokens (before an open construct); Last
	// is the last of them.
	Tokens int
	Last   Token
	// Bad is set when a token does not lex for another reason than an
	// open quote or comment (a stray character, ""): sql.Split then
	// makes the rest of the text one statement, whose Parse reports it.
	Bad bool
}

// Scan lexes text as the parser does and reports what is open at its end.
// It agrees with the parser (and sql.Split) on quotes, dollar quotes,
// E'…' escapes and nested comments because it is the parser's lexer.
func Scan(text string) Scanned {
	toks, err := lex(text)
	var s Scanned
	end := len(text)
	if err != nil {
		e, ok := err.(*Error)
		if !ok {
			return Scanned{Bad: true}
		}
		end = e.Offset // toks holds the tokens before it
		if strings.HasPrefix(e.Msg, "unterminated ") {
			s.Open, s.Body = openAt(text, end)
		} else {
			s.Bad = true
		}
	}
	out := exportTokens(toks)
	if s.Tokens = len(out); s.Tokens > 0 {
		s.Last = out[len(out)-1]
	}
	if s.Open == OpenNone && !s.Bad {
		from := 0
		if s.Tokens > 0 {
			from = s.Last.End
		}
		if trailingLineComment(text[from:]) {
			s.Open = OpenLineComment
		}
	}
	return s
}

// openAt classifies the unterminated construct starting at off and
// returns where its content starts.
func openAt(text string, off int) (Open, int) {
	switch c := text[off]; {
	case c == '/':
		return OpenBlockComment, off + 2
	case c == '"' || c == '`':
		return OpenIdent, off + 1
	case c == '$':
		return OpenDollar, off + strings.IndexByte(text[off+1:], '$') + 2
	case c == '\'':
		return OpenString, off + 1
	}
	return OpenString, off + 2 // E'…, X'…
}

// trailingLineComment reports whether gap, white space and whole comments
// after the last token, ends inside a -- comment.
func trailingLineComment(gap string) bool {
	for i := 0; i < len(gap); {
		switch {
		case strings.HasPrefix(gap[i:], "--"):
			j := strings.IndexByte(gap[i:], '\n')
			if j < 0 {
				return true
			}
			i += j + 1
		case strings.HasPrefix(gap[i:], "/*"):
			i, _ = commentEnd(gap, i)
		default:
			i++
		}
	}
	return false
}
