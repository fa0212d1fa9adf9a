package hashtab

import "github.com/b2sql/b2sql/columnar"

// intervalKeys is the Map of keys with INTERVAL columns. DuckDB groups,
// deduplicates and matches intervals by their total length, a month as 30
// days and a day as 24 hours ('1 day' = '24 hours', '1 month' = '30
// days'), yet shows each group as its first row wrote it. So the inner Map
// sees every interval as its order key (columnar.IntervalOrderKey: equal
// keys are equal intervals), and the written form of the row that created
// each id is kept here and given back by Keys.
type intervalKeys struct {
	inner  Map
	cols   []int    // the key columns that are INTERVALs
	firsts [][]byte // per interval column: IntervalSize bytes per id
	own    intervalFinder
}

// intervalColumns lists the INTERVAL columns among types (nil: none).
func intervalColumns(types []columnar.Type) []int {
	var cols []int
	for c, t := range types {
		if t.ID == columnar.Interval {
			cols = append(cols, c)
		}
	}
	return cols
}

func newIntervalKeys(inner Map, cols []int) *intervalKeys {
	m := &intervalKeys{inner: inner, cols: cols, firsts: make([][]byte, len(cols))}
	m.own = intervalFinder{cols: cols}
	return m
}

// unwrap returns the Map under an interval wrapper (m itself otherwise).
func unwrap(m Map) Map {
	if w, ok := m.(*intervalKeys); ok {
		return w.inner
	}
	return m
}

func (m *intervalKeys) Assign(b *columnar.Batch, keys []*columnar.Vector, gids []int32) []int {
	newRows := m.inner.Assign(b, m.own.normalize(b, keys), gids)
	for k, c := range m.cols {
		v := keys[c]
		for _, i := range newRows {
			j := idx(v, i)
			var form []byte
			if !v.IsNull(j) {
				form = bytesAt(v, j)
			}
			if len(form) != columnar.IntervalSize { // NULL (or foreign bytes): never shown
				form = make([]byte, columnar.IntervalSize)
			}
			m.firsts[k] = append(m.firsts[k], form...)
		}
	}
	return newRows
}

func (m *intervalKeys) Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	m.inner.Find(b, m.own.normalize(b, keys), gids)
}

func (m *intervalKeys) Finder() Finder {
	return &intervalFinder{inner: m.inner.Finder(), cols: m.cols}
}

func (m *intervalKeys) Len() int { return m.inner.Len() }

func (m *intervalKeys) Keys(cols []*columnar.Vector, from, to int) {
	m.inner.Keys(cols, from, to)
	for k, c := range m.cols {
		v := cols[c]
		for r := range to - from {
			if v.IsNull(r) {
				continue
			}
			g := (from + r) * columnar.IntervalSize
			v.Bytes[r] = m.firsts[k][g : g+columnar.IntervalSize : g+columnar.IntervalSize]
		}
	}
}

func (m *intervalKeys) Bytes() int64 {
	n := m.inner.Bytes() + m.own.bytes()
	for _, f := range m.firsts {
		n += int64(cap(f))
	}
	return n
}

// intervalFinder looks keys up in the inner Map after replacing each
// INTERVAL column by its order keys, in a scratch of its own.
type intervalFinder struct {
	inner Finder
	cols  []int
	vecs  []columnar.Vector
	keys  []*columnar.Vector
}

func (f *intervalFinder) Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	f.inner.Find(b, f.normalize(b, keys), gids)
}

// normalize returns keys with each INTERVAL column replaced by a vector of
// its order keys (sharing the column's bytes and validity).
func (f *intervalFinder) normalize(b *columnar.Batch, keys []*columnar.Vector) []*columnar.Vector {
	if len(f.vecs) < len(f.cols) {
		f.vecs = make([]columnar.Vector, len(f.cols))
	}
	f.keys = append(f.keys[:0], keys...)
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
		for i := range n {
			if src.IsNull(i) { // its payload is garbage
				dst.Bytes[i] = nil
				continue
			}
			dst.Bytes[i] = columnar.IntervalOrderKey(bytesAt(src, i))
		}
		dst.Type, dst.Valid, dst.Const = src.Type, src.Valid, src.Const
		f.keys[c] = dst
	}
	return f.keys
}

func (f *intervalFinder) bytes() int64 {
	var n int64
	for i := range f.vecs {
		n += 24 * int64(cap(f.vecs[i].Bytes))
	}
	return n
}
