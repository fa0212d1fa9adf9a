package parser

// Token is one lexeme of a statement as the parser's lexer reads it, for
// the binder, which positions some errors by a statement's tokens: one
// lexer decides what a token is, so the binder never refuses what the
// parser took (digit separators, dollar quotes, Unicode spaces).
type Token struct {
	Kind       TokenKind
	Val        string // unquoted value of identifiers and strings, the text otherwise
	Start, End int    // byte offsets into the text
}

// TokenKind classifies a Token.
type TokenKind uint8

const (
	TokIdent  TokenKind = iota // bare word, keywords included
	TokQIdent                  // "quoted" identifier
	TokString                  // 'string', E'…', $$…$$, X'…' (Val holds the bytes)
	TokNumber                  // 12, 1.5, 1_000, 0x1F
	TokOp                      // operators, punctuation, ? $1 $name #1
)

// Tokens splits text into its tokens, comments and spaces skipped; the
// error is the parser's for a text it cannot lex.
func Tokens(text string) ([]Token, error) {
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	return exportTokens(toks), nil
}

// exportTokens converts the lexer's tokens, without the final tEOF.
func exportTokens(toks []token) []Token {
	out := make([]Token, 0, len(toks)-1)
	for _, t := range toks[:len(toks)-1] { // without tEOF
		k := TokOp
		switch t.kind {
		case tIdent:
			k = TokIdent
		case tQIdent:
			k = TokQIdent
		case tString, tBlob:
			k = TokString
		case tNumber:
			k = TokNumber
		}
		out = append(out, Token{Kind: k, Val: t.val, Start: t.start, End: t.end})
	}
	return out
}

// TokenEnd returns the offset just past the token starting at off of text
// (off itself at the end of text or where no token starts), for an error's
// span; an unterminated quote runs to the end of text.
func TokenEnd(text string, off int) int {
	if off < 0 || off >= len(text) {
		return max(0, min(off, len(text)))
	}
	toks, err := lex(text[off:])
	if err != nil {
		if e, ok := err.(*Error); ok && e.Offset == 0 {
			return len(text) // unterminated quote or comment starting at off
		}
		// a later token does not lex: toks holds those before it
	}
	if len(toks) == 0 || toks[0].kind == tEOF || toks[0].start != 0 {
		return off
	}
	return off + toks[0].end
}
