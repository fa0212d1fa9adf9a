package executor

import (
	"math"
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
)

// A DISTINCT aggregate of an integer argument keeps its (group, value)
// pairs as one BIGINT each while the values span at most 32 bits: the
// group id above, the value's offset from a base below, in a
// single-integer Map (one probe a pair, the key in the slot, small keys in
// its direct table). The group id takes the high bits so that new groups
// never move a pair: the two-column Map sized the group id's field from
// the ids seen, so as a final's groups grew it repacked every pair again
// and again (TPC-H Q16's count(DISTINCT ps_suppkey): a fifth of its
// finals). The value's field is sized from the values seen with room to
// spare; a value outside it repacks the pairs (rekey), one past 32 bits
// moves them into the two-column Map.

// maxPairValueBits is the widest value field of a joined pair: the group
// id (below 2^31) must fit above it in a BIGINT.
const maxPairValueBits = 32

// pairTable is the Map of a DISTINCT aggregate's pairs and how they are
// keyed in it.
type pairTable struct {
	pairs hashtab.Map
	keys  [2]*columnar.Vector // the two-column key: group ids, values
	// joined: pairs holds each pair as one BIGINT, built in pair: the
	// group id shifted by width over the value less base.
	joined  bool
	base    int64
	width   uint
	pair    columnar.Vector
	joined1 [1]*columnar.Vector
	// expectPairs and expectGroups, when known (a parallel GROUP BY's
	// final: its partition's rows and estimated groups), size the
	// joined table (reserve).
	expectPairs, expectGroups int
}

// pairKeys returns the key columns of d.pairs for the rows sel of the
// batch (n rows, whose group ids gid holds), making or widening d.pairs
// first.
func (d *pairTable) pairKeys(n int, gid, arg *columnar.Vector, sel []int) []*columnar.Vector {
	d.keys[0], d.keys[1] = gid, arg
	if d.pairs == nil {
		d.joined = arg.Type.Phys() == columnar.PhysInt
		if !d.joined {
			d.pairs = hashtab.New([]columnar.Type{columnar.TInt32, arg.Type})
		}
	}
	if !d.joined {
		return d.keys[:]
	}
	lo, hi := int64(0), int64(0)
	for k, i := range sel {
		x := arg.Ints[idx(arg, i)]
		if k == 0 {
			lo, hi = x, x
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	if d.pairs == nil || uint64(lo-d.base)>>d.width != 0 || uint64(hi-d.base)>>d.width != 0 {
		base, width := d.fieldFor(lo, hi)
		if !d.rekey(base, width, arg.Type) {
			return d.keys[:]
		}
	}
	d.pair.Type = columnar.TInt64
	d.pair.Reset(n)
	pairs, base, width := d.pair.Ints, d.base, d.width&63
	for _, i := range sel {
		pairs[i] = gid.Ints[i]<<width | (arg.Ints[idx(arg, i)] - base)
	}
	d.joined1[0] = &d.pair
	return d.joined1[:]
}

// fieldFor returns the value field (base and width) for a batch's values
// [lo, hi]: the first batch's, from base 0 when that costs at most a bit
// (ids and keys from 1 pack as themselves), with room for as many values
// again above; past the field so far, the field stretched towards the new
// values by its new span again, so that values arriving in order (a
// partial's groups come in first-seen order) rekey about log2(values)
// times, not once a batch. A width past maxPairValueBits means the
// two-column Map.
func (d *pairTable) fieldFor(lo, hi int64) (base int64, width uint) {
	const tooWide = 1 << 40
	if d.pairs != nil {
		top := d.base + int64(uint64(1)<<d.width-1) // within int64: see below
		nlo, nhi := min(lo, d.base), max(hi, top)
		span := uint64(nhi) - uint64(nlo)
		if span >= tooWide {
			return lo, 64
		}
		if lo < d.base {
			nlo = subClamped(nlo, span)
		}
		if hi > top {
			nhi = addClamped(nhi, span)
		}
		lo, hi = nlo, nhi
	} else {
		span := uint64(hi) - uint64(lo)
		if span >= tooWide {
			return lo, 64
		}
		hi = addClamped(hi, span+1)
	}
	if lo >= 0 && bits.Len64(uint64(hi)) <= bits.Len64(uint64(hi)-uint64(lo))+1 {
		lo = 0
	}
	width = uint(bits.Len64(uint64(hi) - uint64(lo)))
	if width > maxPairValueBits {
		return lo, width
	}
	// The field's last value base + 2^width - 1 stays within int64.
	return min(lo, math.MaxInt64-int64(uint64(1)<<width-1)), width
}

// addClamped is x + d, or MaxInt64 past it; subClamped x - d, or MinInt64.
func addClamped(x int64, d uint64) int64 {
	if uint64(math.MaxInt64-x) < d {
		return math.MaxInt64
	}
	return x + int64(d)
}

func subClamped(x int64, d uint64) int64 {
	if uint64(x)+1<<63 < d { // x - MinInt64
		return math.MinInt64
	}
	return x - int64(d)
}

// rekey lays the joined pairs out for a value field of width bits from
// base, moving the pairs held (into the two-column Map when the field
// would pass maxPairValueBits; it then reports false).
func (d *pairTable) rekey(base int64, width uint, argType columnar.Type) bool {
	old, oldBase, oldWidth := d.pairs, d.base, d.width
	if width > maxPairValueBits {
		d.joined = false
		d.pairs = hashtab.New([]columnar.Type{columnar.TInt32, argType})
	} else {
		d.base, d.width = base, width
		d.pairs = hashtab.New([]columnar.Type{columnar.TInt64})
		d.reserve()
	}
	if old == nil {
		return d.joined
	}
	var held, gid, x columnar.Vector
	held.Type, gid.Type, x.Type = columnar.TInt64, columnar.TInt32, argType
	cols := []*columnar.Vector{&held}
	ids := make([]int32, columnar.MaxBatch)
	for from := 0; from < old.Len(); from += columnar.MaxBatch {
		to := min(from+columnar.MaxBatch, old.Len())
		n := to - from
		old.Keys(cols, from, to)
		gid.Reset(n)
		x.Reset(n)
		for i, v := range held.Ints[:n] {
			gid.Ints[i] = int64(uint64(v) >> oldWidth)
			x.Ints[i] = int64(uint64(v)&(1<<oldWidth-1)) + oldBase
		}
		b := columnar.Batch{Cols: []*columnar.Vector{&gid, &x}, Len: n}
		if d.joined {
			for i := range held.Ints[:n] {
				held.Ints[i] = gid.Ints[i]<<d.width | (x.Ints[i] - d.base)
			}
			b.Cols = cols
		}
		d.pairs.Assign(&b, b.Cols, ids)
	}
	return d.joined
}

// reserve makes a new joined table's hash table for the pairs expected
// (the rows of a parallel GROUP BY's partition, at most one pair each)
// when the direct table would hold few of them: it holds keys below 16
// per pair, and group g's pairs start at g << width (TPC-H Q16: some
// 7,500 pairs under 1,150 groups a partition, grown from 256 slots they
// spent a fifth of the pair lookups doubling).
func (d *pairTable) reserve() {
	if d.expectPairs <= 0 || d.width >= 62 {
		return
	}
	span := float64(d.expectGroups) * float64(uint64(1)<<d.width)
	if span < 64*float64(d.expectPairs) {
		return // a quarter or more may land in the direct table
	}
	hashtab.Reserve(d.pairs, hashtab.Expect{Keys: d.expectPairs, Hashed: true})
}
