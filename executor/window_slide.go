package executor

import (
	"math"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// Frames that only move forward — every ROWS, RANGE or GROUPS frame
// without EXCLUDE: each row's start and end are at or past the previous
// row's — are slid rather than rebuilt: a frameSlider is told which rows
// enter and leave, so a running median over 100K rows (ORDER BY t, the
// default frame) or a count(DISTINCT x) over the last 1000 rows costs
// O(m log m) for the partition instead of sorting or hashing the whole
// frame at every row.
type frameSlider interface {
	add(k int)    // partition row k enters the frame
	remove(k int) // partition row k leaves it
	result(t columnar.Type) columnar.Value
}

// newFrameSlider returns the slider for f over a partition of m rows with
// argument arg, or nil when f has none (or, for mode, when the frame can
// lose rows, as mode's tie rule is about the frame's order).
func newFrameSlider(f *WindowFunc, m int, arg func(int) columnar.Value) frameSlider {
	if f.Frame.Exclude != ExcludeNoOthers {
		return nil
	}
	switch f.Name {
	case "median", "quantile_cont", "quantile_disc":
		if f.Distinct {
			return nil
		}
		return newQuantileSlider(f, m, arg)
	case "count", "sum", "avg":
		if !f.Distinct {
			return nil // frameTree
		}
		return newDistinctSlider(f, m, arg)
	case "mode":
		if f.Distinct || !f.Frame.StartUnbounded {
			return nil
		}
		return newModeSlider(m, arg)
	}
	return nil
}

// slideFrames fills res with f's value over each row's frame through sl
// and reports true, or reports false (having filled nothing usable) when
// a frame moves backwards, which the frame kinds this is used for never
// do.
func slideFrames(fb *frameBounds, m int, sl frameSlider, rows []int32, res []columnar.Value, t columnar.Type) bool {
	lo, hi := 0, 0 // sl holds the rows [lo, hi)
	for i := range m {
		s, e := fb.bounds(i)
		e = max(e, s) // an empty frame
		if s < lo || e < hi {
			return false
		}
		for k := lo; k < min(s, hi); k++ {
			sl.remove(k)
		}
		lo, hi = s, max(hi, s)
		for ; hi < e; hi++ {
			sl.add(hi)
		}
		res[rows[i]] = sl.result(t)
	}
	return true
}

// quantileSlider keeps the frame's non-NULL values as counts over their
// ranks in the partition's sorted order (a Fenwick tree), so the j-th
// smallest value of the frame is a descent of the tree. Ranks order equal
// values by position, as the whole-frame computation's stable sort orders
// them by frame order.
type quantileSlider struct {
	name  string
	q     float64
	rank  []int32          // by partition row: its value's rank, -1 for NULL
	xs    []float64        // median, quantile_cont: the values by rank, as floats
	vals  []columnar.Value // quantile_disc: the values by rank
	tree  []int32          // Fenwick tree over ranks, 1-based
	n     int
	lg    int // the largest power of two <= len(rank order)
	cache columnar.Value
	dirty bool
}

func newQuantileSlider(f *WindowFunc, m int, arg func(int) columnar.Value) *quantileSlider {
	s := &quantileSlider{name: f.Name, q: 0.5, rank: make([]int32, m), dirty: true}
	if f.Name != "median" {
		s.q = f.Param.F
	}
	var pos []int32
	all := make([]columnar.Value, m)
	for k := range m {
		all[k] = arg(k)
		s.rank[k] = -1
		if !all[k].Null {
			pos = append(pos, int32(k))
		}
	}
	if f.Name == "quantile_disc" {
		slices.SortStableFunc(pos, func(a, b int32) int { return columnar.Compare(all[a], all[b]) })
		s.vals = make([]columnar.Value, len(pos))
		for r, k := range pos {
			s.vals[r] = all[k]
		}
	} else {
		fl := make([]float64, m)
		for _, k := range pos {
			fl[k] = all[k].AsFloat()
		}
		slices.SortStableFunc(pos, func(a, b int32) int { return columnar.CompareFloat(fl[a], fl[b]) })
		s.xs = make([]float64, len(pos))
		for r, k := range pos {
			s.xs[r] = fl[k]
		}
	}
	for r, k := range pos {
		s.rank[k] = int32(r)
	}
	s.tree = make([]int32, len(pos)+1)
	for s.lg = 1; s.lg*2 <= len(pos); s.lg *= 2 {
	}
	return s
}

func (s *quantileSlider) update(k int, d int32) {
	r := s.rank[k]
	if r < 0 {
		return
	}
	for i := int(r) + 1; i < len(s.tree); i += i & -i {
		s.tree[i] += d
	}
	s.n += int(d)
	s.dirty = true
}

func (s *quantileSlider) add(k int)    { s.update(k, 1) }
func (s *quantileSlider) remove(k int) { s.update(k, -1) }

// kth returns the rank of the j-th smallest (0-based) value of the frame.
func (s *quantileSlider) kth(j int) int {
	pos, left := 0, int32(j+1)
	for step := s.lg; step > 0; step >>= 1 {
		if next := pos + step; next < len(s.tree) && s.tree[next] < left {
			pos = next
			left -= s.tree[next]
		}
	}
	return pos // tree index pos+1, rank pos
}

func (s *quantileSlider) result(t columnar.Type) columnar.Value {
	if !s.dirty {
		return s.cache
	}
	s.dirty = false
	switch {
	case s.n == 0:
		s.cache = columnar.NullValue(t)
	case s.vals != nil:
		s.cache = s.vals[s.kth(discreteIndex(s.n, s.q))]
	default:
		// Linear interpolation around q·(n-1), as windowAcc.holistic.
		p := s.q * float64(s.n-1)
		lo, hi := int(math.Floor(p)), int(math.Ceil(p))
		a, b := s.xs[s.kth(lo)], s.xs[s.kth(hi)]
		s.cache = columnar.FloatValue(t, a+(p-float64(lo))*(b-a))
	}
	return s.cache
}

// distinctSlider is count, sum or avg of DISTINCT values: a count per
// distinct value in the frame, the value joining the result when its count
// leaves 0 and leaving it when it returns to 0.
type distinctSlider struct {
	id  []int32          // by partition row: its value's id, -1 for NULL
	val []columnar.Value // by id
	cnt []int32          // by id: rows of the frame holding it
	acc windowAcc        // n, isum, fsum of the distinct values held
}

func newDistinctSlider(f *WindowFunc, m int, arg func(int) columnar.Value) frameSlider {
	s := &distinctSlider{acc: windowAcc{name: f.Name}}
	s.id, s.val, _ = valueIDs(m, arg)
	if f.Name != "count" && len(s.val) > 0 && !isPlainInt(s.val[0].Type) {
		// A float (or decimal, summed as floats too) sum taken apart
		// again would drift from the sum of the frame's values; those
		// frames are summed whole.
		return nil
	}
	s.cnt = make([]int32, len(s.val))
	return s
}

func (s *distinctSlider) add(k int) {
	id := s.id[k]
	if id < 0 {
		return
	}
	if s.cnt[id]++; s.cnt[id] == 1 {
		s.acc.n++
		s.acc.isum += s.val[id].I
		s.acc.fsum += s.val[id].AsFloat()
	}
}

func (s *distinctSlider) remove(k int) {
	id := s.id[k]
	if id < 0 {
		return
	}
	if s.cnt[id]--; s.cnt[id] == 0 {
		s.acc.n--
		s.acc.isum -= s.val[id].I
		// Integers only (newDistinctSlider): their float sum is exact
		// below 2^53, so taking one out leaves no error.
		s.acc.fsum -= s.val[id].AsFloat()
	}
}

func (s *distinctSlider) result(t columnar.Type) columnar.Value { return s.acc.result(t) }

// valueIDs numbers the distinct values of a partition's m rows (as
// DISTINCT and GROUP BY tell them apart: keyOf) in order of first sight:
// id[k] is row k's, -1 for NULL; val[id] the value, first[id] the row it
// was first seen at.
func valueIDs(m int, arg func(int) columnar.Value) (id []int32, val []columnar.Value, first []int32) {
	id = make([]int32, m)
	ids := map[distinctKey]int32{}
	for k := range m {
		v := arg(k)
		id[k] = -1
		if v.Null {
			continue
		}
		key := keyOf(v)
		x, ok := ids[key]
		if !ok {
			x = int32(len(val))
			ids[key] = x
			val = append(val, v)
			first = append(first, int32(k))
		}
		id[k] = x
	}
	return id, val, first
}

// modeSlider is mode over frames that only grow (UNBOUNDED PRECEDING): a
// count per value, and the value with the top count, the earliest first
// seen on a tie, as the whole-frame computation picks (aggstate_window.go).
type modeSlider struct {
	id    []int32          // by partition row: its value's id, -1 for NULL
	val   []columnar.Value // by id
	first []int32          // by id: the row it was first seen at
	cnt   []int32
	best  int32 // id, -1 for none
}

func newModeSlider(m int, arg func(int) columnar.Value) *modeSlider {
	s := &modeSlider{best: -1}
	s.id, s.val, s.first = valueIDs(m, arg)
	s.cnt = make([]int32, len(s.val))
	return s
}

func (s *modeSlider) add(k int) {
	id := s.id[k]
	if id < 0 {
		return
	}
	s.cnt[id]++
	if s.best < 0 || s.cnt[id] > s.cnt[s.best] || s.cnt[id] == s.cnt[s.best] && s.first[id] < s.first[s.best] {
		s.best = id
	}
}

// remove is never called: mode slides only frames that start at the
// partition's first row.
func (s *modeSlider) remove(int) { panic("executor: mode frame lost a row") }

func (s *modeSlider) result(t columnar.Type) columnar.Value {
	if s.best < 0 {
		return columnar.NullValue(t)
	}
	return s.val[s.best]
}
