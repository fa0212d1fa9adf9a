package parquet

import (
	"bytes"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
	"github.com/b2sql/b2sql/index"
)

// Row filtering: the scan applies the predicates it declared Exact (see
// SupportsFilter) to decoded rows, with the executor's semantics: NULL
// fails every comparison, floats compare with NaN equal to itself and above
// every number (columnar.CompareFloat), strings compare as bytes.

// rowFilter evaluates a conjunction of predicates over decoded column
// vectors. It owns scratch space reused across batches; not safe for
// concurrent use.
//
// The conjunction is compiled into steps (filtersteps.go): the range
// predicates of one numeric column (>=, <, BETWEEN, = …) merge into one
// lo <= v <= hi test evaluated in a single pass, and the selection shrinks
// in place after each step, so later steps look only at surviving rows. A
// column is decoded when its first step runs: once nothing is selected,
// the remaining filter columns of the batch are not decoded at all.
type rowFilter struct {
	mask  []bool
	sel   []int
	steps []step
	cols  []int
	codes codeTables
	ints  []int64 // an IN's constants (filterin.go)
}

// whereFunc decodes the current batch's rows of string column col
// testing keep on each value as it is read: only the values kept are
// copied out (the other rows are left nil and never read), and their rows
// are appended to sel. ok is false when the column is not read that way
// (nothing was decoded then).
type whereFunc func(col int, keep func(x []byte) bool, sel []int) (_ []int, ok bool, _ error)

// apply returns the rows in [0, n) where every predicate holds, in order.
// vec decodes (on first call for the batch) and returns the vector of a
// table column, of which only the rows in sel (nil: all) will be read in
// this batch; its error is returned as is. where (may be nil) decodes a
// string column under the batch's first test instead (decodeTesting).
// The result is valid until the next call.
func (f *rowFilter) apply(preds []index.Pred, vec func(col int, sel []int) (*columnar.Vector, error), where whereFunc, n int) ([]int, error) {
	f.steps = compileSteps(f.steps[:0], preds)
	f.sel = grow(f.sel, n)
	dense := true // f.sel is implicitly 0..n-1
	for k := range f.steps {
		st := &f.steps[k]
		if !dense && len(f.sel) == 0 {
			break
		}
		if st.kind == stepNone {
			f.sel = f.sel[:0]
			dense = false
			break
		}
		if st.kind == stepPred {
			if dense && where != nil {
				done, err := f.decodeTesting(st.pred, where)
				if err != nil {
					return nil, err
				}
				if done {
					dense = false
					continue
				}
			}
			if err := f.markStep(st.pred, vec, dense, n); err != nil {
				return nil, err
			}
			dense = false
			continue
		}
		if st.kind == stepSet && !st.pred.Set.Active() {
			continue // the set stopped paying: every row passes
		}
		var rows []int // the rows this and later steps read
		if !dense {
			rows = f.sel
		}
		v, err := vec(st.col, rows)
		if err != nil {
			return nil, err
		}
		switch {
		case st.kind == stepSet:
			tested := len(f.sel)
			if dense {
				tested = n
			}
			f.sel = selectSet(v, st.pred.Set, f.sel[:tested], dense)
			st.pred.Set.Record(tested, tested-len(f.sel))
		case dense:
			f.sel = st.selectDense(v, f.sel[:n])
		default:
			f.sel = st.selectSparse(v, f.sel)
		}
		dense = false
	}
	if dense {
		for i := range f.sel {
			f.sel[i] = i
		}
	}
	return f.sel, nil
}

// decodeTesting runs the first test of a batch, a comparison of a string
// column with constants, on the values as where reads them: a scan that
// keeps few rows (LIKE 'p%' on unsorted text) then copies only those
// instead of every value, and walks the values once. It reports whether
// it did; f.sel then holds the rows kept.
func (f *rowFilter) decodeTesting(p index.Pred, where whereFunc) (bool, error) {
	switch p.Op {
	case index.Eq, index.Lt, index.Le, index.Gt, index.Ge, index.Between:
	default:
		return false, nil
	}
	vals, ok := predBytes(p)
	if !ok {
		return false, nil
	}
	sel, ok, err := where(p.Col, bytesKeeper(p.Op, vals), f.sel[:0])
	if ok {
		f.sel = sel
	}
	return ok, err
}

// markStep keeps the selected rows where p holds, through mark (the
// general path: OR, IN, <>, strings, booleans, NaN constants). The columns
// p reads are decoded first.
func (f *rowFilter) markStep(p index.Pred, vec func(col int, sel []int) (*columnar.Vector, error), dense bool, n int) error {
	f.cols = p.Cols(f.cols[:0])
	var rows []int // the rows this and later steps read
	if !dense {
		rows = f.sel
	}
	for _, c := range f.cols {
		if _, err := vec(c, rows); err != nil {
			return err
		}
	}
	if dense {
		f.sel = f.sel[:n]
		for i := range f.sel {
			f.sel[i] = i
		}
	}
	if p.Op != index.Or && p.Op != index.IsNull && p.Op != index.IsNotNull {
		v, _ := vec(p.Col, rows)
		if v.Dict != nil {
			// A string column read as codes: one table lookup per row.
			d, codes, _ := dict.Of(v)
			f.sel = selectCodes(f.codes.table(d, p), codes, v.Valid, f.sel)
			return nil
		}
		if ints, ok := inInts(p, v, f.ints); ok {
			f.ints = ints
			f.sel = selectInInts(v.Ints, ints, v.Valid, f.sel)
			return nil
		}
	}
	f.sel = f.markSel(p, func(c int) *columnar.Vector { v, _ := vec(c, rows); return v }, f.sel)
	return nil
}

// markSel keeps the rows of sel where p holds, through mark (the general
// path: OR, IN, <>, strings, booleans, NaN constants).
func (f *rowFilter) markSel(p index.Pred, v func(int) *columnar.Vector, sel []int) []int {
	if len(sel) == 0 {
		return sel
	}
	f.mask = grow(f.mask, sel[len(sel)-1]+1)
	for _, i := range sel {
		f.mask[i] = false
	}
	mark(p, v, sel, f.mask, &f.codes)
	k := 0
	for _, i := range sel {
		if f.mask[i] {
			sel[k] = i
			k++
		}
	}
	return sel[:k]
}

// mark sets mask[i] for the rows i in sel where p holds (an OR marks a row
// when any branch holds; rows already marked stay marked).
func mark(p index.Pred, vec func(col int) *columnar.Vector, sel []int, mask []bool, memo *codeTables) {
	if p.Op == index.Or {
		for _, q := range p.Any {
			mark(q, vec, sel, mask, memo)
		}
		return
	}
	v := vec(p.Col)
	switch p.Op {
	case index.InSet: // inside an OR; alone it is a stepSet
		for _, i := range sel {
			if (v.Valid == nil || v.Valid.Get(i)) && p.Set.Has(v.Ints[i]) {
				mask[i] = true
			}
		}
		return
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
	if kind, ok := rangeKind(p); ok {
		// A comparison inside an OR: the range test of its step.
		st := fullRange(kind, p.Col)
		st.narrow(p)
		st.mark(v, sel, mask)
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
		if d, codes, ok := dict.Of(v); ok {
			markCodes(memo.table(d, p), codes, v.Valid, sel, mask)
			return
		}
		vals := make([][]byte, len(p.Vals))
		for k, x := range p.Vals {
			vals[k] = []byte(x.S)
		}
		if keep := bytesKeeper(p.Op, vals); keep != nil {
			markWith(keep, v.Bytes, v.Valid, sel, mask)
			return
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
	if keep := keeper(op, vals, cmp); keep != nil {
		markWith(keep, data, valid, sel, mask)
	}
}

// markWith marks the non-NULL rows of sel whose value keep accepts.
func markWith[T any](keep func(x T) bool, data []T, valid columnar.Bitmap, sel []int, mask []bool) {
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

// keeper returns the test of op against vals under the total order cmp,
// or nil for an operator that compares no value.
func keeper[T any](op index.Op, vals []T, cmp func(a, b T) int) func(x T) bool {
	switch op {
	case index.Eq:
		c := vals[0]
		return func(x T) bool { return cmp(x, c) == 0 }
	case index.Ne:
		c := vals[0]
		return func(x T) bool { return cmp(x, c) != 0 }
	case index.Lt:
		c := vals[0]
		return func(x T) bool { return cmp(x, c) < 0 }
	case index.Le:
		c := vals[0]
		return func(x T) bool { return cmp(x, c) <= 0 }
	case index.Gt:
		c := vals[0]
		return func(x T) bool { return cmp(x, c) > 0 }
	case index.Ge:
		c := vals[0]
		return func(x T) bool { return cmp(x, c) >= 0 }
	case index.Between:
		lo, hi := vals[0], vals[1]
		return func(x T) bool { return cmp(x, lo) >= 0 && cmp(x, hi) <= 0 }
	case index.In:
		return func(x T) bool {
			for _, c := range vals {
				if cmp(x, c) == 0 {
					return true
				}
			}
			return false
		}
	}
	return nil
}
