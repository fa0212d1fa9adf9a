package csv

import "bytes"

// Dialect is how a file spells its records: the delimiter between fields,
// the quote around fields that hold delimiters, quotes or newlines, the
// escape before a quote inside a quoted field (the quote itself, RFC 4180,
// when Escape == Quote), and the comment character that starts a line to
// skip. Quote, Escape and Comment are 0 when the file has none. Records
// end at '\n' (a '\r' before it is dropped), or at '\r' alone when
// CarriageReturn is set (files from classic Mac OS).
type Dialect struct {
	Delim          byte
	Quote          byte
	Escape         byte
	Comment        byte
	CarriageReturn bool
}

// newline is the byte that ends a record.
func (d *Dialect) newline() byte {
	if d.CarriageReturn {
		return '\r'
	}
	return '\n'
}

// boundary finds record boundaries without splitting fields: from a record
// start at buf[0], it returns the offset just after the first record
// terminator at or after from that lies outside quotes (so a chunk may end
// there and the next one start there), and the number of record
// terminators before that offset. ok is false when buf ends first; with
// eof the end of buf is then the boundary unless it is inside a quoted
// field (unterminated is then true, and records counts the terminators
// before the record holding that field).
//
// The rules are the reader's: a quote opens a quoted field only as the
// first byte of a field (after a delimiter or a record terminator); in a
// quoted field a quote preceded by an odd run of escapes (Escape != Quote)
// or followed by a second quote (Escape == Quote) is data; a comment
// character at a record start makes the rest of the line data to skip.
// It jumps between quotes with bytes.IndexByte, so a file with few quoted
// fields is scanned at memory speed.
func (d *Dialect) boundary(buf []byte, from int, eof bool) (at int, records int64, ok, unterminated bool) {
	nl := d.newline()
	pos := 0
	for pos < len(buf) {
		// Unquoted: up to the next quote that opens a field.
		q := -1
		if d.Quote != 0 {
			for s := pos; s < len(buf); {
				i := bytes.IndexByte(buf[s:], d.Quote)
				if i < 0 {
					break
				}
				i += s
				// A lone '\r' in a '\n' file is data to the lexer, so a
				// quote after it opens nothing.
				if i == 0 || buf[i-1] == d.Delim || buf[i-1] == nl {
					if d.Comment == 0 || !inComment(buf, i, d.Comment, nl) {
						q = i
						break
					}
				}
				s = i + 1
			}
		}
		end := len(buf)
		if q >= 0 {
			end = q
		}
		span := buf[pos:end]
		if d.Comment != 0 {
			// Count terminators one by one; none is special in a comment
			// line except the one that ends it.
			for {
				i := bytes.IndexByte(span, nl)
				if i < 0 {
					break
				}
				records++
				if p := pos + i + 1; p >= from {
					return p, records, true, false
				}
				pos += i + 1
				span = span[i+1:]
			}
		} else {
			if from <= end && from > pos {
				// The boundary may lie in this span: look for the first
				// terminator at from-1 or later.
				if i := bytes.IndexByte(buf[from-1:end], nl); i >= 0 {
					p := from - 1 + i + 1
					records += int64(bytes.Count(buf[pos:p], []byte{nl}))
					return p, records, true, false
				}
			} else if from <= pos {
				if i := bytes.IndexByte(span, nl); i >= 0 {
					return pos + i + 1, records + 1, true, false
				}
			}
			records += int64(bytes.Count(span, []byte{nl}))
		}
		if q < 0 {
			break
		}
		// Quoted: to the quote that closes the field.
		p := q + 1
		closed := false
		for p < len(buf) {
			i := bytes.IndexByte(buf[p:], d.Quote)
			if i < 0 {
				break
			}
			i += p
			if d.Escape != 0 && d.Escape != d.Quote {
				run := 0
				for j := i - 1; j > q && buf[j] == d.Escape; j-- {
					run++
				}
				if run%2 == 1 {
					p = i + 1
					continue
				}
			} else if d.Escape == d.Quote && d.Escape != 0 {
				if i+1 < len(buf) && buf[i+1] == d.Quote {
					p = i + 2
					continue
				}
				if i+1 == len(buf) && !eof {
					// The next byte decides; wait for more.
					return 0, 0, false, false
				}
			}
			closed = true
			p = i + 1
			break
		}
		if !closed {
			return 0, records, false, eof
		}
		pos = p
	}
	if eof {
		if from <= len(buf) {
			return len(buf), records, true, false
		}
	}
	return 0, 0, false, false
}

// inComment reports whether buf[i] lies on a line that starts with the
// comment character c.
func inComment(buf []byte, i int, c, nl byte) bool {
	start := bytes.LastIndexByte(buf[:i], nl) + 1
	return buf[start] == c
}
