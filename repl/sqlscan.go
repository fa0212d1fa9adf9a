package repl

// scanState is where a lexer stands at the end of a piece of SQL text:
// inside a quoted string or identifier, inside a comment, and the last
// character that was neither white space nor part of a comment.
type scanState struct {
	quote       byte // '\'', '"', '`' or 0
	quoteStart  int  // byte offset just after the opening quote
	lineComment bool
	block       bool
	last        byte
}

// scan lexes text just enough to know where quotes and comments are. It
// must agree with sql.Split on what ends a statement, so it follows the
// same rules: ” inside a string is two quotes that close and reopen.
func scan(text string) scanState {
	var s scanState
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case s.lineComment:
			if c == '\n' {
				s.lineComment = false
			}
			continue
		case s.block:
			if c == '*' && i+1 < len(text) && text[i+1] == '/' {
				s.block = false
				i++
			}
			continue
		case s.quote != 0:
			if c == s.quote {
				s.quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			s.quote, s.quoteStart = c, i+1
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			s.lineComment = true
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			s.block = true
			i++
			continue
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			s.last = c
		}
	}
	return s
}

// Complete reports whether text ends with a ';' outside quotes and
// comments, i.e. holds at least one whole statement and nothing after it
// but white space and comments.
func Complete(text string) bool {
	s := scan(text)
	return s.quote == 0 && !s.block && s.last == ';'
}

// blank reports whether text holds nothing but white space and comments,
// so an Enter on it should not start a continuation.
func blank(text string) bool {
	s := scan(text)
	return s.quote == 0 && !s.block && s.last == 0
}

// flatten turns a multi-line statement into one line for the history
// (go-prompt edits a single line): line comments are dropped, since
// joining lines would otherwise comment out the rest, and line breaks
// outside quotes become spaces.
func flatten(text string) string {
	out := make([]byte, 0, len(text))
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			c = ' '
		case c == '\n' || c == '\r' || c == '\t':
			c = ' '
		}
		if c == ' ' && (len(out) == 0 || out[len(out)-1] == ' ') {
			continue
		}
		out = append(out, c)
	}
	for len(out) > 0 && out[len(out)-1] == ' ' {
		out = out[:len(out)-1]
	}
	return string(out)
}
