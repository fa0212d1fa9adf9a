package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// assignCodedGroups is assignGroups for a single dictionary-coded string
// key. The group of a code is looked up in the string table once per code
// and dictionary (dict.Remap) and then read from a dense table: per row,
// one load of the code and one of the table, no hashing. Groups live in the
// same string table as plain-string batches use, so chunks that came coded
// and chunks that came plain (PLAIN fallback pages) agree on group ids.
func (h *HashAgg) assignCodedGroups(b *columnar.Batch, k *columnar.Vector, gids []int32) {
	d, codes, _ := dict.Of(k)
	table := h.remap.Table(d)
	slow := func(i int) int32 {
		if k.Valid != nil && !k.Valid.Get(i) {
			if h.nullGID < 0 {
				h.nullGID = h.newKeyGroup(k.Type, nil, true)
			}
			return h.nullGID
		}
		c := codes[i]
		if g := table[c]; g >= 0 {
			return g
		}
		v := d.Value(c)
		g := h.strTab.find(v, func() int32 { return h.newKeyGroup(k.Type, v, false) })
		table[c] = g
		return g
	}
	if k.Valid == nil && b.Sel == nil {
		for i, c := range codes[:b.Len] {
			g := table[c]
			if g < 0 {
				g = slow(i)
			}
			gids[i] = g
		}
		return
	}
	forEach(b, func(i int) { gids[i] = slow(i) })
}

// newKeyGroup creates a group whose single key is v (or NULL), storing the
// key as a plain string: results are translated back once per group.
func (h *HashAgg) newKeyGroup(t columnar.Type, v []byte, null bool) int32 {
	one := &h.keyOne
	one.Type = t
	one.Reset(1)
	one.Bytes[0] = v
	if null {
		one.Valid = columnar.Bitmap{0}
	}
	h.keys.appendRows(&columnar.Batch{Len: 1}, []*columnar.Vector{one})
	g := int32(h.ngroups)
	h.ngroups++
	for _, s := range h.states {
		s.grow(h.ngroups)
	}
	return g
}
