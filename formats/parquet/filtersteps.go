package parquet

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// Compiled filter steps. A pushed filter is a conjunction such as TPC-H
// Q6's
//
//	l_shipdate >= d1 AND l_shipdate < d2 AND l_discount BETWEEN a AND b AND l_quantity < q
//
// Evaluated predicate by predicate through a generic comparison, each row
// pays an indirect call per predicate. Instead, the comparisons of one
// numeric column against constants (=, <, <=, >, >=, BETWEEN) intersect
// into one closed range [lo, hi], tested in a tight loop with one unsigned
// comparison per row (uint64(v-lo) <= hi-lo), and the selection is built
// or shrunk in place, branch-free. Anything else (OR, IN, <>, strings,
// booleans, a NaN constant) is a stepPred, evaluated by mark. An InSet
// key set (a runtime join filter) is a stepSet: one membership call per
// selected row, skipped once the set stops paying (index.KeySet.Active).

type stepKind uint8

const (
	stepPred  stepKind = iota // pred through mark
	stepNone                  // the ranges of a column do not intersect: no row passes
	stepInt                   // lo <= v <= hi on Ints
	stepUint                  // lo <= v <= hi on Uints
	stepFloat                 // flo <= v <= fhi on Floats, NaN only if !fhiSet
	stepSet                   // pred.Set.Has(v) on Ints
)

// step is one test of a compiled conjunction.
type step struct {
	kind     stepKind
	col      int
	lo, hi   int64 // stepInt; stepUint as uint64 bits
	flo, fhi float64
	fhiSet   bool // stepFloat has an upper bound (which NaN, above every number, fails)
	pred     index.Pred
}

// compileSteps appends to dst the steps of the conjunction preds, in the
// order of each column's first predicate.
func compileSteps(dst []step, preds []index.Pred) []step {
	for _, p := range preds {
		if p.Op == index.InSet {
			dst = append(dst, step{kind: stepSet, col: p.Col, pred: p})
			continue
		}
		kind, ok := rangeKind(p)
		if !ok {
			dst = append(dst, step{kind: stepPred, col: p.Col, pred: p})
			continue
		}
		at := -1
		for k := range dst {
			if dst[k].col == p.Col && (dst[k].kind == kind || dst[k].kind == stepNone) {
				at = k
				break
			}
		}
		if at < 0 {
			dst = append(dst, fullRange(kind, p.Col))
			at = len(dst) - 1
		}
		dst[at].narrow(p)
	}
	return dst
}

// rangeKind reports whether p is a comparison with constants that a range
// step evaluates, and which.
func rangeKind(p index.Pred) (stepKind, bool) {
	switch p.Op {
	case index.Eq, index.Lt, index.Le, index.Gt, index.Ge, index.Between:
	default:
		return 0, false
	}
	switch p.Vals[0].Type.Phys() {
	case columnar.PhysInt:
		return stepInt, true
	case columnar.PhysUint:
		return stepUint, true
	case columnar.PhysFloat:
		for _, v := range p.Vals {
			if math.IsNaN(v.F) {
				return 0, false
			}
		}
		// x > +Inf holds for NaN only: not a range of numbers.
		if p.Op == index.Gt && math.IsInf(p.Vals[0].F, 1) {
			return 0, false
		}
		return stepFloat, true
	}
	return 0, false
}

// fullRange is the step of kind on col that every non-NULL value passes.
func fullRange(kind stepKind, col int) step {
	st := step{kind: kind, col: col}
	switch kind {
	case stepInt:
		st.lo, st.hi = math.MinInt64, math.MaxInt64
	case stepUint:
		st.lo, st.hi = 0, -1 // 0 .. MaxUint64
	case stepFloat:
		st.flo, st.fhi = math.Inf(-1), math.Inf(1)
	}
	return st
}

// narrow intersects the step's range with p's.
func (st *step) narrow(p index.Pred) {
	if st.kind == stepNone {
		return
	}
	lo, hi := p.Vals[0], p.Vals[0]
	hasLo, hasHi := false, false
	loOpen, hiOpen := false, false
	switch p.Op {
	case index.Eq:
		hasLo, hasHi = true, true
	case index.Lt:
		hasHi, hiOpen = true, true
	case index.Le:
		hasHi = true
	case index.Gt:
		hasLo, loOpen = true, true
	case index.Ge:
		hasLo = true
	case index.Between:
		hi = p.Vals[1]
		hasLo, hasHi = true, true
	}
	switch st.kind {
	case stepInt:
		if hasLo {
			x := lo.I
			if loOpen {
				if x == math.MaxInt64 {
					st.kind = stepNone
					return
				}
				x++
			}
			st.lo = max(st.lo, x)
		}
		if hasHi {
			x := hi.I
			if hiOpen {
				if x == math.MinInt64 {
					st.kind = stepNone
					return
				}
				x--
			}
			st.hi = min(st.hi, x)
		}
		if st.lo > st.hi {
			st.kind = stepNone
		}
	case stepUint:
		l, h := uint64(st.lo), uint64(st.hi)
		if hasLo {
			x := uint64(lo.I)
			if loOpen {
				if x == math.MaxUint64 {
					st.kind = stepNone
					return
				}
				x++
			}
			l = max(l, x)
		}
		if hasHi {
			x := uint64(hi.I)
			if hiOpen {
				if x == 0 {
					st.kind = stepNone
					return
				}
				x--
			}
			h = min(h, x)
		}
		st.lo, st.hi = int64(l), int64(h)
		if l > h {
			st.kind = stepNone
		}
	case stepFloat:
		// Open bounds become closed ones at the neighbouring float:
		// x > c is x >= next(c) and x < c is x <= prev(c) (-0 and +0
		// compare equal both ways, as in CompareFloat). NaN is above
		// every number: it passes a lower bound and fails an upper one.
		if hasLo {
			x := lo.F
			if loOpen {
				x = math.Nextafter(x, math.Inf(1))
			}
			st.flo = max(st.flo, x)
		}
		if hasHi {
			x := hi.F
			if hiOpen {
				if math.IsInf(x, -1) {
					st.kind = stepNone
					return
				}
				x = math.Nextafter(x, math.Inf(-1))
			}
			st.fhi = min(st.fhi, x)
			st.fhiSet = true
		}
		if st.fhiSet && st.flo > st.fhi {
			st.kind = stepNone
		}
	}
}

// selectDense returns the rows of [0, len(out)) that pass (a range step),
// written into out.
func (st *step) selectDense(v *columnar.Vector, out []int) []int {
	n := len(out)
	switch st.kind {
	case stepInt:
		out = rangeDense(v.Ints[:n], st.lo, uint64(st.hi)-uint64(st.lo), out)
	case stepUint:
		out = rangeDense(v.Uints[:n], uint64(st.lo), uint64(st.hi)-uint64(st.lo), out)
	case stepFloat:
		out = floatDense(v.Floats[:n], st.flo, st.fhi, st.fhiSet, out)
	}
	return dropNulls(v.Valid, out)
}

// selectSparse keeps the rows of sel that pass (a range step), in place.
func (st *step) selectSparse(v *columnar.Vector, sel []int) []int {
	switch st.kind {
	case stepInt:
		sel = rangeSparse(v.Ints, st.lo, uint64(st.hi)-uint64(st.lo), sel)
	case stepUint:
		sel = rangeSparse(v.Uints, uint64(st.lo), uint64(st.hi)-uint64(st.lo), sel)
	case stepFloat:
		sel = floatSparse(v.Floats, st.flo, st.fhi, st.fhiSet, sel)
	}
	return dropNulls(v.Valid, sel)
}

// selectSet keeps the non-NULL rows of sel (dense: rows [0, len(sel)),
// written into sel) whose key may be in set, in place.
func selectSet(v *columnar.Vector, set *index.KeySet, sel []int, dense bool) []int {
	if set.Select != nil {
		return dropNulls(v.Valid, set.Select(v.Ints, sel, dense))
	}
	has, vals := set.Has, v.Ints
	k := 0
	if dense {
		vals = vals[:len(sel)]
		for i, x := range vals {
			sel[k] = i
			if has(x) {
				k++
			}
		}
	} else {
		for _, i := range sel {
			sel[k] = i
			if has(vals[i]) {
				k++
			}
		}
	}
	return dropNulls(v.Valid, sel[:k])
}

// mark sets mask[i] for the non-NULL rows i of sel in the step's range.
func (st *step) mark(v *columnar.Vector, sel []int, mask []bool) {
	switch st.kind {
	case stepInt:
		markRange(v.Ints, st.lo, uint64(st.hi)-uint64(st.lo), v.Valid, sel, mask)
	case stepUint:
		markRange(v.Uints, uint64(st.lo), uint64(st.hi)-uint64(st.lo), v.Valid, sel, mask)
	case stepFloat:
		for _, i := range sel {
			x := v.Floats[i]
			if !(x < st.flo) && (!st.fhiSet || x <= st.fhi) && (v.Valid == nil || v.Valid.Get(i)) {
				mask[i] = true
			}
		}
	}
}

func markRange[T int64 | uint64](data []T, lo T, span uint64, valid columnar.Bitmap, sel []int, mask []bool) {
	for _, i := range sel {
		if uint64(data[i]-lo) <= span && (valid == nil || valid.Get(i)) {
			mask[i] = true
		}
	}
}

// rangeDense writes to out the i with lo <= data[i] <= lo+span: the
// subtraction wraps values below lo above span, so one unsigned comparison
// tests both bounds.
func rangeDense[T int64 | uint64](data []T, lo T, span uint64, out []int) []int {
	out = out[:len(data)]
	k := 0
	for i, x := range data {
		out[k] = i
		if uint64(x-lo) <= span {
			k++
		}
	}
	return out[:k]
}

func rangeSparse[T int64 | uint64](data []T, lo T, span uint64, sel []int) []int {
	k := 0
	for _, i := range sel {
		sel[k] = i
		if uint64(data[i]-lo) <= span {
			k++
		}
	}
	return sel[:k]
}

// floatDense writes to out the i with lo <= data[i] (<= hi if hiSet), in
// the total order of CompareFloat: !(x < lo) lets NaN through a lower
// bound, x <= hi stops it at an upper one.
func floatDense(data []float64, lo, hi float64, hiSet bool, out []int) []int {
	out = out[:len(data)]
	k := 0
	if !hiSet {
		for i, x := range data {
			out[k] = i
			if !(x < lo) {
				k++
			}
		}
		return out[:k]
	}
	for i, x := range data {
		out[k] = i
		if !(x < lo) && x <= hi {
			k++
		}
	}
	return out[:k]
}

func floatSparse(data []float64, lo, hi float64, hiSet bool, sel []int) []int {
	k := 0
	if !hiSet {
		for _, i := range sel {
			sel[k] = i
			if !(data[i] < lo) {
				k++
			}
		}
		return sel[:k]
	}
	for _, i := range sel {
		sel[k] = i
		x := data[i]
		if !(x < lo) && x <= hi {
			k++
		}
	}
	return sel[:k]
}

// dropNulls removes from sel the rows NULL in valid (nil: none).
func dropNulls(valid columnar.Bitmap, sel []int) []int {
	if valid == nil {
		return sel
	}
	k := 0
	for _, i := range sel {
		sel[k] = i
		if valid.Get(i) {
			k++
		}
	}
	return sel[:k]
}
