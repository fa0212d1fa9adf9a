package hashtab

import (
	"bytes"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// leadKeys groups by one integer key that determines the others, as in
// GROUP BY c_custkey, c_name, c_address, c_phone, … where the id is the
// table's key and the rest are its attributes (TPC-H Q10, Q18; most
// reports that group by an id and show its names). The composite path
// interns every string key of every group (a long hash and a table insert
// per column) and hashes all the words; here a row costs one integer
// lookup, and the other keys are only compared with the values its group
// stored when it was created (the same slice, or the same dictionary code,
// as the last row of that group is not compared again).
//
// Nothing guarantees the dependency: the first row whose other keys differ
// from its group's stored ones ends this mode, and every group made so far
// moves into the composite key table (migrate) — they are distinct full
// keys, because their lead values differ — so results never depend on the
// guess.
type leadKeys struct {
	col   int        // the lead key's column
	w     int        // words per group: the NULL mask, then one per key
	ig    *intGroups // the lead key's groups
	nullG int32      // the group of a NULL lead key; -1: none yet
	// keys holds group g's words at keys[g>>keyChunkBits][(g&keyChunkMask)*w:];
	// a string key's word is the arena reference of its length-prefixed
	// bytes.
	keys [][]uint64
	n    int
	text textArena
	// checked, per string key column: the group + 1 each code of a coded
	// batch's dictionary was last found equal for (dict.Remap hands out -1
	// for "not yet"; dictionaries never change under a pointer).
	checked  []dict.Remap
	masks    []uint64 // per batch row: the NULL mask of its keys
	hasNulls bool     // some key vector of this batch has NULLs
}

// chooseLead returns the column to lead a grouping of keys by, or -1: a
// string key must be among them (interning them is what this mode
// avoids), and the lead is the integer key with the most distinct values
// in the first batch (a determining key has at least as many as any key it
// determines), integers before dates and decimals on a tie.
func chooseLead(b *columnar.Batch, keys []*columnar.Vector) int {
	// Below leadMinGroups groups in the first batch interning costs
	// little, and the composite path's packed keys may apply.
	const leadMinGroups = 256
	hasString := false
	for _, v := range keys {
		if v.Type.Phys() == columnar.PhysBytes {
			hasString = true
		}
	}
	if !hasString || len(keys) < 2 {
		return -1
	}
	best, bestN := -1, 0
	seen := map[int64]struct{}{}
	for k, v := range keys {
		if v.Type.Phys() != columnar.PhysInt || v.Const {
			continue
		}
		clear(seen)
		b.ForEach(func(i int) {
			if v.Valid == nil || v.Valid.Get(i) {
				seen[v.Ints[i]] = struct{}{}
			}
		})

		n := len(seen)
		if best < 0 || n > bestN || n == bestN && IsPlainInt(v.Type) && !IsPlainInt(keys[best].Type) {
			best, bestN = k, n
		}
	}
	if bestN < leadMinGroups || !leadsBatch(b, keys, best) {
		return -1
	}
	return best
}

// leadsBatch reports whether, within batch b, every two rows of equal
// non-NULL key col have equal other keys: a lead the first batch already
// contradicts would only build groups to migrate (TPC-H Q16's GROUP BY
// p_brand, p_type, p_size, ps_suppkey, where suppkeys repeat over parts).
func leadsBatch(b *columnar.Batch, keys []*columnar.Vector, col int) bool {
	lead := keys[col]
	first := make(map[int64]int, b.Live())
	ok := true
	b.ForEach(func(i int) {
		j := idx(lead, i)
		if !ok || lead.IsNull(j) {
			return
		}
		f, seen := first[lead.Ints[j]]
		if !seen {
			first[lead.Ints[j]] = i
			return
		}
		for k, v := range keys {
			if k != col && !sameKey(v, idx(v, f), idx(v, i)) {
				ok = false
				return
			}
		}
	})
	return ok
}

// sameKey reports whether rows a and b of key vector v are the same key
// (both NULL, or equal values; floats by their key words).
func sameKey(v *columnar.Vector, a, b int) bool {
	an, bn := v.IsNull(a), v.IsNull(b)
	if an || bn {
		return an && bn
	}
	switch v.Type.Phys() {
	case columnar.PhysInt:
		return v.Ints[a] == v.Ints[b]
	case columnar.PhysUint:
		return v.Uints[a] == v.Uints[b]
	case columnar.PhysBool:
		return v.Bools[a] == v.Bools[b]
	case columnar.PhysFloat:
		return FloatWord(v.Floats[a]) == FloatWord(v.Floats[b])
	case columnar.PhysBytes:
		return bytes.Equal(bytesAt(v, a), bytesAt(v, b))
	}
	return false // a kind lead keys do not compare: no lead
}

// IsPlainInt reports whether t is an integer type, not one stored as an
// integer (DATE, TIMESTAMP, DECIMAL, …).
func IsPlainInt(t columnar.Type) bool {
	switch t.ID {
	case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Int64, columnar.Uint8, columnar.Uint16, columnar.Uint32:
		return true
	}
	return false
}

func newLeadKeys(col, nkeys int) *leadKeys {
	return &leadKeys{
		col:     col,
		w:       1 + nkeys,
		ig:      newIntGroups(),
		nullG:   -1,
		checked: make([]dict.Remap, nkeys),
	}
}

// key returns group g's words.
func (l *leadKeys) key(g int32) []uint64 {
	o := int(g&keyChunkMask) * l.w
	return l.keys[g>>keyChunkBits][o : o+l.w]
}

// str returns the string whose word is ref.
func (l *leadKeys) str(ref uint64) []byte { return l.text.prefixed(ref) }

// bytes is the memory the lead table holds.
func (l *leadKeys) bytes() int64 {
	return l.ig.bytes() + keyChunkBytes(l.keys) + l.text.bytes()
}

// assign sets gids[i] for the live rows of b, creating groups through
// newGroup; it returns false, having changed nothing a later assign could
// see except groups it created (which are stored), when some row's other
// keys differ from its group's: the caller then migrates.
func (l *leadKeys) assign(b *columnar.Batch, keys []*columnar.Vector, gids []int32, newGroup func(i int) int32) bool {
	l.fillMasks(b, keys)
	lead := keys[l.col]
	var row int
	create := func() int32 {
		g := newGroup(row)
		l.store(g, keys, row)
		return g
	}
	b.ForEach(func(i int) {
		row = i
		j := idx(lead, i)
		if lead.Valid != nil && !lead.Valid.Get(j) {
			if l.nullG < 0 {
				l.nullG = create()
			}
			gids[i] = l.nullG
			return
		}
		v := lead.Ints[j]
		if g, ok := l.ig.known(v); ok {
			gids[i] = g
			return
		}
		gids[i] = l.ig.find(v, l.n, create)
	})

	return l.check(b, keys, gids)
}

// fillMasks sets l.masks[i] to row i's NULL mask.
func (l *leadKeys) fillMasks(b *columnar.Batch, keys []*columnar.Vector) {
	if cap(l.masks) < b.Len {
		l.masks = make([]uint64, max(b.Len, columnar.MaxBatch))
	}
	masks := l.masks[:b.Len]
	clear(masks)
	l.hasNulls = false
	for k, v := range keys {
		if v.Valid == nil {
			continue
		}
		l.hasNulls = true
		bit := uint64(1) << k
		b.ForEach(func(i int) {
			if !v.Valid.Get(idx(v, i)) {
				masks[i] |= bit
			}
		})

	}
}

// store records row i's keys as group g's.
func (l *leadKeys) store(g int32, keys []*columnar.Vector, i int) {
	l.keys = keyChunkFor(l.keys, g, l.w)
	last := len(l.keys) - 1
	l.keys[last] = roomFor(l.keys[last], l.w, (keyChunkMask+1)*l.w)
	mask := l.masks[i]
	l.keys[last] = append(l.keys[last], mask)
	for k, v := range keys {
		x := uint64(0)
		if mask&(1<<k) == 0 {
			j := idx(v, i)
			switch v.Type.Phys() {
			case columnar.PhysInt:
				x = uint64(v.Ints[j])
			case columnar.PhysUint:
				x = v.Uints[j]
			case columnar.PhysBool:
				if v.Bools[j] {
					x = 1
				}
			case columnar.PhysBytes:
				s := bytesAt(v, j)
				x = l.text.addPrefixed(s)
			}
		}
		l.keys[last] = append(l.keys[last], x)
	}
	l.n++
}

// check reports whether every live row's keys equal its group's.
func (l *leadKeys) check(b *columnar.Batch, keys []*columnar.Vector, gids []int32) bool {
	if l.hasNulls {
		ok := true
		b.ForEach(func(i int) {
			if ok && l.key(gids[i])[0] != l.masks[i] {
				ok = false
			}
		})

		if !ok {
			return false
		}
	}
	for k, v := range keys {
		if k == l.col {
			continue
		}
		col, bit := 1+k, uint64(1)<<k
		ok := true
		switch v.Type.Phys() {
		case columnar.PhysInt:
			vals := v.Ints
			b.ForEach(func(i int) {
				if ok && l.masks[i]&bit == 0 && l.key(gids[i])[col] != uint64(vals[idx(v, i)]) {
					ok = false
				}
			})

		case columnar.PhysUint:
			vals := v.Uints
			b.ForEach(func(i int) {
				if ok && l.masks[i]&bit == 0 && l.key(gids[i])[col] != vals[idx(v, i)] {
					ok = false
				}
			})

		case columnar.PhysBool:
			vals := v.Bools
			b.ForEach(func(i int) {
				if ok && l.masks[i]&bit == 0 && (l.key(gids[i])[col] != 0) != vals[idx(v, i)] {
					ok = false
				}
			})

		case columnar.PhysBytes:
			ok = l.checkStrings(b, k, v, gids)
		}
		if !ok {
			return false
		}
	}
	return true
}

// checkStrings is check for string key k.
func (l *leadKeys) checkStrings(b *columnar.Batch, k int, v *columnar.Vector, gids []int32) bool {
	col, bit := 1+k, uint64(1)<<k
	ok := true
	if d, codes, coded := dict.Of(v); coded {
		// table[code] is the group + 1 the code was last found equal for.
		table := l.checked[k].Table(d)
		b.ForEach(func(i int) {
			if !ok || l.masks[i]&bit != 0 {
				return
			}
			g, code := gids[i], codes[idx(v, i)]
			if table[code] == g+1 {
				return
			}
			if !bytes.Equal(l.str(l.key(g)[col]), d.Value(code)) {
				ok = false
				return
			}
			table[code] = g + 1
		})

		return ok
	}
	// A join repeats a build row's strings over its matches as the same
	// slice: the previous row's slice, of the same group, was found equal.
	// Only within the batch: the next one may reuse the memory.
	var last []byte
	lastG := int32(-1)
	b.ForEach(func(i int) {
		if !ok || l.masks[i]&bit != 0 {
			return
		}
		s, g := v.Bytes[idx(v, i)], gids[i]
		if g == lastG && len(s) == len(last) && (len(s) == 0 || &s[0] == &last[0]) {
			return
		}
		if !bytes.Equal(l.str(l.key(g)[col]), s) {
			ok = false
			return
		}
		last, lastG = s, g
	})

	return ok
}

// migrate moves every group into c's key table, under its own id, with
// its string keys interned: c then groups by all its keys.
func (l *leadKeys) migrate(c *compositeKeys) {
	key := make([]uint64, l.w)
	for g := int32(0); int(g) < l.n; g++ {
		copy(key, l.key(g))
		for k, t := range c.types {
			if t.Phys() == columnar.PhysBytes && key[0]&(1<<k) == 0 {
				key[1+k] = c.intern(k, l.str(key[1+k]))
			}
		}
		c.tab.find(key, hashWords(key), func() int32 { return g })
	}
}
