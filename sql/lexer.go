package sql

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies a token of the binder's lexer. The binder numbers a
// statement's ? markers and positions some errors by the statement's
// tokens (locate.go); the syntax tree comes from sql/parser.
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

// multi-character operators, longest first so that "<=>" wins over "<=".
var ops = []string{"<=>", "->>", "::", "||", "//", "<=", ">=", "<>", "!=", "==", "<<", ">>", "->", ":="}

// lex splits a statement into tokens, skipping whitespace and comments.
func lex(src Source) ([]token, error) {
	s := src.Text
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isSpace(c):
			i++
		case strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return toks, nil
			}
			i += j + 1
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return nil, errAt(src, i, ErrSyntax, "unterminated comment")
			}
			i += j + 4
		case c == '\'' || c == '"' || c == '`':
			if !closedAt(s, i) {
				what := "string"
				if c != '\'' {
					what = "quoted identifier"
				}
				return nil, errAt(src, i, ErrSyntax, "unterminated "+what)
			}
			end := skipQuoted(s, i)
			kind := tkString
			if c != '\'' {
				kind = tkQIdent
			}
			q := string(c)
			val := strings.ReplaceAll(s[i+1:end-1], q+q, q)
			toks = append(toks, token{kind, val, i, end})
			i = end
		case isDigit(c) || (c == '.' && i+1 < len(s) && isDigit(s[i+1])):
			j := scanNumber(s, i)
			if j < len(s) && isIdentStart(s[j:]) {
				return nil, errAt(src, i, ErrSyntax, fmt.Sprintf("syntax error at or near %q", s[i:identEnd(s, j)]))
			}
			toks = append(toks, token{tkNumber, s[i:j], i, j})
			i = j
		case isIdentStart(s[i:]):
			j := identEnd(s, i)
			toks = append(toks, token{tkIdent, s[i:j], i, j})
			i = j
		default:
			n := 1
			for _, op := range ops {
				if strings.HasPrefix(s[i:], op) {
					n = len(op)
					break
				}
			}
			if n == 1 && !strings.ContainsRune("()[],.;+-*/%<>=!|&^~:?@$#{}", rune(c)) {
				r, _ := utf8.DecodeRuneInString(s[i:])
				return nil, errAt(src, i, ErrSyntax, fmt.Sprintf("unexpected character %q", r))
			}
			toks = append(toks, token{tkOp, s[i : i+n], i, i + n})
			i += n
		}
	}
	return toks, nil
}

// closedAt reports whether the quote opened at i is closed.
func closedAt(s string, i int) bool {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return true
		}
	}
	return false
}

func scanNumber(s string, i int) int {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			j = k
		}
	}
	return j
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isIdentStart(s string) bool {
	c := s[0]
	if c < utf8.RuneSelf {
		return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r)
}

func identEnd(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == '_' || c == '$' || isDigit(c) || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') {
				i++
				continue
			}
			return i
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return i
		}
		i += n
	}
	return i
}

// errAt builds an *Error at byte offset off of src, spanning the token
// that starts there.
func errAt(src Source, off int, kind error, msg string) *Error {
	base := Pos{src.Line, src.Col}
	return &Error{Pos: posIn(src.Text, off, base), End: posIn(src.Text, tokenEnd(src.Text, off), base), Kind: kind, Msg: msg}
}

// tokenEnd returns the offset just past the token starting at off of s
// (off itself at the end of s or at a space): a name, a number, a quoted
// string or identifier (to the end of s when unterminated), or an
// operator.
func tokenEnd(s string, off int) int {
	if off < 0 || off >= len(s) || isSpace(s[off]) {
		return max(0, min(off, len(s)))
	}
	switch c := s[off]; {
	case c == '\'' || c == '"' || c == '`':
		if !closedAt(s, off) {
			return len(s)
		}
		return skipQuoted(s, off)
	case isDigit(c) || c == '.' && off+1 < len(s) && isDigit(s[off+1]):
		return scanNumber(s, off)
	case isIdentStart(s[off:]):
		return identEnd(s, off)
	}
	for _, op := range ops {
		if strings.HasPrefix(s[off:], op) {
			return off + len(op)
		}
	}
	_, n := utf8.DecodeRuneInString(s[off:])
	return off + n
}
