package csv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
)

// lexer splits whole records into fields. A field is a span: offsets into
// the input, or, for a quoted field with escapes, into the lexer's arena
// of unescaped text (which lives until reset). Spans hold no pointers, so
// filling them costs no GC write barriers.
type lexer struct {
	d     Dialect
	stop  [256]bool // bytes that end an unquoted field
	nl    byte
	arena []byte
	// delims is the delimiter in every byte of a word (fieldEnd).
	delims uint64
}

const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// fieldEnd returns the offset of the first delimiter, '\n' or '\r' at or
// after pos (len(buf) if none): eight bytes at a time, with the classic
// "has a zero byte" test on the word xor each stop byte (its lowest set
// bit is exact; higher ones may be false and are not used).
func (lx *lexer) fieldEnd(buf []byte, pos int) int {
	n := len(buf)
	for pos+8 <= n {
		x := binary.LittleEndian.Uint64(buf[pos:])
		a := x ^ lx.delims
		b := x ^ (lows * '\n')
		c := x ^ (lows * '\r')
		m := (a - lows) &^ a
		m |= (b - lows) &^ b
		m |= (c - lows) &^ c
		if m &= highs; m != 0 {
			return pos + bits.TrailingZeros64(m)/8
		}
		pos += 8
	}
	for pos < n && !lx.stop[buf[pos]] {
		pos++
	}
	return pos
}

// span is a field: buf[s:e], or arena[^s:e] when s < 0.
type span struct{ s, e int32 }

// bytesOf returns the text of field f of input buf.
func (lx *lexer) bytesOf(buf []byte, f span) []byte {
	if f.s < 0 {
		return lx.arena[^f.s:f.e:f.e]
	}
	return buf[f.s:f.e:f.e]
}

func newLexer(d Dialect) *lexer {
	lx := &lexer{d: d, nl: d.newline(), delims: 0x0101010101010101 * uint64(d.Delim)}
	lx.stop[d.Delim] = true
	lx.stop['\n'] = true
	lx.stop['\r'] = true
	return lx
}

// errLex values say what is wrong with a record; the reader adds the file,
// line and column.
var (
	errUnterminated = errors.New("unterminated quoted field")
	errAfterQuote   = errors.New("unexpected character after the closing quote")
	errEscape       = errors.New("escape character not followed by the quote or escape")
)

// lexError is a lexing error at field col (0-based) of a record.
type lexError struct {
	col int
	err error
}

// fields lexes the record at buf[pos:] into byte slices (for the sniffer).
func (lx *lexer) fields(buf []byte, pos int) (next int, out [][]byte, comment bool, err *lexError) {
	next, spans, comment, err := lx.record(buf, pos, nil)
	for _, f := range spans {
		out = append(out, lx.bytesOf(buf, f))
	}
	return next, out, comment, err
}

// record lexes the record at buf[pos:], appending its fields to out. It
// returns the offset of the next record. A comment line gives comment =
// true and no fields; an empty line one empty field. len(buf) must be
// below 2 GiB.
func (lx *lexer) record(buf []byte, pos int, out []span) (next int, fields []span, comment bool, lerr *lexError) {
	d := &lx.d
	if d.Comment != 0 && pos < len(buf) && buf[pos] == d.Comment {
		i := bytes.IndexByte(buf[pos:], lx.nl)
		if i < 0 {
			return len(buf), out, true, nil
		}
		return pos + i + 1, out, true, nil
	}
	n := len(buf)
	stop := &lx.stop
	for col := 0; ; col++ {
		var f span
		if pos < n && buf[pos] == d.Quote && d.Quote != 0 {
			var err error
			f, pos, err = lx.quoted(buf, pos+1)
			if err != nil {
				return n, out, false, &lexError{col: col, err: err}
			}
			if pos < n && !stop[buf[pos]] {
				// DuckDB tolerates spaces after the closing quote.
				for pos < n && buf[pos] == ' ' {
					pos++
				}
				if pos < n && !stop[buf[pos]] {
					return n, out, false, &lexError{col: col, err: errAfterQuote}
				}
			}
		} else {
			start := pos
			pos = lx.fieldEnd(buf, pos)
			f = span{int32(start), int32(pos)}
		}
		if pos < n && buf[pos] == '\r' && !(pos+1 < n && buf[pos+1] == '\n') && !d.CarriageReturn {
			// A lone '\r' in a '\n' file is data: the field runs on to
			// the next delimiter or '\n'.
			for pos < n && buf[pos] != d.Delim && buf[pos] != '\n' {
				pos++
			}
			end := pos
			if pos < n && buf[pos] == '\n' && end > int(f.e) && buf[end-1] == '\r' {
				end--
			}
			if f.s >= 0 {
				f.e = int32(end)
			}
		}
		out = append(out, f)
		if pos >= n {
			return n, out, false, nil
		}
		switch c := buf[pos]; {
		case c == d.Delim:
			pos++
			if pos == n {
				// A trailing delimiter at the end of input: one more
				// empty field.
				return n, append(out, span{int32(n), int32(n)}), false, nil
			}
		case c == '\n':
			return pos + 1, out, false, nil
		case c == '\r':
			if pos+1 < n && buf[pos+1] == '\n' {
				return pos + 2, out, false, nil
			}
			return pos + 1, out, false, nil
		}
	}
}

// quoted reads a quoted field whose content starts at buf[pos]; it
// returns the value and the offset after the closing quote.
func (lx *lexer) quoted(buf []byte, pos int) (span, int, error) {
	d := &lx.d
	start := pos
	i := bytes.IndexByte(buf[pos:], d.Quote)
	esc := d.Escape != 0 && d.Escape != d.Quote
	if i < 0 {
		return span{}, 0, errUnterminated
	}
	end := pos + i
	plain := true
	if esc && bytes.IndexByte(buf[start:end], d.Escape) >= 0 {
		plain = false
	} else if !esc && d.Escape != 0 && end+1 < len(buf) && buf[end+1] == d.Quote {
		plain = false
	}
	if plain {
		return span{int32(start), int32(end)}, end + 1, nil
	}
	// Unescape into the arena.
	a0 := len(lx.arena)
	out := lx.arena
	for p := start; p < len(buf); p++ {
		c := buf[p]
		switch {
		case esc && c == d.Escape:
			if p+1 >= len(buf) {
				return span{}, 0, errUnterminated
			}
			if buf[p+1] != d.Quote && buf[p+1] != d.Escape {
				return span{}, 0, errEscape
			}
			out = append(out, buf[p+1])
			p++
		case c == d.Quote:
			if !esc && d.Escape != 0 && p+1 < len(buf) && buf[p+1] == d.Quote {
				out = append(out, c)
				p++
				continue
			}
			lx.arena = out
			return span{^int32(a0), int32(len(out))}, p + 1, nil
		default:
			out = append(out, c)
		}
	}
	return span{}, 0, errUnterminated
}

// fieldStart returns the offset in buf of field k (0-based, its opening
// quote included) of the record starting at pos, or -1 if the record has
// fewer fields.
func (lx *lexer) fieldStart(buf []byte, pos, k int) int {
	d := &lx.d
	for range k {
		if pos < len(buf) && d.Quote != 0 && buf[pos] == d.Quote {
			a0 := len(lx.arena)
			_, p, err := lx.quoted(buf, pos+1)
			lx.arena = lx.arena[:a0] // the text is not wanted
			if err != nil {
				return -1
			}
			pos = p
		}
		pos = lx.fieldEnd(buf, pos)
		if pos >= len(buf) || buf[pos] != d.Delim {
			return -1
		}
		pos++
	}
	return pos
}
