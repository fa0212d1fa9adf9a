package json

import (
	"bytes"
	"fmt"
	"io"
)

// splitter cuts the values out of a buffer: one per line
// (newline_delimited), the elements of a top-level array (array), or
// whitespace-separated values (unstructured). base is the buffer's offset
// in the file, for error positions.
type splitter struct {
	buf    []byte
	pos    int
	format string
	eof    bool // buf ends the input
	base   int64
	// inArray: after the array's '['; done: after its ']'.
	inArray, done bool
}

// next returns the next value and its offset in the file; io.EOF after
// the last; errIncomplete when buf ends inside a value (and !eof).
func (s *splitter) next() ([]byte, int64, error) {
	b := s.buf
	for {
		p := skipSpace(b, s.pos)
		if p >= len(b) {
			s.pos = p
			if s.format == "array" && !s.done && s.eof {
				return nil, 0, fmt.Errorf("%w: the array is not closed at the end of the input", ErrMalformed)
			}
			if !s.eof {
				return nil, 0, errIncomplete
			}
			return nil, 0, io.EOF
		}
		if s.format == "array" {
			switch {
			case s.done:
				return nil, s.base + int64(p), fmt.Errorf("%w: data after the end of the array", ErrMalformed)
			case !s.inArray:
				if b[p] != '[' {
					return nil, s.base + int64(p), fmt.Errorf("%w: expected '[' at the start of an array", ErrMalformed)
				}
				s.inArray, s.pos = true, p+1
				continue
			case b[p] == ',':
				s.pos = p + 1
				continue
			case b[p] == ']':
				s.done, s.pos = true, p+1
				continue
			}
		}
		if s.format == "newline_delimited" {
			end := bytes.IndexByte(b[p:], '\n')
			if end < 0 {
				if !s.eof {
					return nil, 0, errIncomplete
				}
				end = len(b)
			} else {
				end += p
			}
			s.pos = end + 1
			v := bytes.TrimRight(b[p:end], " \t\r")
			return v, s.base + int64(p), nil
		}
		end, err := valueEnd(b, p)
		if err == errIncomplete && s.eof && end == len(b) && end > p {
			err = nil // a scalar ending the input
		}
		if err != nil {
			if err == errIncomplete && s.eof {
				return nil, s.base + int64(p), fmt.Errorf("%w: the last value is not complete", ErrMalformed)
			}
			if err == errSyntax {
				return nil, s.base + int64(p), fmt.Errorf("%w: unexpected %q", ErrMalformed, b[p])
			}
			return nil, 0, err
		}
		s.pos = end
		return b[p:end], s.base + int64(p), nil
	}
}
