package ctable

import (
	"bytes"
	"cmp"
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
// column, produced at position out of spec.Cols.
type latePred struct {
	p   index.Pred
	out int
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
	for _, p := range spec.Filter {
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
				out = append(out, latePred{p: p, out: i})
				break
			}
		}
	}
	return out
}

// lateEvaluable reports whether p can be evaluated on a column of type t
// (SupportsFilter offers such predicates as Inexact).
func lateEvaluable(p index.Pred, t columnar.Type) bool {
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
