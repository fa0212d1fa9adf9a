package hashtab

import (
	"hash/maphash"
	"math"
	"math/bits"
	"slices"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// compositeKeys is the Map of several key columns (or one floating-point
// column), through a keyTable: each row's key becomes 1+len(keys) words,
// a NULL mask and one word per key. Integers, dates, decimals and booleans are their own word;
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
	// (Keys) instead of being copied per group into a row store, whose
	// [][]byte the GC scanned at every cycle.
	types []columnar.Type
	// floats keeps each float column's value per id as first seen: its
	// word folds -0 into 0 and every NaN into one, so it would not give
	// back the first value (nil for the other columns).
	floats []chunked[float64]
	hasFlt bool
	// packed: while every key fits one 64-bit word, groups are found by
	// it (packed.go); nil once they do not, or for a float key.
	packed *packedKeys
	// lead: while one integer key is seen to determine the others, groups
	// are found by it alone (lead.go).
	lead    *leadKeys
	decided bool // the first batch chose (or not) a lead key or enc
	// enc: the first batch showed long, mostly distinct plain strings,
	// which interning would copy and hash per column: every key goes to
	// an encoded-key table instead (encoded.go).
	enc     *encodedMap
	n       int                // ids handed out
	cur     []*columnar.Vector // the keys of the batch being assigned
	newRows []int
	out     []uint64 // Keys' scratch: the words of the groups it rebuilds
}

func newCompositeKeys(types []columnar.Type) *compositeKeys {
	c := &compositeKeys{
		w:       1 + len(types),
		interns: make([]*strTable, len(types)),
		nids:    make([]int32, len(types)),
		remaps:  make([]dict.Remap, len(types)),
		types:   types,
		floats:  make([]chunked[float64], len(types)),
	}
	c.tab = newKeyTable(c.w)
	c.packed = newPackedKeys(types)
	for i, t := range types {
		switch t.Phys() {
		case columnar.PhysBytes:
			c.interns[i] = newValueStrTable()
		case columnar.PhysFloat:
			c.hasFlt = true
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
	if c.hasFlt {
		return false // a float key's word is not its first value: no lead store
	}
	if col := chooseLead(b, keys); col >= 0 {
		c.lead, c.packed = newLeadKeys(col, len(keys)), nil
	}
	return c.lead != nil
}

// keyOf returns group g's key words.
func (c *compositeKeys) keyOf(g int32) []uint64 {
	if c.lead != nil {
		return c.lead.key(g)
	}
	if c.packed != nil {
		return c.packed.key(g)
	}
	return c.tab.key(g)
}

// Keys rebuilds the keys of ids [from, to) from their key words (floats
// from their first values). Each group's words are read once into a
// scratch (a packed key is unpacked once, not once per column), then each
// column is filled by a loop of its type.
func (c *compositeKeys) Keys(cols []*columnar.Vector, from, to int) {
	if c.enc != nil {
		c.enc.Keys(cols, from, to)
		return
	}
	n, w := to-from, c.w
	if cap(c.out) < n*w {
		c.out = make([]uint64, n*w)
	}
	words := c.out[:n*w]
	for r := 0; r < n; r++ {
		copy(words[r*w:r*w+w], c.keyOf(int32(from+r)))
	}
	for k, v := range cols {
		v.Reset(n)
		col, bit := k+1, uint64(1)<<k
		nulls := false
		for r := 0; r < n; r++ {
			if words[r*w]&bit != 0 {
				nulls = true
				break
			}
		}
		switch v.Type.Phys() {
		case columnar.PhysInt:
			for r := range v.Ints[:n] {
				v.Ints[r] = int64(words[r*w+col])
			}
		case columnar.PhysUint:
			for r := range v.Uints[:n] {
				v.Uints[r] = words[r*w+col]
			}
		case columnar.PhysBool:
			for r := range v.Bools[:n] {
				v.Bools[r] = words[r*w+col] != 0
			}
		case columnar.PhysFloat:
			c.floats[k].copyOut(v.Floats[:n], from, to)
		case columnar.PhysBytes:
			for r := range v.Bytes[:n] {
				if words[r*w]&bit != 0 {
					v.Bytes[r] = nil
					continue
				}
				if c.lead != nil {
					v.Bytes[r] = c.lead.str(words[r*w+col])
				} else {
					v.Bytes[r] = c.interns[k].value(int(words[r*w+col]))
				}
			}
		}
		if nulls {
			v.Valid = columnar.NewBitmap(n) // all valid
			for r := 0; r < n; r++ {
				if words[r*w]&bit != 0 {
					v.Valid.Clear(r)
				}
			}
		}
	}
}

// fill writes the key words of the live rows of b into c.words, interning
// new strings (create) or giving a string not interned yet the word no
// key has.
func (c *compositeKeys) fill(b *columnar.Batch, keys []*columnar.Vector, create bool) {
	intern := c.intern
	if !create {
		intern = c.internedID
	}
	c.words = c.fillWords(c.words, c.remaps, b, keys, intern)
}

// fillWords is fill into words (grown when short, and returned), with the
// per-code string ids of remaps.
func (c *compositeKeys) fillWords(words []uint64, remaps []dict.Remap, b *columnar.Batch, keys []*columnar.Vector, intern func(int, []byte) uint64) []uint64 {
	w := c.w
	if cap(words) < b.Len*w {
		words = make([]uint64, max(b.Len, columnar.MaxBatch)*w)
	}
	all := words
	words = words[:b.Len*w]
	b.ForEach(func(i int) { words[i*w] = 0 })
	for k, v := range keys {
		col := k + 1
		if v.Type.ID == columnar.Null {
			b.ForEach(func(i int) { words[i*w] |= 1 << k; words[i*w+col] = 0 })
			continue
		}
		if v.Const {
			x, null := c.constWord(k, v, intern)
			b.ForEach(func(i int) {
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
			b.ForEach(func(i int) {
				x := uint64(0)
				if vals[i] {
					x = 1
				}
				words[i*w+col] = x
			})

		case columnar.PhysFloat:
			vals := v.Floats
			b.ForEach(func(i int) { words[i*w+col] = FloatWord(vals[i]) })
		case columnar.PhysBytes:
			if d, codes, ok := dict.Of(v); ok {
				table := remaps[k].Table(d)
				if b.Sel == nil && v.Valid == nil {
					// The common case as a plain loop: one table load a row.
					for i, code := range codes[:b.Len] {
						id := table[code]
						if id < 0 {
							id = int32(intern(k, d.Value(code)))
							table[code] = id
						}
						words[i*w+col] = uint64(id)
					}
					continue
				}
				b.ForEach(func(i int) {
					if v.Valid != nil && !v.Valid.Get(i) {
						return
					}
					code := codes[i]
					id := table[code]
					if id < 0 {
						id = int32(intern(k, d.Value(code)))
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
				b.ForEach(func(i int) {
					if v.Valid != nil && !v.Valid.Get(i) {
						return
					}
					s := vals[i]
					if len(s) > 0 && len(s) == len(last) && &s[0] == &last[0] {
						words[i*w+col] = lastID
						return
					}
					last, lastID = s, intern(k, s)
					words[i*w+col] = lastID
				})

			}
		}
		if v.Valid != nil {
			// A NULL key is its mask bit; its payload word is garbage, so
			// zero it to make all NULLs of the column one key.
			b.ForEach(func(i int) {
				if !v.Valid.Get(i) {
					words[i*w] |= 1 << k
					words[i*w+col] = 0
				}
			})

		}
	}
	return all
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
func (c *compositeKeys) constWord(k int, v *columnar.Vector, intern func(int, []byte) uint64) (uint64, bool) {
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
		return FloatWord(v.Floats[0]), false
	case columnar.PhysBytes:
		return intern(k, bytesAt(v, 0)), false
	}
	return 0, false
}

// FloatWord is the key word of a float: equal SQL values (-0 and 0, every
// NaN) give one word.
func FloatWord(f float64) uint64 {
	if f == 0 {
		return 0
	}
	if f != f {
		return math.Float64bits(math.NaN())
	}
	return math.Float64bits(f)
}

// newGroup creates the id of row i's key (c.cur).
func (c *compositeKeys) newGroup(i int) int32 {
	g := int32(c.n)
	c.n++
	c.newRows = append(c.newRows, i)
	if c.hasFlt {
		pushFloats(c.floats, c.cur, i)
	}
	return g
}

func (c *compositeKeys) Len() int { return c.n }

func (c *compositeKeys) Growth(n int) int64 {
	if c.enc != nil {
		return c.enc.Growth(n)
	}
	g := c.tab.growth(n)
	if c.packed != nil {
		g = c.packed.growth(n, c.n)
	}
	if cap(c.words) < n*c.w {
		g += 8 * int64(max(n, columnar.MaxBatch)*c.w)
	}
	for _, t := range c.interns {
		if t != nil {
			g += t.growth(n)
		}
	}
	return g
}

func (c *compositeKeys) Bytes() int64 {
	if c.enc != nil {
		return c.enc.Bytes()
	}
	n := c.tab.bytes() + 8*int64(cap(c.words)) + 8*int64(cap(c.newRows))
	for k, t := range c.interns {
		if t != nil {
			n += t.bytes()
		}
		n += c.floats[k].bytes(8)
	}
	if c.packed != nil {
		n += c.packed.bytes()
	}
	if c.lead != nil {
		n += c.lead.bytes()
	}
	return n
}

// decide makes the first batch's choices: a lead key, or the encoded
// table for long plain strings.
func (c *compositeKeys) decide(b *columnar.Batch, keys []*columnar.Vector) {
	if c.decided {
		return
	}
	if !c.pickLead(b, keys) && longPlainStrings(b, keys) {
		c.enc = newEncodedMap(c.types)
	}
}

// Assign sets gids[i] for the live rows of b.
func (c *compositeKeys) Assign(b *columnar.Batch, keys []*columnar.Vector, gids []int32) []int {
	c.decide(b, keys)
	if c.enc != nil {
		rows := c.enc.Assign(b, keys, gids)
		c.n = c.enc.Len()
		return rows
	}
	c.newRows, c.cur = c.newRows[:0], keys
	defer func() { c.cur = nil }()
	if c.lead != nil {
		if c.lead.assign(b, keys, gids, c.newGroup) {
			return c.newRows
		}
		// The lead key does not determine the others: group by all keys
		// from now on, this batch included (its new groups are moved too;
		// the rows that create more come after them, so sort).
		c.lead.migrate(c)
		c.lead = nil
		defer slices.Sort(c.newRows)
	}
	if c.packed != nil && c.packed.packDirect(c, b, keys) {
		c.packed.assignPacked(c, b, gids)
		return c.newRows
	}
	c.fill(b, keys, true)
	if c.packed != nil {
		if c.packed.assign(c, b, gids) {
			return c.newRows
		}
		c.packed = nil
	}
	w := c.w
	var row int
	create := func() int32 { return c.newGroup(row) }
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
		return c.newRows
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
	return c.newRows
}

// Find sets gids[i] for the live rows of b, or -1.
func (c *compositeKeys) Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	if c.enc != nil {
		c.enc.Find(b, keys, gids)
		return
	}
	c.settle()
	c.words = c.find(c.words, c.remaps, b, keys, gids)
}

// settle ends lead mode (the lead table finds by one key; the word table
// holds every key) and the first batch's choice, so that lookups only
// read the word table.
func (c *compositeKeys) settle() {
	if c.lead != nil {
		c.lead.migrate(c)
		c.lead = nil
	}
	c.decided = true
}

// find is Find through the scratch words and remaps (returned grown).
func (c *compositeKeys) find(words []uint64, remaps []dict.Remap, b *columnar.Batch, keys []*columnar.Vector, gids []int32) []uint64 {
	words = c.fillWords(words, remaps, b, keys, c.internedID)
	w := c.w
	if p := c.packed; p != nil {
		b.ForEach(func(i int) { gids[i] = p.lookup(words[i*w : i*w+w]) })
		return words
	}
	b.ForEach(func(i int) {
		key := words[i*w : i*w+w]
		gids[i] = c.tab.lookup(key, hashWords(key))
	})

	return words
}

// Finder settles the Map (see settle: call it before sharing) and returns
// a lookup with scratch words and per-code ids of its own.
func (c *compositeKeys) Finder() Finder {
	if c.enc != nil {
		return c.enc.Finder()
	}
	c.settle()
	return &compositeFinder{c: c, remaps: make([]dict.Remap, len(c.types))}
}

type compositeFinder struct {
	c      *compositeKeys
	words  []uint64
	remaps []dict.Remap
}

func (f *compositeFinder) Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32) {
	f.words = f.c.find(f.words, f.remaps, b, keys, gids)
}

// internedID returns the id of string v in column col, or the word no
// interned string has.
func (c *compositeKeys) internedID(col int, v []byte) uint64 {
	if id := c.interns[col].lookup(v); id >= 0 {
		return uint64(id)
	}
	return ^uint64(0)
}

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
		b.ForEach(func(i int) {
			if v.Valid == nil || v.Valid.Get(i) {
				total += len(v.Bytes[i])
				n++
			}
		})
		if n > 0 && total > 16*n && 2*distinctEstimate(b, v) > n {
			return true
		}
	}
	return false
}

// distinctEstimate estimates the distinct non-NULL values of string column
// v over the live rows of b by linear counting: each value's hash sets a
// bit of 4096, and the share of bits left clear gives the count (within a
// few percent for a batch's rows). It allocates nothing: a map of the
// values, which it replaced, was 7% of TPC-H Q16, built by every final's
// tables on their first batch.
func distinctEstimate(b *columnar.Batch, v *columnar.Vector) int {
	const m = 4096
	var bitsSet [m / 64]uint64
	b.ForEach(func(i int) {
		if v.Valid == nil || v.Valid.Get(i) {
			h := maphash.Bytes(distinctSeed, v.Bytes[i]) % m
			bitsSet[h/64] |= 1 << (h % 64)
		}
	})
	zeros := 0
	for _, w := range bitsSet {
		zeros += 64 - bits.OnesCount64(w)
	}
	if zeros == 0 {
		return m * 8 // saturated: far more distinct values than bits
	}
	return int(math.Round(m * math.Log(float64(m)/float64(zeros))))
}

// distinctSeed seeds distinctEstimate's hashes.
var distinctSeed = maphash.MakeSeed()
