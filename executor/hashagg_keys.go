package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// compositeKeys groups by several keys (or one floating-point key) through
// a keyTable: each row's key becomes 1+len(keys) words, a NULL mask and one
// word per key. Integers, dates, decimals and booleans are their own word;
// floats their bits (-0 folded into 0, one NaN); strings an id from a
// per-column intern table, looked up once per dictionary code when the
// column comes coded, so a string key costs a table load per row.
type compositeKeys struct {
	tab     *keyTable
	w       int
	words   []uint64 // per batch: row i's key at words[i*w : (i+1)*w]
	interns []*strTable
	nids    []int32 // per string column: ids handed out so far
	remaps  []dict.Remap
	// The intern tables keep each string column's values (id i is
	// interns[k].value(i)): group keys are rebuilt from the key words
	// (emit) instead of being copied per group into a row store, whose
	// [][]byte the GC scanned at every cycle.
	types []columnar.Type
	// ownKeys: every key can be rebuilt from its word (no float key,
	// whose word folds -0 into 0 and would not give back the first value).
	ownKeys bool
	small   *smallKeys // tiny key domains: a direct table (hashagg_small.go)
	// lead: while one integer key is seen to determine the others, groups
	// are found by it alone (hashagg_lead.go).
	lead    *leadKeys
	decided bool // the first batch chose (or not) a lead key
}

func newCompositeKeys(types []columnar.Type) *compositeKeys {
	c := &compositeKeys{
		w:       1 + len(types),
		interns: make([]*strTable, len(types)),
		nids:    make([]int32, len(types)),
		remaps:  make([]dict.Remap, len(types)),
		types:   types,
		ownKeys: true,
	}
	c.tab = newKeyTable(c.w)
	c.small = newSmallKeys(types)
	for i, t := range types {
		switch t.Phys() {
		case columnar.PhysBytes:
			c.interns[i] = newValueStrTable()
		case columnar.PhysFloat:
			c.ownKeys = false
		}
	}
	return c
}

// intern returns the id of string v in column col.
func (c *compositeKeys) intern(col int, v []byte) uint64 {
	id := c.interns[col].find(v, func() int32 {
		c.nids[col]++
		return c.nids[col] - 1
	})
	return uint64(id)
}

// pickLead decides, on the first batch, whether to group by a lead key
// (chooseLead) and reports whether it does.
func (c *compositeKeys) pickLead(b *columnar.Batch, keys []*columnar.Vector) bool {
	if c.decided {
		return c.lead != nil
	}
	c.decided = true
	if !c.ownKeys {
		return false // a float key's word is not its first value: no lead store
	}
	if col := chooseLead(b, keys); col >= 0 {
		c.lead, c.small = newLeadKeys(col, len(keys)), nil
	}
	return c.lead != nil
}

// keyOf returns group g's key words.
func (c *compositeKeys) keyOf(g int32) []uint64 {
	if c.lead != nil {
		return c.lead.key(g)
	}
	return c.tab.key(g)
}

// emit fills cols (one vector per key, typed) with the keys of groups
// [from, to), rebuilt from their key words; only when ownKeys.
func (c *compositeKeys) emit(cols []*columnar.Vector, from, to int) {
	n := to - from
	for k, v := range cols {
		v.Reset(n)
		col, bit := k+1, uint64(1)<<k
		for r := 0; r < n; r++ {
			key := c.keyOf(int32(from + r))
			if key[0]&bit != 0 {
				if v.Valid == nil {
					v.Valid = columnar.NewBitmap(n)
					for i := 0; i < n; i++ {
						v.Valid.Set(i)
					}
				}
				v.Valid.Clear(r)
				continue
			}
			x := key[col]
			switch v.Type.Phys() {
			case columnar.PhysInt:
				v.Ints[r] = int64(x)
			case columnar.PhysUint:
				v.Uints[r] = x
			case columnar.PhysBool:
				v.Bools[r] = x != 0
			case columnar.PhysBytes:
				if c.lead != nil {
					v.Bytes[r] = c.lead.str(x)
				} else {
					v.Bytes[r] = c.interns[k].value(int(x))
				}
			}
		}
	}
}

// fill writes the key words of the live rows of b.
func (c *compositeKeys) fill(b *columnar.Batch, keys []*columnar.Vector) {
	w := c.w
	if cap(c.words) < b.Len*w {
		c.words = make([]uint64, max(b.Len, columnar.MaxBatch)*w)
	}
	words := c.words[:b.Len*w]
	forEach(b, func(i int) { words[i*w] = 0 })
	for k, v := range keys {
		col := k + 1
		if v.Type.ID == columnar.Null {
			forEach(b, func(i int) { words[i*w] |= 1 << k; words[i*w+col] = 0 })
			continue
		}
		if v.Const {
			x, null := c.constWord(k, v)
			forEach(b, func(i int) {
				words[i*w+col] = x
				if null {
					words[i*w] |= 1 << k
				}
			})
			continue
		}
		switch v.Type.Phys() {
		case columnar.PhysInt:
			fillWords(words, w, col, v.Ints, b)
		case columnar.PhysUint:
			fillWords(words, w, col, v.Uints, b)
		case columnar.PhysBool:
			vals := v.Bools
			forEach(b, func(i int) {
				x := uint64(0)
				if vals[i] {
					x = 1
				}
				words[i*w+col] = x
			})
		case columnar.PhysFloat:
			vals := v.Floats
			forEach(b, func(i int) { words[i*w+col] = floatWord(vals[i]) })
		case columnar.PhysBytes:
			if d, codes, ok := dict.Of(v); ok {
				table := c.remaps[k].Table(d)
				if b.Sel == nil && v.Valid == nil {
					// The common case as a plain loop: one table load a row.
					for i, code := range codes[:b.Len] {
						id := table[code]
						if id < 0 {
							id = int32(c.intern(k, d.Value(code)))
							table[code] = id
						}
						words[i*w+col] = uint64(id)
					}
					continue
				}
				forEach(b, func(i int) {
					if v.Valid != nil && !v.Valid.Get(i) {
						return // NULL: the mask below decides, the word is zeroed
					}
					code := codes[i]
					id := table[code]
					if id < 0 {
						id = int32(c.intern(k, d.Value(code)))
						table[code] = id
					}
					words[i*w+col] = uint64(id)
				})
			} else {
				// A join repeats a build row's strings over its matches
				// as the same slice: a value at the address of the
				// previous row's is not hashed again (TPC-H Q16's p_type
				// and p_brand over the four suppliers of each part).
				vals := v.Bytes
				var last []byte
				var lastID uint64
				forEach(b, func(i int) {
					if v.Valid != nil && !v.Valid.Get(i) {
						return
					}
					s := vals[i]
					if len(s) > 0 && len(s) == len(last) && &s[0] == &last[0] {
						words[i*w+col] = lastID
						return
					}
					last, lastID = s, c.intern(k, s)
					words[i*w+col] = lastID
				})
			}
		}
		if v.Valid != nil {
			// A NULL key is its mask bit; its payload word is garbage, so
			// zero it to make all NULLs of the column one key.
			forEach(b, func(i int) {
				if !v.Valid.Get(i) {
					words[i*w] |= 1 << k
					words[i*w+col] = 0
				}
			})
		}
	}
}

// fillWords sets word col of each live row's key to its value.
func fillWords[T int64 | uint64](words []uint64, w, col int, vals []T, b *columnar.Batch) {
	if b.Sel != nil {
		for _, i := range b.Sel {
			words[i*w+col] = uint64(vals[i])
		}
		return
	}
	vals = vals[:b.Len]
	for i, x := range vals {
		words[i*w+col] = uint64(x)
	}
}

// constWord is the word (and NULL flag) of a Const key vector.
func (c *compositeKeys) constWord(k int, v *columnar.Vector) (uint64, bool) {
	if v.IsNull(0) {
		return 0, true
	}
	switch v.Type.Phys() {
	case columnar.PhysInt:
		return uint64(v.Ints[0]), false
	case columnar.PhysUint:
		return v.Uints[0], false
	case columnar.PhysBool:
		if v.Bools[0] {
			return 1, false
		}
		return 0, false
	case columnar.PhysFloat:
		return floatWord(v.Floats[0]), false
	case columnar.PhysBytes:
		return c.intern(k, []byte(v.Value(0).S)), false
	}
	return 0, false
}

// floatWord is the key word of a float: equal SQL values (-0 and 0, every
// NaN) give one word.
func floatWord(f float64) uint64 {
	if f == 0 {
		return 0
	}
	if f != f {
		return math.Float64bits(math.NaN())
	}
	return math.Float64bits(f)
}

// assign sets gids[i] for the live rows of b; newGroup(i) creates the
// group of row i.
func (c *compositeKeys) assign(b *columnar.Batch, keys []*columnar.Vector, gids []int32, newGroup func(i int) int32) {
	if c.pickLead(b, keys) {
		if c.lead.assign(b, keys, gids, newGroup) {
			return
		}
		// The lead key does not determine the others: group by all keys
		// from now on, this batch included (its new groups are moved too).
		c.lead.migrate(c)
		c.lead = nil
	}
	c.fill(b, keys)
	if c.small != nil {
		if c.small.assign(c, b, gids, newGroup) {
			return
		}
		c.small = nil
	}
	w := c.w
	var row int
	create := func() int32 { return newGroup(row) }
	// Rows often repeat the previous row's key (the line items of one
	// order share their flags and dates): compare with it before hashing.
	var prev []uint64
	var prevG int32
	one := func(i int) {
		key := c.words[i*w : i*w+w]
		if prev != nil && equalWords(prev, key) {
			gids[i] = prevG
			return
		}
		row = i
		prevG = c.tab.find(key, hashWords(key), create)
		prev = key
		gids[i] = prevG
	}
	if b.Sel != nil {
		for _, i := range b.Sel {
			one(i)
		}
		return
	}
	// The common case, written out so that the repeat test stays inline.
	words := c.words[:b.Len*w]
	for i := 0; i < b.Len; i++ {
		key := words[i*w : i*w+w]
		if prev != nil && equalWords(prev, key) {
			gids[i] = prevG
			continue
		}
		row = i
		prevG = c.tab.find(key, hashWords(key), create)
		prev = key
		gids[i] = prevG
	}
}

// assignComposite is assignGroups through the composite key table.
func (h *HashAgg) assignComposite(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	h.newRows = h.newRows[:0]
	h.comp.assign(b, keys, gids, func(i int) int32 {
		g := int32(h.ngroups)
		h.ngroups++
		h.newRows = append(h.newRows, i)
		return g
	})
	h.flushNewGroups(b, keys)
}

// flushNewGroups stores the key values of the groups created by the rows
// h.newRows of b (numbered in row order while probing) with one
// appendRows, and grows the aggregate states once: high-cardinality
// groupings create a group for most rows, and doing both per group was a
// large part of their cost.
func (h *HashAgg) flushNewGroups(b *columnar.Batch, keys []*columnar.Vector) {
	if len(h.newRows) == 0 {
		return
	}
	if h.comp != nil && h.comp.ownKeys {
		// The key words are the stored keys (compositeKeys.emit).
		h.growStates()
		return
	}
	if h.intOwn {
		k := keys[0]
		for _, i := range h.newRows {
			j := idx(k, i)
			x := int64(0)
			if !k.IsNull(j) {
				x = k.Ints[j]
			}
			last := len(h.intKeys) - 1
			if last < 0 || len(h.intKeys[last]) == keyChunkMask+1 {
				h.intKeys = append(h.intKeys, make([]int64, 0, keyChunkMask+1))
				last++
			}
			h.intKeys[last] = append(h.intKeys[last], x)
		}
		h.growStates()
		return
	}
	// The rows store plain values: decode coded strings; a NULL-typed key
	// (GROUP BY NULL) is stored as a constant NULL.
	if len(h.plainNew) < len(keys) {
		h.plainNew = make([]*columnar.Vector, len(keys))
		h.decodedNew = make([]columnar.Vector, len(keys))
	}
	plain := h.plainNew[:len(keys)]
	for k, v := range keys {
		if v.Type.ID == columnar.Null {
			plain[k] = nullKey
			continue
		}
		plain[k] = decodeLive(v, b, &h.decodedNew[k])
	}
	h.keys.appendRows(&columnar.Batch{Len: b.Len, Sel: h.newRows}, plain)
	h.growStates()
}

// growStates gives the aggregate states room for every group.
func (h *HashAgg) growStates() {
	for _, s := range h.states {
		s.grow(h.ngroups)
	}
}

// nullKey is the stored value of a NULL-typed group key.
var nullKey = columnar.ConstVector(columnar.NullValue(columnar.TNull))

// longPlainStrings reports whether some string key of the first batch
// arrives plain (not dictionary-coded) with values of more than 16 bytes
// on average, mostly distinct: the composite table would intern each (one
// long hash and arena copy per column and new value), where the
// encoded-key map hashes one key per row. Short, coded or repetitive
// strings (TPC-H Q16's p_type) intern cheaply: per-code ids, a few table
// entries.
func longPlainStrings(b *columnar.Batch, keys []*columnar.Vector) bool {
	for _, v := range keys {
		if v.Type.Phys() != columnar.PhysBytes || v.Dict != nil || v.Const {
			continue
		}
		total, n := 0, 0
		seen := map[string]struct{}{}
		forEach(b, func(i int) {
			if v.Valid != nil && !v.Valid.Get(i) {
				return
			}
			total += len(v.Bytes[i])
			n++
			seen[string(v.Bytes[i])] = struct{}{}
		})
		if n > 0 && total > 16*n && 2*len(seen) > n {
			return true
		}
	}
	return false
}
