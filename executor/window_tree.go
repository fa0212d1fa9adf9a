package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// frameTree answers count, count(*), sum, avg, min, max, arg_max,
// arg_min and the variances and standard deviations over any frame
// of one partition in O(log m), so that a sliding frame (ROWS BETWEEN
// 1000 PRECEDING AND CURRENT ROW, a RANGE of 30 days) or a frame with an
// EXCLUDE clause costs O(m log m), not O(m × frame width). It is a
// segment tree over the partition's rows: node k holds the partial
// aggregate of its rows (count of non-NULL values, or of rows for
// count(*); the integer and float sums windowAcc keeps; the position of
// the smallest or largest value; the mean and the sum of squared
// deviations from it, merged as Chan et al.'s parallel variance). Leaves
// are m..2m-1, node k covers its children 2k and 2k+1.
type frameTree struct {
	m     int
	name  string
	cnt   []int64
	isum  []int64
	fsum  []float64
	best  []int32   // min, max, arg_max, arg_min: partition position of the node's best value, -1 for none
	mean  []float64 // variances: the mean of the node's values
	m2    []float64 // variances: the sum of their squared deviations from it
	isMax bool
	arg   func(int) columnar.Value
	val   func(int) columnar.Value // the value compared: arg's, or arg_max's second argument
}

// frameTreeFuncs are the functions a frameTree computes (without DISTINCT,
// whose frames are sets, not sums).
var frameTreeFuncs = map[string]bool{"count": true, "count_star": true, "sum": true, "avg": true, "min": true, "max": true,
	"arg_max": true, "arg_min": true, "var_samp": true, "var_pop": true, "stddev_samp": true, "stddev_pop": true}

// varianceFuncs keep a mean and squared deviations per node.
var varianceFuncs = map[string]bool{"var_samp": true, "var_pop": true, "stddev_samp": true, "stddev_pop": true}

// newFrameTree builds the tree of one partition of m rows; arg is the
// function's argument by partition position, val arg_max's second one.
func newFrameTree(f *WindowFunc, m int, arg, val func(int) columnar.Value) *frameTree {
	t := &frameTree{m: m, name: f.Name, isMax: f.Name == "max" || f.Name == "arg_max", arg: arg, val: arg}
	if f.Name == "arg_max" || f.Name == "arg_min" {
		t.val = val
	}
	if f.Name == "min" || f.Name == "max" || f.Name == "arg_max" || f.Name == "arg_min" {
		t.best = make([]int32, 2*m)
		for k := range m {
			t.best[m+k] = -1
			if !t.val(k).Null && !t.arg(k).Null { // arg_max skips a NULL arg too
				t.best[m+k] = int32(k)
			}
		}
		for k := m - 1; k >= 1; k-- {
			t.best[k] = t.better(t.best[2*k], t.best[2*k+1])
		}
		return t
	}
	t.cnt = make([]int64, 2*m)
	if f.Name == "sum" || f.Name == "avg" {
		t.isum, t.fsum = make([]int64, 2*m), make([]float64, 2*m)
	}
	if varianceFuncs[f.Name] {
		t.mean, t.m2 = make([]float64, 2*m), make([]float64, 2*m)
	}
	for k := range m {
		if f.Name == "count_star" {
			t.cnt[m+k] = 1
			continue
		}
		v := arg(k)
		if v.Null {
			continue
		}
		t.cnt[m+k] = 1
		if t.isum != nil {
			// As windowAcc.add: integers sum exactly, every value also as a float.
			if p := v.Type.Phys(); p != columnar.PhysFloat && p != columnar.PhysUint {
				t.isum[m+k] = v.I
			}
			t.fsum[m+k] = v.AsFloat()
		}
		if t.mean != nil {
			t.mean[m+k] = v.AsFloat()
		}
	}
	for k := m - 1; k >= 1; k-- {
		t.cnt[k] = t.cnt[2*k] + t.cnt[2*k+1]
		if t.isum != nil {
			t.isum[k] = t.isum[2*k] + t.isum[2*k+1]
			t.fsum[k] = t.fsum[2*k] + t.fsum[2*k+1]
		}
		if t.mean != nil {
			t.mean[k], t.m2[k] = mergeMoments(t.cnt[2*k], t.mean[2*k], t.m2[2*k], t.cnt[2*k+1], t.mean[2*k+1], t.m2[2*k+1])
		}
	}
	return t
}

// better returns the position of the smaller (min, arg_min) or larger
// (max, arg_max) of the values at positions a and b, -1 meaning none; a
// tie keeps the earlier row, as arg_max's accumulator does.
func (t *frameTree) better(a, b int32) int32 {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	c := columnar.Compare(t.val(int(b)), t.val(int(a)))
	if (t.isMax && c > 0) || (!t.isMax && c < 0) || (c == 0 && b < a) {
		return b
	}
	return a
}

// mergeMoments combines the means and squared deviations of two sets of
// na and nb values into those of their union.
func mergeMoments(na int64, ma, m2a float64, nb int64, mb, m2b float64) (float64, float64) {
	switch {
	case na == 0:
		return mb, m2b
	case nb == 0:
		return ma, m2a
	}
	n := float64(na + nb)
	d := mb - ma
	return ma + d*float64(nb)/n, m2a + m2b + d*d*float64(na)*float64(nb)/n
}

// frameSum is a partial aggregate of a set of rows.
type frameSum struct {
	n, isum  int64
	fsum     float64
	best     int32
	mean, m2 float64
}

// add folds the rows [lo, hi) into s.
func (t *frameTree) add(s *frameSum, lo, hi int) {
	if lo >= hi {
		return
	}
	for lo, hi = lo+t.m, hi+t.m; lo < hi; lo, hi = lo>>1, hi>>1 {
		if lo&1 == 1 {
			t.addNode(s, lo)
			lo++
		}
		if hi&1 == 1 {
			hi--
			t.addNode(s, hi)
		}
	}
}

func (t *frameTree) addNode(s *frameSum, k int) {
	if t.best != nil {
		s.best = t.better(s.best, t.best[k])
		return
	}
	if t.mean != nil {
		s.mean, s.m2 = mergeMoments(s.n, s.mean, s.m2, t.cnt[k], t.mean[k], t.m2[k])
	}
	s.n += t.cnt[k]
	if t.isum != nil {
		s.isum += t.isum[k]
		s.fsum += t.fsum[k]
	}
}

// frame returns the aggregate of row i's frame [s, e) less the rows its
// EXCLUDE clause takes out (fb.excluded), as a value of type typ.
func (t *frameTree) frame(fb *frameBounds, i, s, e int, typ columnar.Type) columnar.Value {
	sum := frameSum{best: -1}
	switch fb.fr.Exclude {
	case ExcludeNoOthers:
		t.add(&sum, s, e)
	case ExcludeCurrentRow:
		t.add(&sum, s, min(e, i))
		t.add(&sum, max(s, i+1), e)
	default: // GROUP, TIES: the peers [ps, pe) leave; TIES keeps row i
		ps, pe := fb.peerStart[i], fb.peerEnd[i]
		t.add(&sum, s, min(e, ps))
		if fb.fr.Exclude == ExcludeTies && i >= s && i < e {
			t.add(&sum, i, i+1)
		}
		t.add(&sum, max(s, pe), e)
	}
	if t.mean != nil {
		return momentsResult(t.name, sum.n, sum.m2, typ)
	}
	acc := windowAcc{name: t.name, n: sum.n, isum: sum.isum, fsum: sum.fsum}
	if sum.best >= 0 {
		acc.best, acc.has = t.arg(int(sum.best)), true
	}
	return acc.result(typ)
}

// momentsResult is var_samp, var_pop, stddev_samp or stddev_pop of n
// values whose squared deviations from their mean sum to m2: NULL without
// values, and for a sample of one.
func momentsResult(name string, n int64, m2 float64, typ columnar.Type) columnar.Value {
	sample := name == "var_samp" || name == "stddev_samp"
	if n == 0 || sample && n < 2 {
		return columnar.NullValue(typ)
	}
	d := float64(n)
	if sample {
		d--
	}
	v := m2 / d
	if name == "stddev_samp" || name == "stddev_pop" {
		v = math.Sqrt(v)
	}
	return columnar.FloatValue(typ, v)
}

// frameRow returns the partition position of the k-th row (1-based; k = 0
// for the last) of row i's frame [s, e) less its EXCLUDE rows, or -1 when
// the frame is shorter: first_value, last_value and nth_value without
// IGNORE NULLS read one row, so they need no pass over the frame.
func frameRow(fb *frameBounds, i, s, e int, k int64) int {
	// The kept rows are [s, e) without [x0, x1) and without [y0, y1).
	x0, x1, y0, y1 := 0, 0, 0, 0
	switch fb.fr.Exclude {
	case ExcludeCurrentRow:
		x0, x1 = i, i+1
	case ExcludeGroup:
		x0, x1 = fb.peerStart[i], fb.peerEnd[i]
	case ExcludeTies:
		x0, x1, y0, y1 = fb.peerStart[i], i, i+1, fb.peerEnd[i]
	}
	segs := [3][2]int{{s, min(e, x0)}, {max(s, x1), min(e, y0)}, {max(s, y1), e}}
	if y1 == 0 { // one excluded range (or none): the middle piece is [x1, e)
		segs = [3][2]int{{s, min(e, x0)}, {max(s, x1), e}, {0, 0}}
	}
	if fb.fr.Exclude == ExcludeNoOthers {
		segs = [3][2]int{{s, e}, {0, 0}, {0, 0}}
	}
	if k == 0 { // the last kept row
		for j := 2; j >= 0; j-- {
			if segs[j][0] < segs[j][1] {
				return segs[j][1] - 1
			}
		}
		return -1
	}
	for _, sg := range segs {
		if n := int64(sg[1] - sg[0]); n > 0 {
			if k <= n {
				return sg[0] + int(k) - 1
			}
			k -= n
		}
	}
	return -1
}
