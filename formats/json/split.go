package json

import "errors"

// errIncomplete says a buffer ends inside a value (more input is needed).
var errIncomplete = errors.New("incomplete JSON value")

// errSyntax says the bytes are no JSON value.
var errSyntax = errors.New("invalid JSON")

// skipSpace returns the offset of the first non-whitespace byte at or
// after pos.
func skipSpace(b []byte, pos int) int {
	for pos < len(b) {
		switch b[pos] {
		case ' ', '\t', '\n', '\r':
			pos++
		default:
			return pos
		}
	}
	return pos
}

// valueEnd returns the offset just after the JSON value starting at
// b[pos] (not whitespace). It checks only nesting and strings (the parser
// checks the rest), so that values can be cut out of a stream before
// parsing. errIncomplete when b ends first.
func valueEnd(b []byte, pos int) (int, error) {
	depth := 0
	for i := pos; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			i++
			for i < len(b) && b[i] != '"' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(b) {
				return 0, errIncomplete
			}
			if depth == 0 {
				return i + 1, nil
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return 0, errSyntax
			}
			if depth == 0 {
				return i + 1, nil
			}
		case ' ', '\t', '\n', '\r', ',', ':':
			if depth == 0 {
				if c == ',' || c == ':' {
					return 0, errSyntax
				}
				return i, nil // end of a scalar
			}
		default:
			if depth == 0 {
				// A scalar: up to a delimiter.
				j := i
				for j < len(b) {
					switch b[j] {
					case ' ', '\t', '\n', '\r', ',', ']', '}', '[', '{', '"':
						return j, nil
					}
					j++
				}
				return len(b), errIncomplete
			}
		}
	}
	return 0, errIncomplete
}
