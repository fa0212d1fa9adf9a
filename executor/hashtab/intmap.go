package hashtab

import "github.com/b2sql/b2sql/columnar"

// intMap is the Map of one integer-like key column (every type stored as
// int64 or uint64, and BOOLEAN): intGroups finds the id, and the keys are
// kept per id in chunks, so that they are written back by a copy.
type intMap struct {
	typ     columnar.Type
	ig      *intGroups
	keys    chunked[int64] // per id: the key less base (0 for the NULL id)
	n       int
	nullG   int32 // the NULL key's id; -1: none yet
	newRows []int
	// base is subtracted from every key before the tables see it: 0 unless
	// Reserve was told the keys' range (a parallel GROUP BY's final, dealt
	// one range of keys: its direct table then covers that range from 0).
	// Keys below base wrap to negative or huge values, which the hash
	// table holds; the difference is one-to-one, so no two keys meet.
	// rebased is the scratch of a batch's keys less base.
	base    int64
	rebased []int64
}

func newIntMap(t columnar.Type) *intMap {
	return &intMap{typ: t, ig: newIntGroups(), nullG: -1}
}

func (m *intMap) Len() int { return m.n }

// Growth counts the id tables, the chunk of keys a new id may start and
// the new-row list: leaving the keys out let a GROUP BY's table pass its
// reservation by a 16 KiB chunk.
func (m *intMap) Growth(n int) int64 {
	g := m.ig.growth(n, m.n) + m.keys.growth(n, 8)
	if cap(m.newRows) < n {
		g += 8 * int64(n)
	}
	return g
}

func (m *intMap) Bytes() int64 { return m.ig.bytes() + m.keys.bytes(8) + 8*int64(cap(m.newRows)) }

// create makes the id of key v, first seen at row i.
func (m *intMap) create(v int64, i int) int32 {
	g := int32(m.n)
	m.n++
	m.keys.push(v)
	m.newRows = append(m.newRows, i)
	return g
}

// word returns row j's key as an int64.
func word(k *columnar.Vector, j int) int64 {
	switch k.Type.Phys() {
	case columnar.PhysInt:
		return k.Ints[j]
	case columnar.PhysUint:
		return int64(k.Uints[j])
	case columnar.PhysBool:
		if k.Bools[j] {
			return 1
		}
	}
	return 0
}

func (m *intMap) Assign(b *columnar.Batch, keys []*columnar.Vector, gids []int32) []int {
	m.newRows = m.newRows[:0]
	k := keys[0]
	if k.Type.Phys() == columnar.PhysInt && !k.Const {
		vals := k.Ints
		if m.base != 0 {
			// Rebased apart, so that the loops of a map with base 0 (every
			// map but a ranged final's) stay as they are.
			if cap(m.rebased) < b.Len {
				m.rebased = make([]int64, max(b.Len, columnar.MaxBatch))
			}
			vals = m.rebased[:b.Len]
			for i, x := range k.Ints[:b.Len] {
				vals[i] = x - m.base
			}
		}
		m.assignInts(b, vals, k.Valid, gids)
		return m.newRows
	}
	b.ForEach(func(i int) {
		j := idx(k, i)
		if k.IsNull(j) {
			if m.nullG < 0 {
				m.nullG = m.create(0, i)
			}
			gids[i] = m.nullG
			return
		}
		v := word(k, j) - m.base
		gids[i] = m.ig.find(v, m.n, func() int32 { return m.create(v, i) })
	})

	return m.newRows
}

// assignInts is Assign for a plain integer key vector (valid: its
// validity bitmap, nil when it has no NULLs), the known-key test inline.
func (m *intMap) assignInts(b *columnar.Batch, vals []int64, valid columnar.Bitmap, gids []int32) {
	var row int
	var val int64
	create := func() int32 { return m.create(val, row) }
	if valid != nil {
		b.ForEach(func(i int) {
			if !valid.Get(i) {
				if m.nullG < 0 {
					m.nullG = m.create(0, i)
				}
				gids[i] = m.nullG
				return
			}
			v := vals[i]
			if g, ok := m.ig.known(v); ok {
				gids[i] = g
				return
			}
			row, val = i, v
			gids[i] = m.ig.find(v, m.n, create)
		})

		return
	}
	if b.Sel == nil {
		vals = vals[:b.Len]
		for lo := 0; lo < len(vals); lo += touchRun {
			hi := min(lo+touchRun, len(vals))
			touchInts(m.ig, vals[lo:hi])
			for i := lo; i < hi; i++ {
				v := vals[i]
				if g, ok := m.ig.known(v); ok {
					gids[i] = g
					continue
				}
				row, val = i, v
				gids[i] = m.ig.find(v, m.n, create)
			}
		}
		return
	}
	for _, i := range b.Sel {
		row, val = i, vals[i]
		gids[i] = m.ig.find(val, m.n, create)
	}
}

func (m *intMap) Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	k := keys[0]
	b.ForEach(func(i int) {
		j := idx(k, i)
		if k.IsNull(j) {
			gids[i] = m.nullG
			return
		}
		if g, ok := m.ig.lookup(word(k, j) - m.base); ok {
			gids[i] = g
			return
		}
		gids[i] = -1
	})

}

// Finder is the Map itself: its Find only reads.
func (m *intMap) Finder() Finder { return m }

func (m *intMap) Keys(cols []*columnar.Vector, from, to int) {
	v := cols[0]
	n := to - from
	v.Reset(n)
	switch v.Type.Phys() {
	case columnar.PhysInt:
		m.keys.copyOut(v.Ints[:n], from, to)
		if m.base != 0 {
			for r := range v.Ints[:n] {
				v.Ints[r] += m.base
			}
		}
	case columnar.PhysUint:
		for r := range n {
			v.Uints[r] = uint64(m.keys.at(from + r))
		}
	case columnar.PhysBool:
		for r := range n {
			v.Bools[r] = m.keys.at(from+r) != 0
		}
	}
	if g := int(m.nullG); g >= from && g < to {
		v.Valid = columnar.NewBitmap(n)
		v.Valid.Clear(g - from)
	}
}

// seal drops the id tables, keeping the keys: see Seal.
func (m *intMap) seal() {
	m.ig = newIntGroups()
	m.newRows, m.rebased = nil, nil
}
