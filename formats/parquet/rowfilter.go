package parquet

import (
	"bytes"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// Row filtering: the scan applies the predicates it declared Exact (see
// SupportsFilter) to decoded rows, with the executor's semantics: NULL
// fails every comparison, floats compare with NaN equal to itself and above
// every number (columnar.CompareFloat), strings compare as bytes.

// rowFilter evaluates a conjunction of predicates over decoded column
// vectors. It owns scratch space reused across batches; not safe for
// concurrent use.
type rowFilter struct {
	mask []bool
	sel  []int
	tmp  []int
}

// apply returns the rows in [0, n) where every predicate holds, in order.
// vec returns the decoded vector of a table column. The result is valid
// until the next call.
func (f *rowFilter) apply(preds []index.Pred, vec func(col int) *columnar.Vector, n int) []int {
	f.sel = grow(f.sel, n)
	for i := range f.sel {
		f.sel[i] = i
	}
	f.mask = grow(f.mask, n)
	for _, p := range preds {
		if len(f.sel) == 0 {
			break
		}
		for _, i := range f.sel {
			f.mask[i] = false
		}
		mark(p, vec, f.sel, f.mask)
		f.tmp = f.tmp[:0]
		for _, i := range f.sel {
			if f.mask[i] {
				f.tmp = append(f.tmp, i)
			}
		}
		f.sel, f.tmp = f.tmp, f.sel
	}
	return f.sel
}

// mark sets mask[i] for the rows i in sel where p holds (an OR marks a row
// when any branch holds; rows already marked stay marked).
func mark(p index.Pred, vec func(col int) *columnar.Vector, sel []int, mask []bool) {
	if p.Op == index.Or {
		for _, q := range p.Any {
			mark(q, vec, sel, mask)
		}
		return
	}
	v := vec(p.Col)
	switch p.Op {
	case index.IsNull:
		if v.Valid != nil {
			for _, i := range sel {
				if !v.Valid.Get(i) {
					mask[i] = true
				}
			}
		}
		return
	case index.IsNotNull:
		for _, i := range sel {
			if v.Valid.Get(i) {
				mask[i] = true
			}
		}
		return
	}
	switch v.Type.Phys() {
	case columnar.PhysInt:
		vals := make([]int64, len(p.Vals))
		for k, x := range p.Vals {
			vals[k] = x.I
		}
		markOrdered(p.Op, v.Ints, vals, v.Valid, sel, mask, cmpInt[int64])
	case columnar.PhysUint:
		vals := make([]uint64, len(p.Vals))
		for k, x := range p.Vals {
			vals[k] = uint64(x.I)
		}
		markOrdered(p.Op, v.Uints, vals, v.Valid, sel, mask, cmpInt[uint64])
	case columnar.PhysFloat:
		vals := make([]float64, len(p.Vals))
		for k, x := range p.Vals {
			vals[k] = x.F
		}
		markOrdered(p.Op, v.Floats, vals, v.Valid, sel, mask, columnar.CompareFloat)
	case columnar.PhysBool:
		vals := make([]bool, len(p.Vals))
		for k, x := range p.Vals {
			vals[k] = x.I != 0
		}
		markOrdered(p.Op, v.Bools, vals, v.Valid, sel, mask, cmpBool)
	case columnar.PhysBytes:
		vals := make([][]byte, len(p.Vals))
		for k, x := range p.Vals {
			vals[k] = []byte(x.S)
		}
		markOrdered(p.Op, v.Bytes, vals, v.Valid, sel, mask, bytes.Compare)
	}
}

func cmpInt[T int64 | uint64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

// markOrdered marks the non-NULL rows of sel whose value satisfies op
// against vals under the total order cmp. One loop per operator keeps the
// operator switch out of the row loop.
func markOrdered[T any](op index.Op, data []T, vals []T, valid columnar.Bitmap, sel []int, mask []bool, cmp func(a, b T) int) {
	var keep func(x T) bool
	switch op {
	case index.Eq:
		c := vals[0]
		keep = func(x T) bool { return cmp(x, c) == 0 }
	case index.Ne:
		c := vals[0]
		keep = func(x T) bool { return cmp(x, c) != 0 }
	case index.Lt:
		c := vals[0]
		keep = func(x T) bool { return cmp(x, c) < 0 }
	case index.Le:
		c := vals[0]
		keep = func(x T) bool { return cmp(x, c) <= 0 }
	case index.Gt:
		c := vals[0]
		keep = func(x T) bool { return cmp(x, c) > 0 }
	case index.Ge:
		c := vals[0]
		keep = func(x T) bool { return cmp(x, c) >= 0 }
	case index.Between:
		lo, hi := vals[0], vals[1]
		keep = func(x T) bool { return cmp(x, lo) >= 0 && cmp(x, hi) <= 0 }
	case index.In:
		keep = func(x T) bool {
			for _, c := range vals {
				if cmp(x, c) == 0 {
					return true
				}
			}
			return false
		}
	default:
		return
	}
	if valid == nil {
		for _, i := range sel {
			if keep(data[i]) {
				mask[i] = true
			}
		}
		return
	}
	for _, i := range sel {
		if valid.Get(i) && keep(data[i]) {
			mask[i] = true
		}
	}
}
