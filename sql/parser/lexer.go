package parser

import (
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies a token.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // bare word, keywords included
	tQIdent         // "quoted" (or `quoted`) identifier
	tString         // 'string', E'escaped', $$dollar$$
	tBlob           // X'hex': val holds the bytes
	tNumber         // 12, 1.5, .5, 1e-3, 0x1F, 1_000
	tParam          // ?, ?1, $1, $name
	tPosRef         // #1
	tOp             // operators and punctuation
)

// token is one lexeme. start and end are byte offsets into the script;
// val is the unquoted value of identifiers and strings, the text
// otherwise. cat is the keyword category of a bare word.
type token struct {
	kind       tokKind
	cat        kwCat
	val        string
	start, end int
}

// opChars are the characters of PostgreSQL-style operators.
const opChars = "+-*/<>=~!@#%^&|"

// lex splits the whole script into tokens, comments and spaces skipped,
// ending with a tEOF token at len(src). On error it also returns the
// tokens before the one that failed, ending with a tEOF at the error's
// offset: they lex as they would in the text up to the error, so Split and
// Scan need no second pass.
func lex(src string) ([]token, error) {
	toks := make([]token, 0, len(src)/4+1)
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				i = len(src)
			} else {
				i += j + 1
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j, ok := commentEnd(src, i)
			if !ok {
				return lexFail(toks, src, i, "unterminated comment")
			}
			i = j
		case c == '\'':
			end, val, ok := quoted(src, i, '\'')
			if !ok {
				return lexFail(toks, src, i, "unterminated quoted string")
			}
			toks = append(toks, token{kind: tString, val: val, start: i, end: end})
			i = end
		case (c == 'E' || c == 'e') && i+1 < len(src) && src[i+1] == '\'':
			end, val, ok := escaped(src, i+1)
			if !ok {
				return lexFail(toks, src, i, "unterminated quoted string")
			}
			toks = append(toks, token{kind: tString, val: val, start: i, end: end})
			i = end
		case (c == 'X' || c == 'x') && i+1 < len(src) && src[i+1] == '\'':
			end, val, ok := quoted(src, i+1, '\'')
			if !ok {
				return lexFail(toks, src, i, "unterminated quoted string")
			}
			b, err := hex.DecodeString(val)
			if err != nil {
				return lexFail(toks, src, i, "invalid hexadecimal string literal "+quote(src[i:end]))
			}
			toks = append(toks, token{kind: tBlob, val: string(b), start: i, end: end})
			i = end
		case c == '"' || c == '`':
			end, val, ok := quoted(src, i, c)
			if !ok {
				return lexFail(toks, src, i, "unterminated quoted identifier")
			}
			if end == i+2 {
				return lexFail(toks, src, i, "zero-length delimited identifier at or near "+quote(src[i:end]))
			}
			toks = append(toks, token{kind: tQIdent, val: val, start: i, end: end})
			i = end
		case c == '$':
			j := i + 1
			if j < len(src) && isIdentStart(src, j) {
				j = identEnd(src, j)
				if k := strings.IndexByte(src[i+1:j], '$'); k >= 0 {
					j = i + 1 + k // identEnd takes $ as part of a name
				}
			} else {
				for j < len(src) && isDigit(src[j]) {
					j++
				}
			}
			if j < len(src) && src[j] == '$' && (j == i+1 || !isDigit(src[i+1])) {
				tag := src[i : j+1]
				k := strings.Index(src[j+1:], tag)
				if k < 0 {
					return lexFail(toks, src, i, "unterminated dollar-quoted string")
				}
				end := j + 1 + k + len(tag)
				toks = append(toks, token{kind: tString, val: src[j+1 : j+1+k], start: i, end: end})
				i = end
				continue
			}
			if j == i+1 {
				return lexFail(toks, src, i, `syntax error at or near "$"`)
			}
			toks = append(toks, token{kind: tParam, val: src[i:j], start: i, end: j})
			i = j
		case c == '?':
			j := i + 1
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			toks = append(toks, token{kind: tParam, val: src[i:j], start: i, end: j})
			i = j
		case c == '#' && i+1 < len(src) && isDigit(src[i+1]):
			j := i + 1
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			toks = append(toks, token{kind: tPosRef, val: src[i:j], start: i, end: j})
			i = j
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			j := scanNumber(src, i)
			toks = append(toks, token{kind: tNumber, val: src[i:j], start: i, end: j})
			i = j
		case isIdentStart(src, i):
			j := identEnd(src, i)
			w := src[i:j]
			toks = append(toks, token{kind: tIdent, cat: category(w), val: w, start: i, end: j})
			i = j
		case strings.IndexByte(opChars, c) >= 0:
			j := i
			for j < len(src) && strings.IndexByte(opChars, src[j]) >= 0 {
				if j > i && (strings.HasPrefix(src[j:], "--") || strings.HasPrefix(src[j:], "/*")) {
					break
				}
				if j > i && src[j] == '#' && j+1 < len(src) && isDigit(src[j+1]) {
					break // #1+#2: a positional reference follows the operator
				}
				j++
			}
			// As PostgreSQL: a multi-character operator ends in + or - only
			// if it holds one of ~ ! @ # % ^ & | (so that a*-1 is a * -1).
			if j-i > 1 && !strings.ContainsAny(src[i:j], "~!@#%^&|") {
				for j-i > 1 && (src[j-1] == '+' || src[j-1] == '-') {
					j--
				}
			}
			toks = append(toks, token{kind: tOp, val: src[i:j], start: i, end: j})
			i = j
		case c == ':':
			n := 1
			if i+1 < len(src) && (src[i+1] == ':' || src[i+1] == '=') {
				n = 2
			}
			toks = append(toks, token{kind: tOp, val: src[i : i+n], start: i, end: i + n})
			i += n
		case strings.IndexByte("()[]{},;.", c) >= 0:
			toks = append(toks, token{kind: tOp, val: src[i : i+1], start: i, end: i + 1})
			i++
		default:
			r, n := utf8.DecodeRuneInString(src[i:])
			if unicode.IsSpace(r) || r == '\u200b' || r == '\ufeff' || r == '\u2060' || r == '\u180e' {
				i += n // Unicode spaces, zero-width ones included, separate tokens (as in DuckDB)
				continue
			}
			return lexFail(toks, src, i, "syntax error at or near "+quote(string(r)))
		}
	}
	toks = append(toks, token{kind: tEOF, start: len(src), end: len(src)})
	return toks, nil
}

// lexFail ends toks with a tEOF at off and returns them with the error
// there.
func lexFail(toks []token, src string, off int, msg string) ([]token, error) {
	return append(toks, token{kind: tEOF, start: off, end: off}), errorAt(src, off, msg)
}

// quoted reads the text quoted by q starting at i; a doubled q is one q.
func quoted(src string, i int, q byte) (end int, val string, ok bool) {
	var b strings.Builder
	from := i + 1
	for j := i + 1; j < len(src); j++ {
		if src[j] != q {
			continue
		}
		if j+1 < len(src) && src[j+1] == q {
			b.WriteString(src[from : j+1])
			j++
			from = j + 1
			continue
		}
		if b.Len() == 0 {
			return j + 1, src[from:j], true
		}
		b.WriteString(src[from:j])
		return j + 1, b.String(), true
	}
	return 0, "", false
}

// escaped reads an E'…' string whose quote is at i: backslash escapes
// (\n, \t, \r, \b, \f, \\, \', \xHH, octal) and doubled quotes.
func escaped(src string, i int) (end int, val string, ok bool) {
	var b strings.Builder
	for j := i + 1; j < len(src); j++ {
		c := src[j]
		switch {
		case c == '\'' && j+1 < len(src) && src[j+1] == '\'':
			b.WriteByte('\'')
			j++
		case c == '\'':
			return j + 1, b.String(), true
		case c == '\\' && j+1 < len(src):
			j++
			switch e := src[j]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'x':
				v, k := 0, 0
				for ; k < 2 && j+1 < len(src) && isHex(src[j+1]); k++ {
					j++
					v = v*16 + hexVal(src[j])
				}
				if k == 0 {
					b.WriteByte('x')
				} else {
					b.WriteByte(byte(v))
				}
			case '0', '1', '2', '3', '4', '5', '6', '7':
				v := int(e - '0')
				for k := 0; k < 2 && j+1 < len(src) && src[j+1] >= '0' && src[j+1] <= '7'; k++ {
					j++
					v = v*8 + int(src[j]-'0')
				}
				b.WriteByte(byte(v))
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return 0, "", false
}

func isHex(c byte) bool { return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') }

func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// scanNumber returns the end of the number at i: digits with single _
// separators, a fraction, an exponent. As in DuckDB, 0x1F is 0 followed by
// the name x1F (an alias), and 1__2 is 1 followed by __2.
func scanNumber(s string, i int) int {
	j := digits(s, i)
	if j < len(s) && s[j] == '.' && !(j+1 < len(s) && s[j+1] == '.') {
		j = digits(s, j+1)
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			j = digits(s, k)
		}
	}
	return j
}

func digits(s string, j int) int {
	for j < len(s) && (isDigit(s[j]) || (s[j] == '_' && j+1 < len(s) && isDigit(s[j+1]))) {
		j++
	}
	return j
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isIdentByte(c byte) bool {
	return c == '_' || isDigit(c) || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func isIdentStart(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.Is(unicode.So, r)
}

func identEnd(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if isIdentByte(c) || c == '$' {
				i++
				continue
			}
			return i
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.So, r) && !unicode.Is(unicode.Mn, r) {
			return i
		}
		i += n
	}
	return i
}

// commentEnd returns the offset just past the block comment starting at
// i of src; comments nest, as in PostgreSQL. ok is false for a comment
// that does not end.
func commentEnd(src string, i int) (end int, ok bool) {
	j, depth := i+2, 1
	for depth > 0 {
		if j+1 >= len(src) {
			return len(src), false
		}
		switch {
		case src[j] == '*' && src[j+1] == '/':
			depth--
			j += 2
		case src[j] == '/' && src[j+1] == '*':
			depth++
			j += 2
		default:
			j++
		}
	}
	return j, true
}
