package repl

import (
	"strings"

	"github.com/b2sql/b2sql/sql/parser"
)

// The REPL decides where its input holds whole statements with the
// parser's own lexer (parser.Scan), so that it agrees with sql.Split on
// every quote and comment: a ';' inside '…', E'…\'…', "…", $$…$$,
// $tag$…$tag$ or a nested /* /* */ */ comment ends nothing.

// Complete reports whether text ends with a ';' outside quotes and
// comments, i.e. holds at least one whole statement and nothing after it
// but white space and comments. Text with a token that does not lex (a
// stray character) is complete when it ends with ';', so that running it
// shows the error.
func Complete(text string) bool {
	complete, _ := scanEnd(text)
	return complete
}

// scanEnd is Complete, also reporting whether text ends inside a quote or
// a block comment (where a following line without ';' can still complete
// it, by closing a comment after a ';').
func scanEnd(text string) (complete, inside bool) {
	s := parser.Scan(text)
	if s.Bad {
		return strings.HasSuffix(strings.TrimRight(text, " \t\r\n"), ";"), false
	}
	ended := s.Open == parser.OpenNone || s.Open == parser.OpenLineComment
	return ended && s.Tokens > 0 && isSemicolon(s.Last), !ended
}

// blank reports whether text holds nothing but white space and comments,
// so an Enter on it should not start a continuation.
func blank(text string) bool {
	s := parser.Scan(text)
	return !s.Bad && s.Tokens == 0 && (s.Open == parser.OpenNone || s.Open == parser.OpenLineComment)
}

func isSemicolon(t parser.Token) bool { return t.Kind == parser.TokOp && t.Val == ";" }

// flatten turns a multi-line statement into one line for the history
// (go-prompt edits a single line): the tokens as written, with one space
// wherever white space or comments stood between them (a line comment
// would otherwise comment out the rest of the joined line). Line breaks
// inside a string stay. Text that does not lex has its line breaks
// replaced.
func flatten(text string) string {
	toks, err := parser.Tokens(text)
	if err != nil {
		return strings.Join(strings.Fields(text), " ")
	}
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && t.Start > toks[i-1].End {
			b.WriteByte(' ')
		}
		b.WriteString(text[t.Start:t.End])
	}
	return b.String()
}
