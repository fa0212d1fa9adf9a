package ctable

import (
	"bytes"
	"cmp"
	"math"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// Late materialization (index.LateMaterialization): a batch decodes the
// columns of the pushed predicates first and evaluates them; the other
// columns are decoded only when some live row still matches, and the batch
// goes out with a selection of the matching rows. Predicates stay Inexact
// (the Filter above the scan re-checks them), so an evaluation here only
// needs to keep every matching row: it does, with the executor's order
// (NaN equal to NaN and above every number, NULL matching nothing but IS
// NULL).

// latePred is a pushed predicate the scan can evaluate: it reads one
// column, produced at position out of spec.Cols. fi is its position in
// spec.Filter; all, if set, says in which blocks an index proved it true
// on every row (index.All: NULL-free, NaN-free, within the bounds), where
// it is not evaluated.
type latePred struct {
	p   index.Pred
	out int
	fi  int
	all []bool
}

// proven reports whether the index proved lp true on every row of the
// blocks physical rows [lo, lo+n) lie in.
func (lp *latePred) proven(lo int64, n int, grain int64) bool {
	if lp.all == nil || n <= 0 {
		return false
	}
	for b := lo / grain; b <= (lo+int64(n)-1)/grain; b++ {
		if !lp.all[b] {
			return false
		}
	}
	return true
}

// latePreds picks the predicates of spec.Filter a batch can evaluate: on a
// single column among the first 64 the scan produces, not half of a
// complex column (whose values are not what the predicate compares). Nil
// when the rule is off.
func (t *Table) latePreds(spec index.ScanSpec) []latePred {
	if !spec.On(index.LateMaterialization) {
		return nil
	}
	var out []latePred
	for fi, p := range spec.Filter {
		c := predColumn(p)
		if c < 0 || c >= len(t.cols) {
			continue
		}
		if strings.HasPrefix(t.srcs[t.cols[c].src].spec.Kind, "complex") {
			continue
		}
		if !lateEvaluable(p, t.schema[c].Type) {
			continue
		}
		for i, sc := range spec.Cols {
			if sc == c && i < 64 { // tableWorker.rows tracks 64 columns
				out = append(out, latePred{p: p, out: i, fi: fi})
				break
			}
		}
	}
	return out
}

// lateEvaluable reports whether p can be evaluated on a column of type t
// (SupportsFilter offers such predicates as Inexact).
func lateEvaluable(p index.Pred, t columnar.Type) bool {
	if p.Op == index.InSet {
		// A join filter's key set: the JoinFilterOp above the scan tests it
		// (the planner hands key sets only to tables that apply them Exact).
		return false
	}
	if p.Op == index.Or {
		for _, q := range p.Any {
			if !lateEvaluable(q, t) {
				return false
			}
		}
		return len(p.Any) > 0
	}
	for _, v := range p.Vals {
		if v.Null || v.Type.Phys() != t.Phys() {
			return false
		}
	}
	return true
}

// matchSel appends to out the rows of sel (nil: rows [0, n)) where p may
// hold on v. Rows it cannot decide (a dictionary-coded vector, a type it
// does not compare) are kept.
func matchSel(p index.Pred, v *columnar.Vector, sel []int, n int, out []int) []int {
	if lo, hi, nan, ok := rangeOf(p, v); ok {
		return selRange(v, lo, hi, nan, sel, n, out)
	}
	if base, set, ok := intSetOf(p, v); ok {
		start := len(out)
		return dropNulls(v, selIntSet(v.Ints[:n], base, set, sel, out), start)
	}
	if out, ok := selBytes(p, v, sel, n, out); ok {
		return out
	}
	keep := rowMatcher(p, v)
	if sel == nil {
		for i := 0; i < n; i++ {
			if keep(i) {
				out = append(out, i)
			}
		}
		return out
	}
	for _, i := range sel {
		if keep(i) {
			out = append(out, i)
		}
	}
	return out
}

// rowMatcher compiles p (on the column held by v) into a per-row test,
// choosing the comparison once per batch.
func rowMatcher(p index.Pred, v *columnar.Vector) func(i int) bool {
	all := func(int) bool { return true }
	if v.Dict != nil || v.Const || !lateEvaluable(p, v.Type) {
		return all
	}
	switch p.Op {
	case index.IsNull:
		return v.IsNull
	case index.IsNotNull:
		return func(i int) bool { return !v.IsNull(i) }
	case index.Or:
		subs := make([]func(int) bool, len(p.Any))
		for k, q := range p.Any {
			subs[k] = rowMatcher(q, v)
		}
		return func(i int) bool {
			for _, f := range subs {
				if f(i) {
					return true
				}
			}
			return false
		}
	}
	cmpAt := comparer(v, p.Vals)
	if cmpAt == nil {
		return all
	}
	var test func(i int) bool
	switch p.Op {
	case index.Eq:
		test = func(i int) bool { return cmpAt(i, 0) == 0 }
	case index.Ne:
		test = func(i int) bool { return cmpAt(i, 0) != 0 }
	case index.Lt:
		test = func(i int) bool { return cmpAt(i, 0) < 0 }
	case index.Le:
		test = func(i int) bool { return cmpAt(i, 0) <= 0 }
	case index.Gt:
		test = func(i int) bool { return cmpAt(i, 0) > 0 }
	case index.Ge:
		test = func(i int) bool { return cmpAt(i, 0) >= 0 }
	case index.Between:
		test = func(i int) bool { return cmpAt(i, 0) >= 0 && cmpAt(i, 1) <= 0 }
	case index.In:
		nv := len(p.Vals)
		test = func(i int) bool {
			for k := 0; k < nv; k++ {
				if cmpAt(i, k) == 0 {
					return true
				}
			}
			return false
		}
	default:
		return all
	}
	if v.Valid == nil {
		return test
	}
	return func(i int) bool { return !v.IsNull(i) && test(i) }
}

// comparer returns a function comparing row i of v with vals[k] (of v's
// physical type), in the executor's order; nil for types it does not know.
func comparer(v *columnar.Vector, vals []columnar.Value) func(i, k int) int {
	switch v.Type.Phys() {
	case columnar.PhysInt:
		return func(i, k int) int { return cmp.Compare(v.Ints[i], vals[k].I) }
	case columnar.PhysUint:
		return func(i, k int) int { return cmp.Compare(v.Uints[i], uint64(vals[k].I)) }
	case columnar.PhysFloat:
		return func(i, k int) int { return columnar.CompareFloat(v.Floats[i], vals[k].F) }
	case columnar.PhysBytes:
		keys := make([][]byte, len(vals))
		for k, x := range vals {
			keys[k] = []byte(x.S)
		}
		return func(i, k int) int { return bytes.Compare(v.Bytes[i], keys[k]) }
	case columnar.PhysBool:
		return func(i, k int) int {
			b := int64(0)
			if v.Bools[i] {
				b = 1
			}
			return cmp.Compare(b, vals[k].I)
		}
	}
	return nil
}

// rangeOf turns a comparison on an integer or float column into the
// closed interval of values it keeps (and, for floats, whether NaN, which
// sorts above every number, is kept), so that selRange can test every row
// with two comparisons and no call: strict bounds move to the next value.
// ok is false for other predicates and types.
func rangeOf(p index.Pred, v *columnar.Vector) (lo, hi columnar.Value, nan, ok bool) {
	if v.Dict != nil || v.Const || !lateEvaluable(p, v.Type) {
		return lo, hi, false, false
	}
	switch v.Type.Phys() {
	case columnar.PhysInt:
		lo, hi = columnar.Value{I: math.MinInt64}, columnar.Value{I: math.MaxInt64}
		c := func(k int) int64 { return p.Vals[k].I }
		switch p.Op {
		case index.Eq:
			lo.I, hi.I = c(0), c(0)
		case index.Lt:
			if c(0) == math.MinInt64 {
				lo.I, hi.I = 1, 0 // empty
			} else {
				hi.I = c(0) - 1
			}
		case index.Le:
			hi.I = c(0)
		case index.Gt:
			if c(0) == math.MaxInt64 {
				lo.I, hi.I = 1, 0
			} else {
				lo.I = c(0) + 1
			}
		case index.Ge:
			lo.I = c(0)
		case index.Between:
			lo.I, hi.I = c(0), c(1)
		default:
			return lo, hi, false, false
		}
		return lo, hi, false, true
	case columnar.PhysFloat:
		for _, x := range p.Vals {
			if math.IsNaN(x.F) {
				return lo, hi, false, false
			}
		}
		lo, hi = columnar.Value{F: math.Inf(-1)}, columnar.Value{F: math.Inf(1)}
		c := func(k int) float64 { return p.Vals[k].F }
		switch p.Op {
		case index.Eq:
			lo.F, hi.F = c(0), c(0)
		case index.Lt:
			hi.F = math.Nextafter(c(0), math.Inf(-1))
		case index.Le:
			hi.F = c(0)
		case index.Gt:
			lo.F, nan = math.Nextafter(c(0), math.Inf(1)), true
		case index.Ge:
			lo.F, nan = c(0), true
		case index.Between:
			lo.F, hi.F = c(0), c(1)
		default:
			return lo, hi, false, false
		}
		return lo, hi, nan, true
	}
	return lo, hi, false, false
}

// selRange appends the rows of sel (nil: [0, n)) whose value lies in
// [lo, hi] (or is NaN, if nan), NULLs excluded.
func selRange(v *columnar.Vector, lo, hi columnar.Value, nan bool, sel []int, n int, out []int) []int {
	start := len(out)
	if v.Type.Phys() == columnar.PhysInt {
		vals, a, b := v.Ints[:n], lo.I, hi.I
		if sel == nil && a <= b {
			out = selIntRange(vals, a, b, out)
		} else if sel == nil {
			// a > b: an empty range
		} else {
			for _, i := range sel {
				if x := vals[i]; x >= a && x <= b {
					out = append(out, i)
				}
			}
		}
	} else {
		vals, a, b := v.Floats[:n], lo.F, hi.F
		if sel == nil {
			out = selFloatRange(vals, a, b, nan, out)
		} else {
			for _, i := range sel {
				if x := vals[i]; (x >= a && x <= b) || (nan && x != x) {
					out = append(out, i)
				}
			}
		}
	}
	return dropNulls(v, out, start)
}

// dropNulls removes the NULL rows of v from out[start:].
func dropNulls(v *columnar.Vector, out []int, start int) []int {
	if v.Valid == nil {
		return out
	}
	keep := out[:start]
	for _, i := range out[start:] {
		if !v.IsNull(i) {
			keep = append(keep, i)
		}
	}
	return keep
}

// intSetOf turns IN over an integer column whose values all lie in
// [base, base+63] into that base and a mask with bit x-base set for each
// value x, so that selIntSet tests a row with a shift and no call (the
// closure per row and per value of rowMatcher was most of a scan's CPU
// for region IN (1, 5, 7)). ok is false for other predicates and sets.
func intSetOf(p index.Pred, v *columnar.Vector) (base int64, set uint64, ok bool) {
	if p.Op != index.In || len(p.Vals) == 0 || v.Dict != nil || v.Const ||
		v.Type.Phys() != columnar.PhysInt || !lateEvaluable(p, v.Type) {
		return 0, 0, false
	}
	base = p.Vals[0].I
	for _, x := range p.Vals[1:] {
		base = min(base, x.I)
	}
	for _, x := range p.Vals {
		d := uint64(x.I - base) // x ≥ base: exact
		if d >= 64 {
			return 0, 0, false
		}
		set |= 1 << d
	}
	return base, set, true
}

// selIntSet appends the rows of sel (nil: every row of vals) whose value
// is in the set intSetOf made. d = x-base wraps for x < base or far above
// it, but d < 64 then only where x-base is a bit of the set: a value of
// the set, as every value of the set is base+d without overflow.
func selIntSet(vals []int64, base int64, set uint64, sel []int, out []int) []int {
	if sel != nil {
		for _, i := range sel {
			if d := uint64(vals[i] - base); d < 64 && set>>d&1 != 0 {
				out = append(out, i)
			}
		}
		return out
	}
	start := len(out)
	out, buf := selRoom(out, len(vals))
	k := 0
	for i, x := range vals {
		buf[k] = i
		d := uint64(x - base)
		k += int(set>>(d&63)&1) & b2i(d < 64)
	}
	return out[:start+k]
}

// selIntRange appends the positions of vals in [a, b] (a <= b) without a
// branch per row: a ≤ x ≤ b is one unsigned comparison, uint64(x-a) ≤
// uint64(b-a) (exact in two's complement arithmetic), and every position is
// written while only the matching ones advance the end. A selective
// predicate (region = 3 keeps a tenth of the rows) made the branchy loop
// mispredict on most rows.
func selIntRange(vals []int64, a, b int64, out []int) []int {
	start := len(out)
	out, buf := selRoom(out, len(vals))
	w := uint64(b - a)
	k := 0
	for i, x := range vals {
		buf[k] = i
		k += b2i(uint64(x-a) <= w)
	}
	return out[:start+k]
}

// selFloatRange is selIntRange for floats: positions of vals in [a, b],
// or NaN when nan is set.
func selFloatRange(vals []float64, a, b float64, nan bool, out []int) []int {
	start := len(out)
	out, buf := selRoom(out, len(vals))
	isNaN := b2i(nan)
	k := 0
	for i, x := range vals {
		buf[k] = i
		k += b2i(x >= a)&b2i(x <= b) | isNaN&b2i(x != x)
	}
	return out[:start+k]
}

// selRoom returns out with room for n more positions and that room.
func selRoom(out []int, n int) ([]int, []int) {
	start := len(out)
	if cap(out)-start < n {
		grown := make([]int, start, start+n)
		copy(grown, out)
		out = grown
	}
	return out, out[start : start+n]
}

// b2i is 1 for true, 0 for false (compiled to a flag move, no branch).
func b2i(c bool) int {
	var i int
	if c {
		i = 1
	}
	return i
}
