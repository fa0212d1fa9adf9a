package parser

import "github.com/b2sql/b2sql/sql/ast"

// Piece is one statement of a script as Split found it, with its tokens
// from the one lexer pass over the script: a script is lexed once, however
// many statements it holds, and each piece parses from its own tokens.
type Piece struct {
	// Text is the statement, without its ';' and leading white space;
	// Start is where it begins in the script.
	Text  string
	Start int
	toks  []token // offsets into Text, ending with tEOF
	err   *Error  // the lexer's error in Text (the script's last piece)
}

// Split lexes script once and cuts it into statements at ';' tokens, so
// that quotes, dollar quotes ($$a;b$$) and nested comments are read as the
// parser reads them. Statements holding only white space and comments are
// dropped. Where the script stops lexing (an unterminated quote or
// comment, a stray character), the rest is one piece whose Parse reports
// the lexer's error.
func Split(script string) []Piece {
	toks, err := lex(script)
	lexErr, _ := err.(*Error)
	var out []Piece
	lo, start := 0, 0 // first token and byte offset of the current statement
	last := len(toks) - 1
	for i, t := range toks[:last] {
		if t.kind != tOp || t.val != ";" {
			continue
		}
		if i > lo {
			out = append(out, piece(script, start, t.start, toks[lo:i+1]))
		}
		lo, start = i+1, t.end
	}
	if last > lo || lexErr != nil {
		p := piece(script, start, len(script), toks[lo:])
		if lexErr != nil {
			p.err = errorAt(p.Text, lexErr.Offset-p.Start, lexErr.Msg)
		}
		out = append(out, p)
	}
	return out
}

// piece makes the Piece of script[start:end] from its tokens, whose last
// (the ';' or the tEOF) becomes its tEOF. The tokens are rebased in place:
// each belongs to one piece.
func piece(script string, start, end int, toks []token) Piece {
	for start < end && isSpaceByte(script[start]) {
		start++
	}
	n := len(toks) - 1
	for i := range toks[:n] {
		toks[i].start -= start
		toks[i].end -= start
	}
	toks[n] = token{kind: tEOF, start: end - start, end: end - start}
	return Piece{Text: script[start:end], Start: start, toks: toks}
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// Lex lexes text as one piece, for a statement that did not come from
// Split (its Parse fails on a text of several statements).
func Lex(text string) *Piece {
	toks, err := lex(text)
	p := &Piece{Text: text, toks: toks}
	if err != nil {
		p.err = err.(*Error)
	}
	return p
}

// Err is the lexer's error in the piece's text, if any.
func (p *Piece) Err() error {
	if p.err == nil {
		return nil // not a typed nil
	}
	return p.err
}

// Tokens returns the piece's tokens, as Tokens(p.Text) gives them (those
// before the lexer's error, if any).
func (p *Piece) Tokens() []Token { return exportTokens(p.toks) }

// Parse parses the piece's one statement from its tokens, as Parse(p.Text)
// does.
func (p *Piece) Parse() (ast.Stmt, error) {
	if p.err != nil {
		return nil, p.err
	}
	return parseOne(p.Text, p.toks)
}
