package json

import (
	"bytes"
	"strings"

	"github.com/valyala/fastjson"
)

// A record is read without a parse tree when it is flat: one object whose
// keys have no escapes and whose values are strings, numbers, true, false
// or null. Parsing builds a value for every key (10 on the events table)
// and visiting them costs a third more, while a query reads a few: the
// extractor walks the record's text once, finds each key's value span,
// and hands only the scanned keys' values to the converters, made from
// the span through a fastjson.Arena (no copy for numbers). Anything else
// (a nested value, an escaped key, text the scan does not follow) goes to
// the parser, which gives the same rows and the same errors as before:
// the scan accepts exactly what fastjson's parser accepts for such
// records, with the same leniency for numbers (its parseRawNumber).

// readFlat turns the extractor on; tests turn it off to compare its rows
// and errors with the parser's.
var readFlat = true

// span is one scanned key's value in the record's text.
type span struct {
	col        int // output position
	start, end int // the value's text, quotes included
	kind       byte
}

// Value kinds of a span, by the value's first byte.
const (
	kindString = '"'
	kindNumber = '0'
	kindTrue   = 't'
	kindFalse  = 'f'
	kindNull   = 'n'
)

// scanFlat fills r.spans with the scanned keys of flat record val; false
// when val is not a flat record the scan reads (the parser then reads it).
func (r *reader) scanFlat(val []byte) bool {
	r.spans = r.spans[:0]
	i := skipSpace(val, 0)
	if i >= len(val) || val[i] != '{' {
		return false
	}
	i = skipSpace(val, i+1)
	if i < len(val) && val[i] == '}' {
		return skipSpace(val, i+1) == len(val)
	}
	for k := 0; ; k++ {
		if i >= len(val) || val[i] != '"' {
			return false
		}
		n := bytes.IndexByte(val[i+1:], '"')
		if n < 0 {
			return false
		}
		key := val[i+1 : i+1+n]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false // the parser unescapes keys
		}
		i = skipSpace(val, i+n+2)
		if i >= len(val) || val[i] != ':' {
			return false
		}
		start := skipSpace(val, i+1)
		end, kind, ok := scalarEnd(val, start)
		if !ok {
			return false
		}
		if j := r.keyPos(k, key); j >= 0 {
			r.spans = append(r.spans, span{col: j, start: start, end: end, kind: kind})
		}
		i = skipSpace(val, end)
		if i >= len(val) {
			return false
		}
		if val[i] == ',' {
			i = skipSpace(val, i+1)
			continue
		}
		if val[i] == '}' {
			return skipSpace(val, i+1) == len(val)
		}
		return false
	}
}

// scalarEnd returns the end of the scalar value at val[i:] and its kind;
// false for a nested value or text the parser would refuse.
func scalarEnd(val []byte, i int) (end int, kind byte, ok bool) {
	if i >= len(val) {
		return 0, 0, false
	}
	switch c := val[i]; c {
	case '"':
		end, ok = stringEnd(val, i+1)
		return end, kindString, ok
	case 't':
		return literalEnd(val, i, "true", kindTrue)
	case 'f':
		return literalEnd(val, i, "false", kindFalse)
	case 'n':
		if end, kind, ok := literalEnd(val, i, "null", kindNull); ok {
			return end, kind, true
		}
		// The parser reads a case-insensitive NaN here as a number.
		if len(val)-i >= 3 && strings.EqualFold(string(val[i:i+3]), "nan") {
			return i + 3, kindNumber, true
		}
		return 0, 0, false
	case '{', '[':
		return 0, 0, false
	}
	end, ok = numberEnd(val, i)
	return end, kindNumber, ok
}

func literalEnd(val []byte, i int, lit string, kind byte) (int, byte, bool) {
	if len(val)-i < len(lit) || string(val[i:i+len(lit)]) != lit {
		return 0, 0, false
	}
	return i + len(lit), kind, true
}

// stringEnd returns the end (past the closing quote) of the string whose
// contents start at val[i:], as fastjson's parseRawString finds it: a quote
// preceded by an even run of backslashes. Whether the string has escapes
// is asked later, of the scanned keys' strings only.
func stringEnd(val []byte, i int) (end int, ok bool) {
	for p := i; ; {
		n := bytes.IndexByte(val[p:], '"')
		if n < 0 {
			return 0, false
		}
		q := p + n
		b := q
		for b > i && val[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			return q + 1, true
		}
		p = q + 1
	}
}

// numberEnd is fastjson's parseRawNumber: the run of number characters, or
// a signed inf/nan.
func numberEnd(val []byte, i int) (int, bool) {
	s := val[i:]
	for k, ch := range s {
		if (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == 'e' || ch == 'E' || ch == '+' {
			continue
		}
		if k == 0 || k == 1 && (s[0] == '-' || s[0] == '+') {
			if len(s[k:]) >= 3 {
				xs := string(s[k : k+3])
				if strings.EqualFold(xs, "inf") || strings.EqualFold(xs, "nan") {
					return i + k + 3, true
				}
			}
			return 0, false
		}
		return i + k, true
	}
	return i + len(s), true
}

// spanValue makes the fastjson value of span s of val, valid until the
// next record (r.arena is reset per record).
func (r *reader) spanValue(val []byte, s span) (*fastjson.Value, error) {
	text := val[s.start:s.end]
	switch s.kind {
	case kindNumber:
		return r.arena.NewNumberString(str(text)), nil
	case kindTrue:
		return r.arena.NewTrue(), nil
	case kindFalse:
		return r.arena.NewFalse(), nil
	case kindString:
		if plain := text[1 : len(text)-1]; bytes.IndexByte(plain, '\\') < 0 {
			return r.arena.NewString(str(plain)), nil
		}
	}
	// An escaped string: the parser unescapes it.
	return r.vp.ParseBytes(text)
}

// rowFlat stores the scanned spans of record val as row i; false (no
// error) when ignore_errors drops it.
func (r *reader) rowFlat(val []byte, i int, off int64) (bool, error) {
	b := r.batch
	r.arena.Reset()
	for _, s := range r.spans {
		if s.kind == kindNull {
			continue
		}
		j := s.col
		conv := &r.t.convs[r.cols[j]]
		if s.kind == kindString && conv.plainString(b.Cols[j], i, val[s.start+1:s.end-1], &r.text) {
			b.Cols[j].Valid.Set(i)
			continue
		}
		x, err := r.spanValue(val, s)
		if err != nil {
			return false, err
		}
		if !conv.set(b.Cols[j], i, x, &r.text) {
			if r.t.opts.IgnoreErrors {
				continue // NULL, as DuckDB
			}
			return false, r.valueError(off, r.names[j], ErrConvert, "could not convert "+trunc(x)+" to "+b.Cols[j].Type.String())
		}
		b.Cols[j].Valid.Set(i)
	}
	return true, nil
}
