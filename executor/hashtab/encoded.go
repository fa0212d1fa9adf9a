package hashtab

import (
	"encoding/binary"

	"github.com/b2sql/b2sql/columnar"
)

// encodedMap is the Map of keys hashed as one byte string each (EncodeKey)
// in a strTable: for more key columns than the word table's NULL mask
// holds, and for groupings whose first batch shows long, mostly distinct
// plain strings (names, addresses, comments), where interning each column
// would cost a long hash and a copy per column and new value, against one
// hash of the whole key here. The table keeps every key's encoding, which
// Keys decodes; float columns also keep their first value (floats).
type encodedMap struct {
	types   []columnar.Type
	tab     *strTable
	key     []byte
	floats  []chunked[float64]
	hasFlt  bool
	newRows []int
}

func newEncodedMap(types []columnar.Type) *encodedMap {
	m := &encodedMap{types: types, tab: newValueStrTable(), floats: make([]chunked[float64], len(types))}
	for _, t := range types {
		if t.Phys() == columnar.PhysFloat {
			m.hasFlt = true
		}
	}
	return m
}

func (m *encodedMap) Len() int { return m.tab.n }

func (m *encodedMap) Growth(n int) int64 { return m.tab.growth(n) }

func (m *encodedMap) Bytes() int64 {
	n := m.tab.bytes() + 8*int64(cap(m.newRows))
	for k := range m.floats {
		n += m.floats[k].bytes(8)
	}
	return n
}

func (m *encodedMap) Assign(b *columnar.Batch, keys []*columnar.Vector, gids []int32) []int {
	m.newRows = m.newRows[:0]
	var row int
	create := func() int32 {
		g := int32(m.tab.n)
		m.newRows = append(m.newRows, row)
		if m.hasFlt {
			pushFloats(m.floats, keys, row)
		}
		return g
	}
	b.ForEach(func(i int) {
		m.key = EncodeKey(m.key[:0], keys, i)
		row = i
		gids[i] = m.tab.find(m.key, create)
	})

	return m.newRows
}

func (m *encodedMap) Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	m.key = m.find(m.key, b, keys, gids)
}

// find is Find through the scratch key (returned grown).
func (m *encodedMap) find(key []byte, b *columnar.Batch, keys []*columnar.Vector, gids []int32) []byte {
	b.ForEach(func(i int) {
		key = EncodeKey(key[:0], keys, i)
		gids[i] = m.tab.lookup(key)
	})

	return key
}

func (m *encodedMap) Finder() Finder { return &encodedFinder{m: m} }

type encodedFinder struct {
	m   *encodedMap
	key []byte
}

func (f *encodedFinder) Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	f.key = f.m.find(f.key, b, keys, gids)
}

// Keys decodes the stored encodings of ids [from, to).
func (m *encodedMap) Keys(cols []*columnar.Vector, from, to int) {
	n := to - from
	for _, v := range cols {
		v.Reset(n)
	}
	for r := range n {
		key := m.tab.value(from + r)
		for k, v := range cols {
			if key[0] == 0 {
				if v.Valid == nil {
					v.Valid = columnar.NewBitmap(n)
				}
				v.Valid.Clear(r)
				key = key[1:]
				continue
			}
			key = key[1:]
			switch v.Type.Phys() {
			case columnar.PhysBool:
				v.Bools[r] = key[0] != 0
				key = key[1:]
			case columnar.PhysInt:
				v.Ints[r] = int64(binary.LittleEndian.Uint64(key))
				key = key[8:]
			case columnar.PhysUint:
				v.Uints[r] = binary.LittleEndian.Uint64(key)
				key = key[8:]
			case columnar.PhysFloat:
				v.Floats[r] = m.floats[k].at(from + r)
				key = key[8:]
			case columnar.PhysBytes:
				l, w := binary.Uvarint(key)
				key = key[w:]
				v.Bytes[r] = key[:l:l]
				key = key[l:]
			}
		}
	}
}

// EncodeKey appends an unambiguous encoding of row i of vecs: a NULL flag
// per column, then 1 byte for a boolean, 8 bytes for other fixed-width
// values (floats with -0 folded into 0 and one NaN, as SQL compares them)
// or a length-prefixed payload for bytes, the normal form for nested
// values (nestedkey.go). Dictionary-coded and Const vectors are read
// through.
func EncodeKey(dst []byte, vecs []*columnar.Vector, i int) []byte {
	for _, v := range vecs {
		j := idx(v, i)
		if v.IsNull(j) {
			dst = append(dst, 0)
			continue
		}
		dst = append(dst, 1)
		if v.Type.IsNested() {
			dst = appendNestedKey(dst, v, j)
			continue
		}
		dst = appendFlatKey(dst, v, j)
	}
	return dst
}
