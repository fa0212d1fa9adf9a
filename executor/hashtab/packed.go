package hashtab

import (
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// packedKeys serves a compositeKeys while each row's key words fit, each
// offset from a base, in fields of one 64-bit word: the packed key then
// goes to intGroups, whose direct table indexes small packed keys with one
// load (DISTINCT region, category, flag: 5 + 7 + 1 bits) and whose integer
// hash table holds the others with the key in the slot, so a row costs
// neither a hash of several words nor a comparison with a key stored
// apart (GROUP BY region, user_id: 5 + 20 bits).
//
// The fields are sized from the values seen, not from the types: the
// first batch's range per column, widened when a later row falls outside
// (each widening at least doubles the field, so there are few). Groups are
// kept as their packed keys: a widening repacks them into a new intGroups;
// a layout past 64 bits moves every group into the word table under its
// own id (migrate), and the Map goes on there.
type packedKeys struct {
	// Per key word (the NULL mask, then one per key column): the field's
	// base, width and position. The mask's base is 0 and its field the
	// highest, so that keys without NULLs stay the small ones.
	base  []uint64
	width []uint
	shift []uint
	ig    *intGroups      // nil until the first live row sets the layout
	keys  chunked[uint64] // per group: its packed key
	// packed holds the batch's packed keys (row i's at packed[i]); words
	// one key's words, for keyOf.
	packed []uint64
	words  []uint64
}

// newPackedKeys returns the packed table for keys of types, or nil when
// a key is a float (its word is its bit pattern, no range to pack).
func newPackedKeys(types []columnar.Type) *packedKeys {
	for _, t := range types {
		if t.Phys() == columnar.PhysFloat {
			return nil
		}
	}
	w := 1 + len(types)
	return &packedKeys{
		base: make([]uint64, w), width: make([]uint, w), shift: make([]uint, w),
		words: make([]uint64, w),
	}
}

// wordSpan is the values one key word takes, as signed integers [lo, hi]
// (a word is an int64, a uint64 or an interned string's id).
type wordSpan struct {
	lo, hi int64
	seen   bool
}

func (s *wordSpan) add(x int64) {
	if !s.seen {
		s.lo, s.hi, s.seen = x, x, true
		return
	}
	s.lo, s.hi = min(s.lo, x), max(s.hi, x)
}

// spans returns the values of each key word over the live rows of b
// (NULL columns' words left out), merged with what the layout covers;
// false when that is not one signed interval (a field of 63 bits or more).
func (p *packedKeys) spans(c *compositeKeys, b *columnar.Batch) ([]wordSpan, bool) {
	w := c.w
	spans := make([]wordSpan, w)
	spans[0].add(0)
	if p.ig != nil {
		for k := range spans {
			lo := int64(p.base[k])
			hi := lo + int64(uint64(1)<<p.width[k]-1)
			if p.width[k] >= 63 || hi < lo {
				return nil, false
			}
			spans[k].add(lo)
			spans[k].add(hi)
		}
	}
	var mask uint64
	b.ForEach(func(i int) {
		key := c.words[i*w : i*w+w]
		mask |= key[0]
		for k := 1; k < w; k++ {
			if key[0]&(1<<(k-1)) == 0 {
				spans[k].add(int64(key[k]))
			}
		}
	})

	spans[0].add(int64(mask))
	return spans, true
}

// setLayout sizes the fields to spans and reports whether they fit 64
// bits. A non-negative word keeps base 0 when that costs at most one bit
// (ids and codes from 0 pack as themselves).
func (p *packedKeys) setLayout(spans []wordSpan) bool {
	total := uint(0)
	for k, s := range spans {
		span := uint64(s.hi - s.lo)
		p.base[k], p.width[k] = uint64(s.lo), uint(bits.Len64(span))
		if s.lo >= 0 && bits.Len64(uint64(s.hi)) <= bits.Len64(span)+1 {
			p.base[k], p.width[k] = 0, uint(bits.Len64(uint64(s.hi)))
		}
		if k > 0 {
			p.shift[k] = total
			total += p.width[k]
		}
	}
	p.shift[0] = total
	return total+p.width[0] <= 64
}

// pack returns key's packed word, or false when a word falls outside its
// field.
func (p *packedKeys) pack(key []uint64) (uint64, bool) {
	mask := key[0]
	if mask>>p.width[0] != 0 {
		return 0, false
	}
	v := mask << p.shift[0]
	for k := 1; k < len(key); k++ {
		if mask&(1<<(k-1)) != 0 {
			continue // a NULL is its mask bit: field 0
		}
		d := key[k] - p.base[k]
		if d>>p.width[k] != 0 {
			return 0, false
		}
		v |= d << p.shift[k]
	}
	return v, true
}

// unpack writes the words of packed key v into key.
func (p *packedKeys) unpack(v uint64, key []uint64) {
	field := func(k int) uint64 {
		if p.width[k] == 64 {
			return v
		}
		return v >> p.shift[k] & (uint64(1)<<p.width[k] - 1)
	}
	mask := field(0)
	key[0] = mask
	for k := 1; k < len(key); k++ {
		key[k] = 0
		if mask&(1<<(k-1)) == 0 {
			key[k] = field(k) + p.base[k]
		}
	}
}

// packBatch packs the live rows of b into p.packed and reports whether
// all fit.
func (p *packedKeys) packBatch(c *compositeKeys, b *columnar.Batch) bool {
	w := c.w
	if cap(p.packed) < b.Len {
		p.packed = make([]uint64, max(b.Len, columnar.MaxBatch))
	}
	packed := p.packed[:b.Len]
	if b.Sel == nil {
		// The common case written out: keys without NULLs, inline.
		words := c.words[:b.Len*w]
		base, width, shift := p.base[:w], p.width[:w], p.shift[:w]
		for i := range packed {
			key := words[i*w : i*w+w]
			if key[0] != 0 {
				v, ok := p.pack(key)
				if !ok {
					return false
				}
				packed[i] = v
				continue
			}
			v := uint64(0)
			for k := 1; k < w; k++ {
				d := key[k] - base[k]
				if d>>width[k] != 0 {
					return false
				}
				v |= d << shift[k]
			}
			packed[i] = v
		}
		return true
	}
	ok := true
	b.ForEach(func(i int) {
		if ok {
			packed[i], ok = p.pack(c.words[i*w : i*w+w])
		}
	})

	return ok
}

// assign is compositeKeys.Assign over the filled words. It returns false
// when the keys no longer fit 64 bits, having moved every group (those
// this batch created included) into c's word table: the caller then
// assigns the batch there.
func (p *packedKeys) assign(c *compositeKeys, b *columnar.Batch, gids []int32) bool {
	if b.Live() == 0 {
		return true
	}
	if !p.fit(c, b) {
		return false
	}
	p.assignPacked(c, b, gids)
	return true
}

// assignPacked sets gids from the batch's packed keys (p.packed).
func (p *packedKeys) assignPacked(c *compositeKeys, b *columnar.Batch, gids []int32) {
	var row int
	var val uint64
	create := func() int32 {
		g := c.newGroup(row)
		p.keys.push(val)
		return g
	}
	ig, packed := p.ig, p.packed
	one := func(i int) {
		v := packed[i]
		if g, ok := ig.known(int64(v)); ok {
			gids[i] = g
			return
		}
		row, val = i, v
		gids[i] = ig.find(int64(v), c.n, create)
	}
	if b.Sel != nil {
		for _, i := range b.Sel {
			one(i)
		}
		return
	}
	for lo := 0; lo < b.Len; lo += touchRun {
		hi := min(lo+touchRun, b.Len)
		touchInts(ig, packed[lo:hi])
		for i := lo; i < hi; i++ {
			v := packed[i]
			if g, ok := ig.known(int64(v)); ok {
				gids[i] = g
				continue
			}
			row, val = i, v
			gids[i] = ig.find(int64(v), c.n, create)
		}
	}
}

// packDirect packs the keys of b straight from the key vectors into
// p.packed, without the words fill writes and packBatch reads back: for
// the common batch once the layout is set, with no selection, no NULLs,
// no Const, and integer, boolean or dictionary-coded string keys whose
// codes have ids already (GROUP BY region, flag over a CTable; TPC-H Q1's
// flags). It reports false, having decided nothing, for any other batch
// or a key outside the layout: the caller then fills and fits.
func (p *packedKeys) packDirect(c *compositeKeys, b *columnar.Batch, keys []*columnar.Vector) bool {
	if p.ig == nil || b.Sel != nil {
		return false
	}
	for _, v := range keys {
		if v.Const || v.Valid != nil || v.Type.ID == columnar.Null {
			return false
		}
	}
	n := b.Len
	if cap(p.packed) < n {
		p.packed = make([]uint64, max(n, columnar.MaxBatch))
	}
	packed := p.packed[:n]
	clear(packed) // the NULL mask's field: 0
	for k, v := range keys {
		col := k + 1
		base, width, shift := p.base[col], p.width[col], p.shift[col]
		if width >= 64 {
			return false // one field spans the word: fill's path
		}
		// Shift counts masked to 63 (all below 64 here) compile to a
		// single shift, without Go's test for counts past the width.
		width, shift = width&63, shift&63
		var bad uint64 // a value's offset past its field: bits above width
		switch v.Type.Phys() {
		case columnar.PhysInt:
			for i, x := range v.Ints[:n] {
				d := uint64(x) - base
				bad |= d >> width
				packed[i] |= d << shift
			}
		case columnar.PhysUint:
			for i, x := range v.Uints[:n] {
				d := x - base
				bad |= d >> width
				packed[i] |= d << shift
			}
		case columnar.PhysBool:
			// Both values' fields, checked once; a row loads its own.
			f0, f1 := -base, 1-base
			if (f0>>width)|(f1>>width) != 0 {
				return false
			}
			fields := [2]uint64{f0 << shift, f1 << shift}
			for i, x := range v.Bools[:n] {
				packed[i] |= fields[b2u(x)]
			}
		case columnar.PhysBytes:
			d, codes, ok := dict.Of(v)
			if !ok {
				return false
			}
			table := c.remaps[k].Table(d)
			for i, code := range codes[:n] {
				id := table[code]
				if id < 0 {
					return false // a string to intern: fill does
				}
				d := uint64(id) - base
				bad |= d >> width
				packed[i] |= d << shift
			}
		default:
			return false
		}
		if bad != 0 {
			return false
		}
	}
	return true
}

// fit packs the batch, setting or widening the layout when some key
// falls outside it (repacking the groups so far); false when the layout
// would pass 64 bits (the groups are then in c's word table).
func (p *packedKeys) fit(c *compositeKeys, b *columnar.Batch) bool {
	if p.ig != nil && p.packBatch(c, b) {
		return true
	}
	oldBase, oldWidth, oldShift := p.base, p.width, p.shift
	old := &packedKeys{base: oldBase, width: oldWidth, shift: oldShift}
	spans, fits := p.spans(c, b)
	p.base, p.width, p.shift = make([]uint64, c.w), make([]uint, c.w), make([]uint, c.w)
	fits = fits && p.setLayout(spans)
	if p.ig == nil {
		if !fits {
			return false
		}
		p.ig = newIntGroups()
		return p.packBatch(c, b)
	}
	if !fits {
		p.base, p.width, p.shift = oldBase, oldWidth, oldShift
		p.migrate(c)
		return false
	}
	// Repack: every group keeps its id under its new packed key, written
	// over its old one. The new table replaces the old (garbage from
	// here): like a doubling, for a moment both are held, which Growth
	// does not foresee (it cannot tell which batch widens the layout).
	p.ig = nil
	ig := newIntGroups()
	key := make([]uint64, c.w)
	for _, chunk := range p.keys.chunks {
		for i, x := range chunk {
			old.unpack(x, key)
			v, _ := p.pack(key)
			chunk[i] = v
		}
	}
	for g := 0; g < c.n; g++ {
		ig.find(int64(p.keys.at(g)), g, func() int32 { return int32(g) })
	}
	p.ig = ig
	return p.packBatch(c, b)
}

// migrate moves every group into c's word table under its own id.
func (p *packedKeys) migrate(c *compositeKeys) {
	key := make([]uint64, c.w)
	for g := int32(0); int(g) < c.n; g++ {
		p.unpack(p.keys.at(int(g)), key)
		c.tab.find(key, hashWords(key), func() int32 { return g })
	}
}

// key returns group g's words (valid until the next call).
func (p *packedKeys) key(g int32) []uint64 {
	p.unpack(p.keys.at(int(g)), p.words)
	return p.words
}

// lookup returns the group of key, or -1; it only reads p.
func (p *packedKeys) lookup(key []uint64) int32 {
	if p.ig == nil {
		return -1
	}
	v, ok := p.pack(key)
	if !ok {
		return -1
	}
	if g, ok := p.ig.lookup(int64(v)); ok {
		return g
	}
	return -1
}

func (p *packedKeys) bytes() int64 {
	n := p.keys.bytes(8) + 8*int64(cap(p.packed))
	if p.ig != nil {
		n += p.ig.bytes()
	}
	return n
}

func (p *packedKeys) growth(n, ngroups int) int64 {
	g := p.keys.growth(n, 8)
	if p.ig != nil {
		g += p.ig.growth(n, ngroups)
	}
	return g
}

// b2u is 1 for true, 0 for false, without a branch.
func b2u(x bool) uint8 {
	var u uint8
	if x {
		u = 1
	}
	return u
}
