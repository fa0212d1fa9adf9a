package columnar

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A GEOMETRY value is held as its well-known binary (WKB), the bytes a
// Parquet GEOMETRY or GEOGRAPHY column stores, and shown as its
// well-known text (WKT) as DuckDB 1.5 prints it: POINT (30 10),
// MULTIPOINT (1 2, 3 4), POLYGON Z ((…)), POINT EMPTY, coordinates in
// the shortest form that reads back (DuckDB's DOUBLE text without a
// trailing ".0"). AppendWKT reads ISO WKB in either byte order and the
// EWKB dimension and SRID flags; ParseWKT and NormalizeWKB give ISO WKB,
// little-endian, as DuckDB's ST_AsWKB does.

// Geometry kinds of WKB's type code (the code modulo 1000).
const (
	wkbPoint = 1 + iota
	wkbLineString
	wkbPolygon
	wkbMultiPoint
	wkbMultiLineString
	wkbMultiPolygon
	wkbCollection
)

var wkbNames = [...]string{"", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"}

// wkbEmptyBits is the NaN of an empty point's coordinates (the quiet NaN
// DuckDB writes).
const wkbEmptyBits = 0x7ff8000000000000

// wkbMaxDepth bounds nested collections, so that hostile bytes cannot
// recurse without end.
const wkbMaxDepth = 64

// wkbReader walks WKB bytes.
type wkbReader struct {
	b   []byte
	pos int
	// vertex, when set, sees each point rewrite reads: its x and y, and
	// whether it is a POINT's only point with every coordinate NaN (POINT
	// EMPTY).
	vertex func(x, y float64, empty bool)
}

var errWKBShort = errors.New("unexpected end of binary data")

func (r *wkbReader) fail(err error) error {
	return fmt.Errorf("%w at position %d", err, r.pos)
}

func (r *wkbReader) u32(order binary.ByteOrder) (uint32, error) {
	if len(r.b)-r.pos < 4 {
		return 0, r.fail(errWKBShort)
	}
	v := order.Uint32(r.b[r.pos:])
	r.pos += 4
	return v, nil
}

func (r *wkbReader) f64(order binary.ByteOrder) (float64, error) {
	if len(r.b)-r.pos < 8 {
		return 0, r.fail(errWKBShort)
	}
	v := math.Float64frombits(order.Uint64(r.b[r.pos:]))
	r.pos += 8
	return v, nil
}

// wkbHeader is one geometry's byte order, kind and dimensions.
type wkbHeader struct {
	order binary.ByteOrder
	kind  uint32
	z, m  bool
}

func (h wkbHeader) dims() int {
	n := 2
	if h.z {
		n++
	}
	if h.m {
		n++
	}
	return n
}

func (h wkbHeader) tag() string {
	switch {
	case h.z && h.m:
		return " ZM"
	case h.z:
		return " Z"
	case h.m:
		return " M"
	}
	return ""
}

func (r *wkbReader) header() (wkbHeader, error) {
	var h wkbHeader
	if r.pos >= len(r.b) {
		return h, r.fail(errWKBShort)
	}
	switch r.b[r.pos] {
	case 0:
		h.order = binary.BigEndian
	case 1:
		h.order = binary.LittleEndian
	default:
		return h, r.fail(fmt.Errorf("invalid byte order %d", r.b[r.pos]))
	}
	r.pos++
	code, err := r.u32(h.order)
	if err != nil {
		return h, err
	}
	// EWKB flags (PostGIS), then ISO's thousands.
	h.z, h.m = code&0x80000000 != 0, code&0x40000000 != 0
	if code&0x20000000 != 0 {
		if _, err := r.u32(h.order); err != nil { // the SRID
			return h, err
		}
	}
	code &= 0x0fffffff
	switch code / 1000 {
	case 1:
		h.z = true
	case 2:
		h.m = true
	case 3:
		h.z, h.m = true, true
	}
	h.kind = code % 1000
	if h.kind < wkbPoint || h.kind > wkbCollection || code/1000 > 3 {
		return h, r.fail(fmt.Errorf("unsupported geometry type %d", code))
	}
	return h, nil
}

// AppendWKT appends the WKT of the WKB geometry wkb.
func AppendWKT(dst []byte, wkb []byte) ([]byte, error) {
	r := &wkbReader{b: wkb}
	dst, err := r.geometry(dst, 0, true)
	if err == nil && r.pos != len(wkb) {
		err = r.fail(errors.New("trailing bytes"))
	}
	return dst, err
}

// geometry appends one geometry; named is false for the points, lines and
// polygons of a MULTI geometry, which WKT writes without their name.
func (r *wkbReader) geometry(dst []byte, depth int, named bool) ([]byte, error) {
	if depth > wkbMaxDepth {
		return dst, r.fail(errors.New("geometry nested too deeply"))
	}
	h, err := r.header()
	if err != nil {
		return dst, err
	}
	if named {
		dst = append(dst, wkbNames[h.kind]...)
		dst = append(dst, h.tag()...)
	}
	if h.kind == wkbPoint {
		mark := len(dst)
		if named {
			dst = append(dst, " ("...)
		}
		dst, empty, err := r.coords(dst, h)
		if err != nil {
			return dst, err
		}
		if empty {
			dst = append(dst[:mark], " EMPTY"...)
			if !named {
				dst = append(dst[:mark], "EMPTY"...)
			}
			return dst, nil
		}
		if named {
			dst = append(dst, ')')
		}
		return dst, nil
	}
	n, err := r.u32(h.order)
	if err != nil {
		return dst, err
	}
	if n == 0 {
		if named {
			return append(dst, " EMPTY"...), nil
		}
		return append(dst, "EMPTY"...), nil
	}
	if int64(n) > int64(len(r.b)-r.pos) {
		return dst, r.fail(errWKBShort) // every part takes a byte at least
	}
	if named {
		dst = append(dst, ' ')
	}
	dst = append(dst, '(')
	for i := range n {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		switch h.kind {
		case wkbLineString:
			dst, _, err = r.coords(dst, h)
		case wkbPolygon:
			dst, err = r.ring(dst, h)
		case wkbMultiPoint, wkbMultiLineString, wkbMultiPolygon:
			dst, err = r.geometry(dst, depth+1, false)
		case wkbCollection:
			dst, err = r.geometry(dst, depth+1, true)
		}
		if err != nil {
			return dst, err
		}
	}
	return append(dst, ')'), nil
}

// ring appends a polygon's ring: (x y, x y, …).
func (r *wkbReader) ring(dst []byte, h wkbHeader) ([]byte, error) {
	n, err := r.u32(h.order)
	if err != nil {
		return dst, err
	}
	if int64(n)*int64(8*h.dims()) > int64(len(r.b)-r.pos) {
		return dst, r.fail(errWKBShort)
	}
	dst = append(dst, '(')
	for i := range n {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		if dst, _, err = r.coords(dst, h); err != nil {
			return dst, err
		}
	}
	return append(dst, ')'), nil
}

// coords appends one point's coordinates; empty reports a point of NaN
// coordinates (WKB's POINT EMPTY).
func (r *wkbReader) coords(dst []byte, h wkbHeader) ([]byte, bool, error) {
	mark := len(dst)
	empty := true
	for i := range h.dims() {
		f, err := r.f64(h.order)
		if err != nil {
			return dst, false, err
		}
		empty = empty && math.IsNaN(f)
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = appendCoord(dst, f)
	}
	if empty {
		return dst[:mark], true, nil
	}
	return dst, false, nil
}

// appendCoord writes a coordinate as DuckDB does: its DOUBLE text without
// a trailing ".0".
func appendCoord(dst []byte, f float64) []byte {
	n := len(dst)
	dst = AppendFloat(dst, f, 64)
	if s := dst[n:]; len(s) > 2 && string(s[len(s)-2:]) == ".0" {
		dst = dst[:len(dst)-2]
	}
	return dst
}

// NormalizeWKB checks the WKB wkb and returns it as ISO WKB,
// little-endian (DuckDB's ST_AsWKB and ST_GeomFromWKB).
func NormalizeWKB(wkb []byte) ([]byte, error) {
	r := &wkbReader{b: wkb}
	out, err := r.rewrite(nil, 0)
	if err == nil && r.pos != len(wkb) {
		err = r.fail(errors.New("trailing bytes"))
	}
	return out, err
}

func (r *wkbReader) rewrite(dst []byte, depth int) ([]byte, error) {
	if depth > wkbMaxDepth {
		return dst, r.fail(errors.New("geometry nested too deeply"))
	}
	h, err := r.header()
	if err != nil {
		return dst, err
	}
	dst = appendWKBHeader(dst, h.kind, h.z, h.m)
	point := func() error {
		var xy [2]float64
		empty := true
		for i := range h.dims() {
			f, err := r.f64(h.order)
			if err != nil {
				return err
			}
			if i < 2 {
				xy[i] = f
			}
			empty = empty && math.IsNaN(f)
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
		}
		if r.vertex != nil {
			r.vertex(xy[0], xy[1], empty && h.kind == wkbPoint)
		}
		return nil
	}
	count := func(per int) (uint32, error) {
		n, err := r.u32(h.order)
		if err == nil && int64(n)*int64(per) > int64(len(r.b)-r.pos) {
			err = r.fail(errWKBShort)
		}
		dst = binary.LittleEndian.AppendUint32(dst, n)
		return n, err
	}
	switch h.kind {
	case wkbPoint:
		return dst, point()
	case wkbLineString:
		n, err := count(8 * h.dims())
		for range n {
			if err == nil {
				err = point()
			}
		}
		return dst, err
	case wkbPolygon:
		rings, err := count(4)
		for range rings {
			var n uint32
			if err == nil {
				n, err = count(8 * h.dims())
			}
			for range n {
				if err == nil {
					err = point()
				}
			}
		}
		return dst, err
	}
	n, err := count(5)
	for range n {
		if err == nil {
			dst, err = r.rewrite(dst, depth+1)
		}
	}
	return dst, err
}

func appendWKBHeader(dst []byte, kind uint32, z, m bool) []byte {
	code := kind
	switch {
	case z && m:
		code += 3000
	case z:
		code += 1000
	case m:
		code += 2000
	}
	dst = append(dst, 1)
	return binary.LittleEndian.AppendUint32(dst, code)
}

// ParseWKT reads DuckDB's geometry text (WKT, keywords in any case) and
// returns its ISO WKB, little-endian. As DuckDB 1.5's reader: a point has
// the numbers its tag says (two untagged: POINT (1 2 3) is an error, not
// a POINT Z), and text after the geometry is ignored. Errors say what was
// expected and at which byte offset, in DuckDB's words.
func ParseWKT(s string) ([]byte, error) {
	p := &wktParser{s: s}
	return p.geometry(nil, 0)
}

type wktParser struct {
	s   string
	pos int
}

func (p *wktParser) errf(format string, args ...any) error {
	return fmt.Errorf("Failed to parse geometry: "+format+" at offset %d", append(args, p.pos)...)
}

func (p *wktParser) skip() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n' || p.s[p.pos] == '\r') {
		p.pos++
	}
}

// word reads a keyword (letters), upper-cased; "" when none.
func (p *wktParser) word() string {
	p.skip()
	start := p.pos
	for p.pos < len(p.s) && (p.s[p.pos]|0x20 >= 'a' && p.s[p.pos]|0x20 <= 'z') {
		p.pos++
	}
	return strings.ToUpper(p.s[start:p.pos])
}

// peekWord reports the next keyword without reading it.
func (p *wktParser) peekWord() string {
	at := p.pos
	w := p.word()
	p.pos = at
	return w
}

func (p *wktParser) expect(c byte) error {
	p.skip()
	if p.pos >= len(p.s) {
		return p.errf("Expected '%c' but got end of input", c)
	}
	if p.s[p.pos] != c {
		return p.errf("Expected '%c' but got '%c'", c, p.s[p.pos])
	}
	p.pos++
	return nil
}

// more reads ',' (true) or ')' (false).
func (p *wktParser) more() (bool, error) {
	p.skip()
	if p.pos < len(p.s) && p.s[p.pos] == ',' {
		p.pos++
		return true, nil
	}
	return false, p.expect(')')
}

func (p *wktParser) geometry(dst []byte, depth int) ([]byte, error) {
	if depth > wkbMaxDepth {
		return dst, p.errf("Geometry nested too deeply")
	}
	start := p.pos
	name := p.word()
	kind := uint32(0)
	for k, n := range wkbNames {
		if k > 0 && n == name {
			kind = uint32(k)
		}
	}
	if kind == 0 {
		p.pos = start
		p.skip()
		return dst, p.errf("Unknown geometry type")
	}
	z, m := false, false
	switch p.peekWord() {
	case "Z":
		p.word()
		z = true
	case "M":
		p.word()
		m = true
	case "ZM":
		p.word()
		z, m = true, true
	}
	if p.peekWord() == "EMPTY" {
		p.word()
		dst = appendWKBHeader(dst, kind, z, m)
		if kind == wkbPoint {
			for range 2 + b2i(z) + b2i(m) {
				dst = binary.LittleEndian.AppendUint64(dst, wkbEmptyBits)
			}
			return dst, nil
		}
		return binary.LittleEndian.AppendUint32(dst, 0), nil
	}
	g := &wktGeom{p: p, kind: kind, z: z, m: m}
	return g.body(dst, depth)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// wktGeom is one geometry being parsed: its kind and dimensions (its tag).
type wktGeom struct {
	p    *wktParser
	kind uint32
	z, m bool
}

// point reads x y [z [m]], as many numbers as the tag says, and appends
// the doubles.
func (g *wktGeom) point(dst []byte) ([]byte, error) {
	for range 2 + b2i(g.z) + b2i(g.m) {
		g.p.skip()
		f, ok := g.p.number()
		if !ok {
			return dst, g.p.errf("Expected number")
		}
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	}
	return dst, nil
}

// number reads one coordinate as DuckDB's reader does: an optional '-',
// then nan, inf or infinity (any case), or digits with an optional
// fraction and an exponent (taken only with its digits: 1e is 1, then
// e). A leading '+' is not a number.
func (p *wktParser) number() (float64, bool) {
	s, i := p.s, p.pos
	if i < len(s) && s[i] == '-' {
		i++
	}
	word := false
	for _, w := range [...]string{"infinity", "inf", "nan"} {
		if len(s)-i >= len(w) && strings.EqualFold(s[i:i+len(w)], w) {
			i, word = i+len(w), true
			break
		}
	}
	if !word {
		digits := 0
		for ; i < len(s) && isDigit(s[i]); i++ {
			digits++
		}
		if i < len(s) && s[i] == '.' {
			for i++; i < len(s) && isDigit(s[i]); i++ {
				digits++
			}
		}
		if digits == 0 {
			return 0, false
		}
		if i < len(s) && s[i]|0x20 == 'e' {
			j := i + 1
			if j < len(s) && (s[j] == '+' || s[j] == '-') {
				j++
			}
			if j < len(s) && isDigit(s[j]) {
				for j < len(s) && isDigit(s[j]) {
					j++
				}
				i = j
			}
		}
	}
	f, err := strconv.ParseFloat(s[p.pos:i], 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) { // 1e999 is inf, as DuckDB
		return 0, false
	}
	p.pos = i
	return f, true
}

// points reads ( point, … ) and appends the count and the points.
func (g *wktGeom) points(dst []byte) ([]byte, error) { return g.list(dst, g.point) }

// list reads ( item, … ), EMPTY allowed for items where empty says how,
// and appends the count and the items.
func (g *wktGeom) list(dst []byte, item func([]byte) ([]byte, error)) ([]byte, error) {
	if err := g.p.expect('('); err != nil {
		return dst, err
	}
	at := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	n := uint32(0)
	for {
		var err error
		if dst, err = item(dst); err != nil {
			return dst, err
		}
		n++
		more, err := g.p.more()
		if err != nil {
			return dst, err
		}
		if !more {
			break
		}
	}
	binary.LittleEndian.PutUint32(dst[at:], n)
	return dst, nil
}

func (g *wktGeom) body(dst []byte, depth int) ([]byte, error) {
	dst = appendWKBHeader(dst, g.kind, g.z, g.m)
	var err error
	// part writes a MULTI geometry's member: its own header, then body.
	part := func(kind uint32, body func([]byte) ([]byte, error)) func([]byte) ([]byte, error) {
		return func(dst []byte) ([]byte, error) {
			if g.p.peekWord() == "EMPTY" {
				g.p.word()
				dst = appendWKBHeader(dst, kind, g.z, g.m)
				if kind == wkbPoint {
					for range 2 + b2i(g.z) + b2i(g.m) {
						dst = binary.LittleEndian.AppendUint64(dst, wkbEmptyBits)
					}
					return dst, nil
				}
				return binary.LittleEndian.AppendUint32(dst, 0), nil
			}
			return body(appendWKBHeader(dst, kind, g.z, g.m))
		}
	}
	ring := func(dst []byte) ([]byte, error) { return g.points(dst) }
	polygon := func(dst []byte) ([]byte, error) { return g.list(dst, ring) }
	switch g.kind {
	case wkbPoint:
		if err = g.p.expect('('); err == nil {
			if dst, err = g.point(dst); err == nil {
				err = g.p.expect(')')
			}
		}
	case wkbLineString:
		dst, err = g.points(dst)
	case wkbPolygon:
		dst, err = polygon(dst)
	case wkbMultiPoint:
		// Members with or without their own parentheses: (1 2, 3 4) or
		// ((1 2), (3 4)).
		dst, err = g.list(dst, part(wkbPoint, func(dst []byte) ([]byte, error) {
			g.p.skip()
			if g.p.pos < len(g.p.s) && g.p.s[g.p.pos] == '(' {
				g.p.pos++
				dst, err := g.point(dst)
				if err == nil {
					err = g.p.expect(')')
				}
				return dst, err
			}
			return g.point(dst)
		}))
	case wkbMultiLineString:
		dst, err = g.list(dst, part(wkbLineString, func(dst []byte) ([]byte, error) { return g.points(dst) }))
	case wkbMultiPolygon:
		dst, err = g.list(dst, part(wkbPolygon, polygon))
	case wkbCollection:
		dst, err = g.list(dst, func(dst []byte) ([]byte, error) { return g.p.geometry(dst, depth+1) })
	}
	return dst, err
}
