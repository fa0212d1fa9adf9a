package sql

import (
	"errors"
	"strings"

	"github.com/b2sql/b2sql/sql/parser"
)

// tokKind classifies a token the binder sees. Error positions are token
// indexes (errAtTok) of the token a node's span starts at; tokens and the
// syntax tree both come from sql/parser.
type tokKind uint8

const (
	tkIdent  tokKind = iota // bare word (keywords included)
	tkQIdent                // "quoted" or `quoted` identifier
	tkString                // 'string'
	tkNumber                // 12, 1.5, .5, 1e-3
	tkOp                    // punctuation and operators
)

// token is one lexeme of a statement. off and end are byte offsets into the
// statement text; val is the unquoted value for identifiers and strings and
// the raw text otherwise.
type token struct {
	kind     tokKind
	val      string
	off, end int
}

// is reports whether t is the bare keyword kw (case-insensitive).
func (t token) is(kw string) bool { return t.kind == tkIdent && strings.EqualFold(t.val, kw) }

// isOp reports whether t is the operator op.
func (t token) isOp(op string) bool { return t.kind == tkOp && t.val == op }

// lex splits a statement into tokens with sql/parser's lexer, so that
// the binder's tokens are the parser's.
func lex(src Source) ([]token, error) {
	ptoks, err := parser.Tokens(src.Text)
	if err != nil {
		var pe *parser.Error
		if errors.As(err, &pe) {
			return nil, errAt(src, pe.Offset, ErrSyntax, pe.Msg)
		}
		return nil, errAt(src, 0, ErrSyntax, err.Error())
	}
	return fromParser(ptoks), nil
}

// fromParser converts sql/parser's tokens to the binder's.
func fromParser(ptoks []parser.Token) []token {
	toks := make([]token, len(ptoks))
	for i, t := range ptoks {
		k := tkOp
		switch t.Kind {
		case parser.TokIdent:
			k = tkIdent
		case parser.TokQIdent:
			k = tkQIdent
		case parser.TokString:
			k = tkString
		case parser.TokNumber:
			k = tkNumber
		}
		toks[i] = token{k, t.Val, t.Start, t.End}
	}
	return toks
}

// errAt builds an *Error at byte offset off of src, spanning the token
// that starts there.
func errAt(src Source, off int, kind error, msg string) *Error {
	base := Pos{src.Line, src.Col}
	return &Error{Pos: posIn(src.Text, off, base), End: posIn(src.Text, tokenEnd(src.Text, off), base), Kind: kind, Msg: msg}
}

// tokenEnd returns the offset just past the token starting at off of s
// (off itself at the end of s or at a space); an unterminated quote runs
// to the end of s.
func tokenEnd(s string, off int) int { return parser.TokenEnd(s, off) }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
