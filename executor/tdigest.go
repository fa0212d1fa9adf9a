package executor

import (
	"math"
	"slices"
	"sort"
)

// tDigest is the merging t-digest DuckDB's approx_quantile keeps
// (third_party/tdigest/t_digest.hpp, Derrick Burns' C++ version of Ted
// Dunning's), ported step for step so that approx_quantile gives DuckDB's
// numbers: values are buffered unsorted, and when the buffer passes 8 ×
// compression they are sorted and merged into centroids whose size the
// arcsine scale bounds; a quantile interpolates between centroid centres.
// Only what one stream of values needs is here (DuckDB merges digests
// only across threads).
type tDigest struct {
	compression              float64
	maxProcessed             int
	maxUnprocessed           int
	processedW, unprocessedW float64
	processed, unprocessed   []centroid
	cumulative               []float64
	min, max                 float64
}

type centroid struct{ mean, weight float64 }

// add merges c into the centroid, as Centroid::add.
func (c *centroid) add(o centroid) {
	if c.weight != 0 {
		c.weight += o.weight
		c.mean += o.weight * (o.mean - c.mean) / c.weight
		return
	}
	*c = o
}

// newTDigest is TDigest(compression) with default buffer sizes. max
// starts at the smallest positive double, as numeric_limits<double>::min()
// does in the original.
func newTDigest(compression float64) *tDigest {
	return &tDigest{
		compression:    compression,
		maxProcessed:   int(2 * math.Ceil(compression)),
		maxUnprocessed: int(8 * math.Ceil(compression)),
		min:            math.MaxFloat64,
		max:            0x1p-1022, // DBL_MIN
	}
}

// addValue adds x with weight 1 (NaN is ignored).
func (t *tDigest) addValue(x float64) {
	if math.IsNaN(x) {
		return
	}
	t.unprocessed = append(t.unprocessed, centroid{x, 1})
	t.unprocessedW++
	if len(t.processed) > t.maxProcessed || len(t.unprocessed) > t.maxUnprocessed {
		t.process()
	}
}

func (t *tDigest) integratedLocation(q float64) float64 {
	return t.compression * (math.Asin(2*q-1) + math.Pi/2) / math.Pi
}

func (t *tDigest) integratedQ(k float64) float64 {
	return (math.Sin(math.Min(k, t.compression)*math.Pi/t.compression-math.Pi/2) + 1) / 2
}

// process sorts the buffered values, merges them with the centroids and
// recompresses, as TDigest::process.
func (t *tDigest) process() {
	cmp := func(a, b centroid) int {
		switch {
		case a.mean < b.mean:
			return -1
		case a.mean > b.mean:
			return 1
		}
		return 0
	}
	slices.SortStableFunc(t.unprocessed, cmp)
	all := make([]centroid, 0, len(t.unprocessed)+len(t.processed))
	// std::inplace_merge: stable, the buffered values first among equals.
	i, j := 0, 0
	for i < len(t.unprocessed) && j < len(t.processed) {
		if t.processed[j].mean < t.unprocessed[i].mean {
			all = append(all, t.processed[j])
			j++
		} else {
			all = append(all, t.unprocessed[i])
			i++
		}
	}
	all = append(all, t.unprocessed[i:]...)
	all = append(all, t.processed[j:]...)
	t.processedW += t.unprocessedW
	t.unprocessedW = 0
	out := t.processed[:0]
	out = append(out, all[0])
	wSoFar := all[0].weight
	wLimit := t.processedW * t.integratedQ(1)
	for _, c := range all[1:] {
		projected := wSoFar + c.weight
		if projected <= wLimit {
			wSoFar = projected
			out[len(out)-1].add(c)
			continue
		}
		k1 := t.integratedLocation(wSoFar / t.processedW)
		wLimit = t.processedW * t.integratedQ(k1+1)
		wSoFar += c.weight
		out = append(out, c)
	}
	t.processed = out
	t.unprocessed = t.unprocessed[:0]
	t.min = math.Min(t.min, t.processed[0].mean)
	t.max = math.Max(t.max, t.processed[len(t.processed)-1].mean)
	t.cumulative = t.cumulative[:0]
	prev := 0.0
	for _, c := range t.processed {
		t.cumulative = append(t.cumulative, prev+c.weight/2)
		prev += c.weight
	}
	t.cumulative = append(t.cumulative, prev)
}

// finalized is the digest DuckDB finalizes: its aggregate state is
// combined into an empty one first (TDigest::merge, which takes the
// first and last centroid means as min and max, not the values seen),
// then compressed once more (TDigest::compress).
func (t *tDigest) finalized() *tDigest {
	u := newTDigest(t.compression)
	if len(t.processed) > 0 {
		u.processed = append(u.processed, t.processed...)
		u.processedW = t.processedW
		u.min = math.Min(u.min, u.processed[0].mean)
		u.max = math.Max(u.max, u.processed[len(u.processed)-1].mean)
	}
	u.unprocessed = append(u.unprocessed, t.unprocessed...)
	u.unprocessedW = t.unprocessedW
	u.process()
	return u
}

// quantile is the digest's estimate of quantile q in [0, 1] (NaN when
// empty), as TDigest::quantile.
func (t *tDigest) quantile(q float64) float64 {
	if len(t.unprocessed) > 0 || len(t.processed) > t.maxProcessed {
		t.process()
	}
	if q < 0 || q > 1 || len(t.processed) == 0 {
		return math.NaN()
	}
	if len(t.processed) == 1 {
		return t.processed[0].mean
	}
	n := len(t.processed)
	index := q * t.processedW
	if index <= t.processed[0].weight/2 {
		return t.min + 2*index/t.processed[0].weight*(t.processed[0].mean-t.min)
	}
	i := sort.SearchFloat64s(t.cumulative, index) // std::lower_bound
	if i+1 != len(t.cumulative) {
		z1 := index - t.cumulative[i-1]
		z2 := t.cumulative[i] - index
		return weightedAverage(t.processed[i-1].mean, z2, t.processed[i].mean, z1)
	}
	z1 := index - t.processedW - t.processed[n-1].weight/2
	z2 := t.processed[n-1].weight/2 - z1
	return weightedAverage(t.processed[n-1].mean, z1, t.max, z2)
}

// weightedAverage is (x1·w1 + x2·w2)/(w1 + w2) kept between x1 and x2.
func weightedAverage(x1, w1, x2, w2 float64) float64 {
	if x1 > x2 {
		x1, w1, x2, w2 = x2, w2, x1, w1
	}
	x := (x1*w1 + x2*w2) / (w1 + w2)
	return math.Max(x1, math.Min(x, x2))
}
