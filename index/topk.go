package index

import (
	"math"
	"sort"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
)

// TopKBound is what a top-k (ORDER BY col LIMIT k) shares with the scan
// under it: once the top-k holds k rows it publishes its k-th key, and the
// scan may skip every unit (row group, block) whose statistics prove that
// no row there sorts strictly before that key. Strictly, because the top-k
// keeps the earlier of two tied rows: a row equal to the k-th key never
// enters it, so skipping it changes nothing.
//
// The order is the executor's: NULLs last in both directions, NaN above
// every number. A bound is only made for NULLS LAST keys; NULL rows then
// never beat a published key.
//
// One TopKBound serves one query run; several top-k operators (the partial
// top-ks of a parallel plan) may publish into it concurrently: every
// published key is a valid bound (each is the k-th of a subset of the
// rows), and the bound keeps the best. Safe for concurrent use.
type TopKBound struct {
	Col  int  // the table column (schema position) the top-k orders by
	Desc bool // descending: larger keys are better
	// Ties: later sort keys break ties on Col (ORDER BY col, id), so a row
	// whose key equals the bound may still enter the top-k; only units
	// whose rows all sort strictly after the bound are skipped.
	Ties bool
	// K is how many rows the top-k keeps (LIMIT plus OFFSET) when every row
	// the scan yields reaches it (no filter between them), else 0. Only
	// then may a scan bound the k-th key from its statistics (Seed).
	K int64

	cur atomic.Pointer[published]
}

// published is the bound: a key some top-k holds as its k-th (Publish), or
// a seed from statistics (Seed), which no row held yet: a unit whose best
// key equals a seed may hold the row that makes it the k-th, so a seed
// only skips units strictly worse, as with Ties.
type published struct {
	key    columnar.Value
	seeded bool
}

// Publish offers v, the k-th best key some top-k holds, as the bound. A
// NULL key is no bound (NULLs sort last) and is ignored, as is a key worse
// than the current bound.
func (b *TopKBound) Publish(v columnar.Value) {
	if b == nil || v.Null {
		return
	}
	b.offer(&published{key: v})
}

// offer makes p the bound if it is better, or equal and held by a top-k
// where the bound was a seed (which skips less).
func (b *TopKBound) offer(p *published) {
	for {
		old := b.cur.Load()
		if old != nil {
			c := b.cmp(p.key, old.key)
			if c > 0 || c == 0 && (p.seeded || !old.seeded) {
				return
			}
		}
		if b.cur.CompareAndSwap(old, p) {
			return
		}
	}
}

// Seed publishes, before any row is read, the K-th best of best: keys a
// unit each holds a row of (its max for DESC, its min for ASC, from exact
// statistics of live rows, one key per unit). The k-th best key of the
// table is at least that good, so units whose rows all sort strictly after
// it can go unread. Without K, or with fewer than K keys, it does nothing;
// NULL keys are ignored.
func (b *TopKBound) Seed(best []columnar.Value) {
	if b == nil || b.K <= 0 {
		return
	}
	keys := make([]columnar.Value, 0, len(best))
	for _, v := range best {
		if !v.Null {
			keys = append(keys, v)
		}
	}
	if int64(len(keys)) < b.K {
		return
	}
	sort.Slice(keys, func(i, j int) bool { return b.cmp(keys[i], keys[j]) < 0 })
	b.offer(&published{key: keys[b.K-1], seeded: true})
}

// Reset forgets the published key (before the query runs again).
func (b *TopKBound) Reset() {
	if b != nil {
		b.cur.Store(nil)
	}
}

// Bound returns the published key, false until one is published.
func (b *TopKBound) Bound() (columnar.Value, bool) {
	if b == nil {
		return columnar.Value{}, false
	}
	p := b.cur.Load()
	if p == nil {
		return columnar.Value{}, false
	}
	return p.key, true
}

// cmp orders keys best first: negative when x sorts before y.
func (b *TopKBound) cmp(x, y columnar.Value) int {
	c := compareKey(x, y)
	if b.Desc {
		return -c
	}
	return c
}

// compareKey is the executor's order on non-NULL keys (NaN above numbers).
func compareKey(x, y columnar.Value) int { return columnar.Compare(x, y) }

// Skips reports whether a unit with statistics s (of column Col) cannot
// hold a row that beats the published bound. Without a bound, or with
// statistics that say too little, it reports false.
func (b *TopKBound) Skips(s Stats) bool {
	if b == nil {
		return false
	}
	p := b.cur.Load()
	if p == nil {
		return false
	}
	k, strict := p.key, b.Ties || p.seeded
	if s.NullCount >= 0 && s.NullCount == s.Rows && s.Rows > 0 {
		return true // only NULLs, which sort after every key
	}
	if !s.HasMinMax || s.Min.Type.Phys() != k.Type.Phys() {
		return false
	}
	isFloat := k.Type.Phys() == columnar.PhysFloat
	if isFloat && (math.IsNaN(s.Min.F) || math.IsNaN(s.Max.F)) {
		return false
	}
	if b.Desc {
		if isFloat && math.IsNaN(k.F) {
			// Nothing sorts strictly above NaN; a NaN row ties with it.
			return !strict || !s.HasNaN
		}
		if s.HasNaN {
			return false // a NaN row would beat any number
		}
		if strict {
			return compareKey(s.Max, k) < 0
		}
		return compareKey(s.Max, k) <= 0
	}
	// Ascending: NaN rows sort last, so they never beat a number, and a
	// NaN bound is beaten by every number the unit may hold.
	if isFloat && math.IsNaN(k.F) {
		return false
	}
	if strict {
		return compareKey(s.Min, k) > 0
	}
	return compareKey(s.Min, k) >= 0
}

// Order sorts units (given by their statistics of column Col; ok false
// when a unit has none) so that those most likely to hold the best keys
// come first: by descending max for DESC, ascending min for ASC. Units
// without usable statistics go first, since they can never be skipped and
// may hold anything; units of NULLs only go last. The sort is stable:
// equal units keep table order.
func (b *TopKBound) Order(units []int, stats func(unit int) (Stats, bool)) {
	const (
		unknown = iota
		keyed
		nulls
	)
	type entry struct {
		u, rank int
		key     columnar.Value
	}
	es := make([]entry, len(units))
	for i, u := range units {
		es[i] = entry{u: u, rank: unknown}
		s, ok := stats(u)
		switch {
		case !ok:
		case s.NullCount >= 0 && s.NullCount == s.Rows && s.Rows > 0:
			es[i].rank = nulls
		case !s.HasMinMax || (b.Desc && s.HasNaN):
			// A DESC unit that may hold NaN may hold the best key of all.
		case b.Desc:
			es[i].rank, es[i].key = keyed, s.Max
		default:
			es[i].rank, es[i].key = keyed, s.Min
		}
	}
	sort.SliceStable(es, func(i, j int) bool {
		x, y := es[i], es[j]
		if x.rank != y.rank {
			return x.rank < y.rank
		}
		return x.rank == keyed && b.cmp(x.key, y.key) < 0
	})
	for i := range es {
		units[i] = es[i].u
	}
}

// ExtremesSkip reports whether every bound of bs (a ScanSpec's Extremes)
// proves a unit useless; stats gives the unit's statistics of a column
// (ok false when it has none). With no bounds it reports false.
func ExtremesSkip(bs []*TopKBound, stats func(col int) (Stats, bool)) bool {
	if len(bs) == 0 {
		return false
	}
	for _, b := range bs {
		s, ok := stats(b.Col)
		if !ok || !b.Skips(s) {
			return false
		}
	}
	return true
}

// OrderExtremes sorts units so that each bound of bs finds its best key
// early: the units in each bound's Order, taken in turn (the first unit of
// the first bound's order, then of the second's, …), each unit once. For
// MIN(x) and MAX(x) the first two units read are the one with the least
// minimum and the one with the greatest maximum; once they are read, every
// unit whose statistics are exact and not tied is skipped.
func OrderExtremes(bs []*TopKBound, units []int, stats func(unit, col int) (Stats, bool)) {
	if len(bs) == 0 || len(units) < 2 {
		return
	}
	if len(bs) == 1 {
		b := bs[0]
		b.Order(units, func(u int) (Stats, bool) { return stats(u, b.Col) })
		return
	}
	orders := make([][]int, len(bs))
	for i, b := range bs {
		orders[i] = append([]int(nil), units...)
		b.Order(orders[i], func(u int) (Stats, bool) { return stats(u, b.Col) })
	}
	taken := make(map[int]bool, len(units))
	out := units[:0]
	for k := range len(units) {
		for _, o := range orders {
			if u := o[k]; !taken[u] {
				taken[u] = true
				out = append(out, u)
			}
		}
	}
}
