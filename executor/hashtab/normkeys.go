package hashtab

import "github.com/b2sql/b2sql/columnar"

// normKeys is the Map of keys with columns that compare by a normal form
// rather than by their bytes as given: INTERVALs and nested values (LIST,
// STRUCT, MAP).
//
// DuckDB groups, deduplicates and matches intervals by their total length,
// a month as 30 days and a day as 24 hours ('1 day' = '24 hours'), yet
// shows each group as its first row wrote it; nested values are equal when
// their elements are, NULL elements equal to each other, -0 to 0 and NaN
// to NaN (nestedkey.go). So the inner Map sees such a column as a BLOB of
// its normal form (equal forms are equal keys), and the row that created
// each id is kept here, as written, and given back by Keys.
type normKeys struct {
	inner  Map
	cols   []int              // the key columns with a normal form
	firsts []*columnar.Vector // per such column: the creating row of each id
	own    normFinder
}

// normColumns lists the columns among types that need a normal form (nil:
// none).
func normColumns(types []columnar.Type) []int {
	var cols []int
	for c, t := range types {
		if needsNorm(t) {
			cols = append(cols, c)
		}
	}
	return cols
}

func needsNorm(t columnar.Type) bool { return t.ID == columnar.Interval || t.IsNested() }

// innerTypes is types with each normalized column a BLOB.
func innerTypes(types []columnar.Type) []columnar.Type {
	out := append([]columnar.Type(nil), types...)
	for c, t := range out {
		if t.IsNested() {
			out[c] = columnar.TBlob
		}
	}
	return out
}

func newNormKeys(types []columnar.Type, cols []int) *normKeys {
	m := &normKeys{inner: newMap(innerTypes(types)), cols: cols, firsts: make([]*columnar.Vector, len(cols))}
	for k, c := range cols {
		m.firsts[k] = columnar.NewVector(types[c], 0)
	}
	m.own = normFinder{cols: cols}
	return m
}

// unwrap returns the Map under a normal-form wrapper (m itself otherwise).
func unwrap(m Map) Map {
	if w, ok := m.(*normKeys); ok {
		return w.inner
	}
	return m
}

func (m *normKeys) Assign(b *columnar.Batch, keys []*columnar.Vector, gids []int32) []int {
	newRows := m.inner.Assign(b, m.own.normalize(b, keys), gids)
	if len(newRows) == 0 {
		return newRows
	}
	base := m.inner.Len() - len(newRows)
	for k, c := range m.cols {
		v, dst := keys[c], m.firsts[k]
		n := base + len(newRows)
		dst.Grow(n)
		dst.ExtendValid(n)
		for r, i := range newRows {
			dst.CopyRowOwned(base+r, v, i, n)
		}
	}
	return newRows
}

func (m *normKeys) Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	m.inner.Find(b, m.own.normalize(b, keys), gids)
}

func (m *normKeys) Finder() Finder {
	return &normFinder{inner: m.inner.Finder(), cols: m.cols}
}

func (m *normKeys) Len() int { return m.inner.Len() }

func (m *normKeys) Keys(cols []*columnar.Vector, from, to int) {
	inner := append([]*columnar.Vector(nil), cols...)
	for _, c := range m.cols {
		inner[c] = columnar.NewVector(columnar.TBlob, 0)
	}
	m.inner.Keys(inner, from, to)
	n := to - from
	for k, c := range m.cols {
		v := cols[c]
		v.Reset(n)
		for r := range n {
			v.CopyRow(r, m.firsts[k], from+r, n)
		}
	}
}

func (m *normKeys) Growth(n int) int64 { return m.inner.Growth(n) }

func (m *normKeys) Bytes() int64 {
	n := m.inner.Bytes() + m.own.bytes()
	for _, f := range m.firsts {
		n += vectorBytes(f)
	}
	return n
}

// vectorBytes estimates the memory of a stored vector.
func vectorBytes(v *columnar.Vector) int64 {
	n := 8*int64(cap(v.Ints)+cap(v.Uints)+cap(v.Floats)+len(v.Valid)) + int64(cap(v.Bools)) + 8*int64(cap(v.Starts)+cap(v.Ends))/2
	for _, b := range v.Bytes {
		n += 24 + int64(len(b))
	}
	for _, k := range v.Kids {
		n += vectorBytes(k)
	}
	return n
}

// normFinder looks keys up in the inner Map after replacing each
// normalized column by a BLOB vector of its normal forms, in a scratch of
// its own.
type normFinder struct {
	inner Finder
	cols  []int
	vecs  []columnar.Vector
	keys  []*columnar.Vector
	buf   []byte
}

func (f *normFinder) Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	f.inner.Find(b, f.normalize(b, keys), gids)
}

// normalize returns keys with each normalized column replaced by a vector
// of its normal forms (sharing the column's validity).
func (f *normFinder) normalize(b *columnar.Batch, keys []*columnar.Vector) []*columnar.Vector {
	if len(f.vecs) < len(f.cols) {
		f.vecs = make([]columnar.Vector, len(f.cols))
	}
	f.keys = append(f.keys[:0], keys...)
	f.buf = f.buf[:0]
	for k, c := range f.cols {
		src, dst := keys[c], &f.vecs[k]
		n := b.Len
		if src.Const {
			n = 1
		}
		if cap(dst.Bytes) < n {
			dst.Bytes = make([][]byte, n, max(n, columnar.MaxBatch))
		}
		dst.Bytes = dst.Bytes[:n]
		if src.Type.ID == columnar.Interval {
			for i := range n {
				if src.IsNull(i) { // its payload is garbage
					dst.Bytes[i] = nil
					continue
				}
				dst.Bytes[i] = columnar.IntervalOrderKey(bytesAt(src, i))
			}
			dst.Type = src.Type
		} else {
			// One buffer for the batch; slices are taken once it stops moving.
			ends := make([]int, n)
			start := len(f.buf)
			for i := range n {
				if !src.IsNull(i) {
					f.buf = appendNestedKey(f.buf, src, i)
				}
				ends[i] = len(f.buf)
			}
			at := start
			for i := range n {
				dst.Bytes[i] = f.buf[at:ends[i]:ends[i]]
				at = ends[i]
			}
			dst.Type = columnar.TBlob
		}
		dst.Valid, dst.Const = src.Valid, src.Const
		f.keys[c] = dst
	}
	return f.keys
}

func (f *normFinder) bytes() int64 {
	n := int64(cap(f.buf))
	for i := range f.vecs {
		n += 24 * int64(cap(f.vecs[i].Bytes))
	}
	return n
}
