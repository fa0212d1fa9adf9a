package executor

import (
	"math/bits"
	"slices"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
)

// Dealing ranges of one integer key to the partitions.
//
// A PartitionMerge deals rows to partitions by a hash of their key, so
// every partition's keys spread over the whole key range. With one
// integer key of many groups (GROUP BY user_id over 1M users) each final's
// direct table (hashtab's intGroups) then covers the whole range, 4 MB,
// while it holds a sixteenth of the groups: about one cache miss a row,
// most of the finals' time. Dealing whole ranges instead (the first s keys
// to partition 0, the next s to partition 1, …) gives each final a range
// of s keys, which its direct table covers from the range's first key
// (hashtab.Expect): 256 KB for 1M keys over 16 partitions.
//
// The range is judged once, before any worker deals a row (every worker
// must deal a key alike), by the first worker ready to deal: from a sample
// of its partial aggregate's distinct keys (sampleKeys), or else from the
// first batch it deals; and taken only when the batch's keys are
// spread wide (rangeMin) and about evenly over the pieces: the first
// batch of input clustered by the key (lineitem by l_orderkey) spans a
// few keys, and keys crowded into a few pieces (a skewed distribution)
// would leave the finals' work to one or two of them; both are dealt by
// hash as before. Keys outside the range and NULLs are dealt by hash too,
// so any key goes to one partition whatever batch it comes in, and a
// final's answers do not depend on the range (it only places its table).
type dealRange struct {
	once  sync.Once
	on    bool
	lo    int64
	width uint64 // the range is keys [lo, lo+width)
	shift uint   // a partition's piece of it: 1<<shift keys
}

// rangeMin is the width a key range must have to be dealt by range: below
// it a direct table over the whole range (1 MB) mostly stays in the
// caches anyway.
const rangeMin = 1 << 18

// rangeSample is the fewest non-NULL keys the deciding batch must hold:
// fewer say little about the range or the spread.
const rangeSample = 256

// decide judges the range from the keys of column v of b, the first batch
// dealt, for parts partitions.
func (r *dealRange) decide(b *columnar.Batch, v *columnar.Vector, parts int) {
	if v.Type.Phys() != columnar.PhysInt || v.Const {
		return
	}
	var keys []int64
	b.ForEach(func(i int) {
		if v.Valid == nil || v.Valid.Get(i) {
			keys = append(keys, v.Ints[i])
		}
	})
	r.decideFrom(keys, parts)
}

// decideFrom judges the range from a sample of the keys (sorted in place).
func (r *dealRange) decideFrom(keys []int64, parts int) {
	if len(keys) < rangeSample || parts < 2 {
		return
	}
	// The range is the sample's, less its lowest and highest 1/64th: a
	// few outliers (a sentinel -1, a key near the type's maximum) would
	// stretch it over keys no row has; they are dealt by hash.
	slices.Sort(keys)
	cut := len(keys) / 64
	keys = keys[cut : len(keys)-cut]
	lo, hi, n := keys[0], keys[len(keys)-1], len(keys)
	if hi-lo < 0 { // the span overflows
		return
	}
	// Widen by the average gap between the sample's keys on each side: the
	// keys just past the sample's extremes are as likely as those within.
	gap := (hi - lo) / int64(n)
	if lo-gap < lo {
		lo -= gap
	}
	if hi+gap > hi {
		hi += gap
	}
	width := uint64(hi-lo) + 1
	if width < rangeMin || width == 0 {
		return
	}
	shift := uint(bits.Len64((width - 1) / uint64(parts)))
	if shift > 23 { // a piece wider than any direct table (hashtab's denseKeys)
		return
	}
	// Over the pieces the range makes (at most parts), an even spread
	// puts n/pieces keys in each; take the range only when no piece holds
	// more than twice that (and some slack for small samples).
	pieces := int((width-1)>>shift) + 1
	count := make([]int, pieces)
	for _, x := range keys {
		count[uint64(x-lo)>>shift]++
	}
	for _, c := range count {
		if c > 2*n/pieces+8 {
			return
		}
	}
	r.on, r.lo, r.width, r.shift = true, lo, width, shift
}

// decideBounds judges the range from the least and greatest key of the
// input (PartitionMerge.KeyBounds), for a partial whose keys arrive in
// order and are emitted as they go (hashagg_flush.go): its table samples
// only the first keys. The spread over the range cannot be checked
// without a sample; keys in order are most often ids and dates that fill
// their range (lineitem's l_orderkey), and a skewed spread only makes
// some finals larger than others, never an answer different.
func (r *dealRange) decideBounds(lo, hi int64, parts int) {
	if parts < 2 || hi < lo || hi-lo < 0 {
		return
	}
	width := uint64(hi-lo) + 1
	if width < rangeMin || width == 0 {
		return
	}
	shift := uint(bits.Len64((width - 1) / uint64(parts)))
	if shift > 23 {
		return
	}
	r.on, r.lo, r.width, r.shift = true, lo, width, shift
}

// partitionOf returns the partition of row i's key in v when it falls in
// the range.
func (r *dealRange) partitionOf(v *columnar.Vector, i int) (int, bool) {
	j := idx(v, i)
	if v.IsNull(j) {
		return 0, false
	}
	d := uint64(v.Ints[j] - r.lo)
	if d >= r.width {
		return 0, false
	}
	return int(d >> r.shift), true
}

// keys returns the range of keys dealt to partition p, if any is.
func (r *dealRange) keys(p int) (lo, hi int64, ok bool) {
	if r == nil || !r.on {
		return 0, 0, false
	}
	from := uint64(p) << r.shift
	if from >= r.width {
		return 0, 0, false
	}
	to := min(from+1<<r.shift, r.width)
	return r.lo + int64(from), r.lo + int64(to-1), true
}

// flushesInOrder reports whether op's aggregate (op a partial HashAgg,
// maybe wrapped) emits its groups as it goes, its keys in order
// (hashagg_flush.go).
func flushesInOrder(op Operator) bool {
	for {
		switch x := op.(type) {
		case *HashAgg:
			return x.flushing
		case interface{ Unwrap() Operator }:
			op = x.Unwrap()
		default:
			return false
		}
	}
}

// rangeSampleKeys is the size of the sample of a partial's keys.
const rangeSampleKeys = 1024

// sampleKeys returns a sample of the distinct keys of op's aggregate (op
// a partial HashAgg, maybe wrapped) when it groups by one integer column
// and has its table, or nil.
func sampleKeys(op Operator) []int64 {
	for {
		switch x := op.(type) {
		case *HashAgg:
			if x.groups == nil {
				return nil
			}
			return hashtab.KeySample(x.groups, rangeSampleKeys)
		case interface{ Unwrap() Operator }:
			op = x.Unwrap()
		default:
			return nil
		}
	}
}
