package executor

import (
	"bytes"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/b2sql/b2sql/columnar"
)

// arena hands out byte slices for string results. It is reset per batch, so
// results stay valid until the next Eval, as the Expr contract says.
type arena struct{ buf []byte }

func (a *arena) reset() { a.buf = a.buf[:0] }

// alloc returns n bytes. Earlier slices stay valid: when the buffer grows, the
// old backing array is simply left to the slices that point into it.
func (a *arena) alloc(n int) []byte {
	if len(a.buf)+n > cap(a.buf) {
		a.buf = make([]byte, 0, max(2*cap(a.buf), n, 4096))
	}
	start := len(a.buf)
	a.buf = a.buf[:start+n]
	return a.buf[start : start+n : start+n]
}

// strMapKernel applies f to each string; f appends its result to dst.
func strMapKernel(f func(dst, s []byte) []byte) kernel {
	var ar arena
	var scratch []byte
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		ar.reset()
		x := args[0]
		b.ForEach(func(i int) {
			if !out.Valid.Get(i) {
				return
			}
			scratch = f(scratch[:0], x.Bytes[idx(x, i)])
			dst := ar.alloc(len(scratch))
			copy(dst, scratch)
			out.Bytes[i] = dst
		})

		return nil
	}
}

func appendLower(dst, s []byte) []byte {
	for _, c := range s {
		if c >= utf8.RuneSelf {
			return append(dst, bytes.ToLower(s)...)
		}
	}
	for _, c := range s {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func appendUpper(dst, s []byte) []byte {
	for _, c := range s {
		if c >= utf8.RuneSelf {
			return append(dst, bytes.ToUpper(s)...)
		}
	}
	for _, c := range s {
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func appendReverse(dst, s []byte) []byte {
	ascii := true
	for _, c := range s {
		ascii = ascii && c < utf8.RuneSelf
	}
	if ascii {
		for k := len(s) - 1; k >= 0; k-- {
			dst = append(dst, s[k])
		}
		return dst
	}
	// Whole grapheme clusters change places, so combining marks and
	// emoji sequences stay intact (DuckDB: reverse('S̈a︍') = 'a︍S̈').
	var buf [32]int
	ends := buf[:0] // each cluster's end offset in s
	for pos, state := 0, -1; pos < len(s); {
		var c []byte
		c, _, _, state = uniseg.FirstGraphemeCluster(s[pos:], state)
		pos += len(c)
		ends = append(ends, pos)
	}
	for k := len(ends) - 1; k >= 0; k-- {
		lo := 0
		if k > 0 {
			lo = ends[k-1]
		}
		dst = append(dst, s[lo:ends[k]]...)
	}
	return dst
}

// Substrings of the input need no copy: trim results alias the input row.
// trimKernel removes spaces, or with a second argument any of its
// characters (runes), from the left and/or right end.
func trimKernel(left, right bool) kernel {
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x := args[0]
		b.ForEach(func(i int) {
			s, cut := x.Bytes[idx(x, i)], " "
			if len(args) > 1 {
				cut = string(args[1].Bytes[idx(args[1], i)])
			}
			if left {
				s = bytes.TrimLeft(s, cut)
			}
			if right {
				s = bytes.TrimRight(s, cut)
			}
			out.Bytes[i] = s
		})

		return nil
	}
}

func lengthKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	x := args[0]
	b.ForEach(func(i int) { out.Ints[i] = int64(utf8.RuneCount(x.Bytes[idx(x, i)])) })
	return nil
}

// concatKernel joins its arguments; strict says NULL in → NULL out (||),
// otherwise NULL arguments are skipped (concat()).
func concatKernel(strict bool) kernel {
	var ar arena
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		ar.reset()
		b.ForEach(func(i int) {
			if strict && !out.Valid.Get(i) {
				return
			}
			size := 0
			for _, a := range args {
				if !a.IsNull(idx(a, i)) {
					size += len(a.Bytes[idx(a, i)])
				}
			}
			dst := ar.alloc(size)[:0]
			for _, a := range args {
				if !a.IsNull(idx(a, i)) {
					dst = append(dst, a.Bytes[idx(a, i)]...)
				}
			}
			out.Bytes[i] = dst
		})

		return nil
	}
}

// likeMatcher compiles a LIKE pattern ('%' any run, '_' one character,
// backslash escapes the next character) into a matcher. Common shapes —
// exact, prefix%, %suffix, %infix% — avoid the general algorithm.
type likeMatcher struct {
	fold  bool
	kind  int // 0 general, 1 exact, 2 prefix, 3 suffix, 4 contains, 5 segments
	lit   []byte
	parts []likePart
	segs  likeSegments // kind 5
	// rare: a byte every match contains, tested first (like_rare.go), for
	// the kinds that search the value (0, 4, 5).
	rare    byte
	hasRare bool
}

func compileLike(pat []byte, fold bool) *likeMatcher {
	m := &likeMatcher{fold: fold}
	if fold {
		pat = bytes.ToLower(pat)
	}
	var cur []byte
	flush := func() {
		if cur != nil {
			m.parts = append(m.parts, likePart{lit: cur})
			cur = nil
		}
	}
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case c == '\\' && i+1 < len(pat):
			i++
			cur = append(cur, pat[i])
		case c == '%':
			flush()
			if len(m.parts) == 0 || !m.parts[len(m.parts)-1].anyRun {
				m.parts = append(m.parts, likePart{anyRun: true})
			}
		case c == '_':
			flush()
			m.parts = append(m.parts, likePart{one: true})
		default:
			if cur == nil {
				cur = []byte{}
			}
			cur = append(cur, c)
		}
	}
	flush()
	p := m.parts
	switch {
	case len(p) == 1 && p[0].lit != nil:
		m.kind, m.lit = 1, p[0].lit
	case len(p) == 2 && p[0].lit != nil && p[1].anyRun:
		m.kind, m.lit = 2, p[0].lit
	case len(p) == 2 && p[0].anyRun && p[1].lit != nil:
		m.kind, m.lit = 3, p[1].lit
	case len(p) == 3 && p[0].anyRun && p[1].lit != nil && p[2].anyRun:
		m.kind, m.lit = 4, p[1].lit
	case len(p) == 0:
		m.kind, m.lit = 1, []byte{}
	default:
		if segs, ok := compileSegments(p); ok {
			m.kind, m.segs = 5, segs
		}
	}
	if m.kind == 0 || m.kind == 4 || m.kind == 5 {
		m.rare, m.hasRare = rareByte(p)
	}
	return m
}

func (m *likeMatcher) match(s []byte) bool {
	if m.fold {
		s = bytes.ToLower(s)
	}
	if m.hasRare && bytes.IndexByte(s, m.rare) < 0 {
		return false
	}
	switch m.kind {
	case 1:
		return bytes.Equal(s, m.lit)
	case 2:
		return bytes.HasPrefix(s, m.lit)
	case 3:
		return bytes.HasSuffix(s, m.lit)
	case 4:
		return bytes.Contains(s, m.lit)
	case 5:
		return m.segs.match(s)
	}
	return likeMatch(m.parts, s)
}

// likeMatch is the general matcher: greedy with backtracking to the last '%'.
func likeMatch(parts []likePart, s []byte) bool {
	if len(parts) == 0 {
		return len(s) == 0
	}
	p := parts[0]
	switch {
	case p.anyRun:
		if len(parts) == 1 {
			return true
		}
		for i := 0; i <= len(s); {
			if likeMatch(parts[1:], s[i:]) {
				return true
			}
			if i == len(s) {
				break
			}
			_, size := utf8.DecodeRune(s[i:])
			i += size
		}
		return false
	case p.one:
		if len(s) == 0 {
			return false
		}
		_, size := utf8.DecodeRune(s)
		return likeMatch(parts[1:], s[size:])
	}
	if !bytes.HasPrefix(s, p.lit) {
		return false
	}
	return likeMatch(parts[1:], s[len(p.lit):])
}

// likeKernel evaluates [NOT] [I]LIKE; a constant pattern is compiled once.
func likeKernel(fold, not bool) kernel {
	var cached *likeMatcher
	var cachedPat string
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x, p := args[0], args[1]
		if p.Const && !x.Const {
			pat := p.Bytes[0]
			if cached == nil || cachedPat != string(pat) {
				cached, cachedPat = compileLike(pat, fold), string(pat)
			}
			likeConst(cached, not, x.Bytes, b, out)
			return nil
		}
		b.ForEach(func(i int) {
			if !out.Valid.Get(i) {
				return
			}
			pat := p.Bytes[idx(p, i)]
			if cached == nil || cachedPat != string(pat) {
				cached, cachedPat = compileLike(pat, fold), string(pat)
			}
			out.Bools[i] = cached.match(x.Bytes[idx(x, i)]) != not
		})

		return nil
	}
}

// likeConst sets out for the rows of b from a pattern that is the same on
// every row: no pattern comparison and no call per row, and a prefix
// pattern (LIKE 'abc%', the common filter) tested inline. Rows out marks
// NULL are left alone, as the general loop leaves them.
func likeConst(m *likeMatcher, not bool, xs [][]byte, b *columnar.Batch, out *columnar.Vector) {
	res, valid := out.Bools, out.Valid
	if m.kind == 2 && !m.fold {
		lit := m.lit
		k := len(lit)
		if b.Sel == nil {
			for i, s := range xs[:b.Len] {
				if valid.Get(i) {
					res[i] = (len(s) >= k && string(s[:k]) == string(lit)) != not
				}
			}
			return
		}
		for _, i := range b.Sel {
			if s := xs[i]; valid.Get(i) {
				res[i] = (len(s) >= k && string(s[:k]) == string(lit)) != not
			}
		}
		return
	}
	if b.Sel == nil {
		for i, s := range xs[:b.Len] {
			if valid.Get(i) {
				res[i] = m.match(s) != not
			}
		}
		return
	}
	for _, i := range b.Sel {
		if valid.Get(i) {
			res[i] = m.match(xs[i]) != not
		}
	}
}
