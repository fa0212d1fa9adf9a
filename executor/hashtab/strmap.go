package hashtab

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// strMap is the Map of one string column: a strTable that keeps every key
// by id. A dictionary-coded batch looks each code up once per dictionary
// (dict.Remap) and then reads its id from a dense table: per row one load
// of the code and one of the table, no hashing. Coded and plain batches
// share the table, so chunks that came coded and chunks that came plain
// (PLAIN fallback pages) agree on ids.
type strMap struct {
	typ     columnar.Type
	tab     *strTable
	nullG   int32 // the NULL key's id; -1: none yet
	remap   dict.Remap
	own     strFinder // Find's
	newRows []int
	hs      []uint64 // a batch's key hashes (strTable.hashAll)
}

// codeMemo is Find's per-code answer for one dictionary: the id, or -1
// for a value the Map did not hold when it was looked up (valid while the
// Map holds as many ids as then: an Assign may add the value since).
type codeMemo struct {
	d   *dict.Dict
	n   int
	ids []int32 // code -> id + 2; 0 = not looked up, 1 = absent
}

// table returns the memo for d over a Map of n ids.
func (c *codeMemo) table(d *dict.Dict, n int) []int32 {
	if c.d != d || c.n != n {
		c.ids = growBatch(c.ids, d.Len())[:d.Len()]
		clear(c.ids)
		c.d, c.n = d, n
	}
	return c.ids
}

func newStrMap(t columnar.Type) *strMap {
	m := &strMap{typ: t, tab: newValueStrTable(), nullG: -1}
	m.own.m = m
	return m
}

func (m *strMap) Len() int { return m.tab.n + m.nulls() }

func (m *strMap) nulls() int {
	if m.nullG >= 0 {
		return 1
	}
	return 0
}

func (m *strMap) Growth(n int) int64 { return m.tab.growth(n) }

func (m *strMap) Bytes() int64 {
	return m.tab.bytes() + 4*int64(cap(m.own.memo.ids)) + 8*int64(cap(m.newRows)+cap(m.hs))
}

// nullID returns the NULL key's id, creating it at row i.
func (m *strMap) nullID(i int) int32 {
	if m.nullG < 0 {
		// The NULL id takes the next number; the table's values stay
		// indexed by id through a placeholder (never in its slots).
		m.nullG = int32(m.Len())
		m.tab.remember(0, 0)
		m.newRows = append(m.newRows, i)
	}
	return m.nullG
}

func (m *strMap) Assign(b *columnar.Batch, keys []*columnar.Vector, gids []int32) []int {
	m.newRows = m.newRows[:0]
	k := keys[0]
	var row int
	create := func() int32 {
		m.newRows = append(m.newRows, row)
		return int32(m.Len())
	}
	if d, codes, ok := dict.Of(k); ok {
		table := m.remap.Table(d)
		slow := func(i int) int32 {
			j := idx(k, i)
			if k.Valid != nil && !k.Valid.Get(j) {
				return m.nullID(i)
			}
			c := codes[j]
			if g := table[c]; g >= 0 {
				return g
			}
			row = i
			g := m.tab.find(d.Value(c), create)
			table[c] = g
			return g
		}
		if k.Valid == nil && b.Sel == nil && !k.Const {
			for i, c := range codes[:b.Len] {
				g := table[c]
				if g < 0 {
					g = slow(i)
				}
				gids[i] = g
			}
			return m.newRows
		}
		b.ForEach(func(i int) { gids[i] = slow(i) })
		return m.newRows
	}
	if !k.Const && k.Valid == nil && b.Sel == nil {
		keys := k.Bytes[:b.Len]
		m.hs = growBatch(m.hs, len(keys))
		m.tab.hashAll(m.hs, keys)
		for lo := 0; lo < len(keys); lo += touchRun {
			hi := min(lo+touchRun, len(keys))
			m.tab.touch(m.hs[lo:hi])
			for i := lo; i < hi; i++ {
				row = i
				gids[i] = m.tab.findHashed(keys[i], m.hs[i], create)
			}
		}
		return m.newRows
	}
	b.ForEach(func(i int) {
		j := idx(k, i)
		if k.IsNull(j) {
			gids[i] = m.nullID(i)
			return
		}
		row = i
		gids[i] = m.tab.find(k.Bytes[j], create)
	})

	return m.newRows
}

func (m *strMap) Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	m.own.Find(b, keys, gids)
}

func (m *strMap) Finder() Finder { return &strFinder{m: m} }

// strFinder looks keys up in a strMap, remembering per code what it found
// (codeMemo).
type strFinder struct {
	m    *strMap
	memo codeMemo
}

func (f *strFinder) Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	m, k := f.m, keys[0]
	if d, codes, ok := dict.Of(k); ok {
		table := f.memo.table(d, m.Len())
		b.ForEach(func(i int) {
			j := idx(k, i)
			if k.Valid != nil && !k.Valid.Get(j) {
				gids[i] = m.nullG
				return
			}
			c := codes[j]
			if table[c] == 0 {
				table[c] = m.tab.lookup(d.Value(c)) + 2
			}
			gids[i] = table[c] - 2
		})

		return
	}
	b.ForEach(func(i int) {
		j := idx(k, i)
		if k.IsNull(j) {
			gids[i] = m.nullG
			return
		}
		gids[i] = m.tab.lookup(k.Bytes[j])
	})

}

func (m *strMap) Keys(cols []*columnar.Vector, from, to int) {
	v := cols[0]
	n := to - from
	v.Reset(n)
	for r := range n {
		if from+r == int(m.nullG) {
			v.Valid = columnar.NewBitmap(n)
			v.Valid.Clear(r)
			v.Bytes[r] = nil
			continue
		}
		v.Bytes[r] = m.tab.value(from + r)
	}
}
