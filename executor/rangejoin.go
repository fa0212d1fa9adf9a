package executor

import (
	"bytes"
	"cmp"
	"context"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// Range join: a nested-loop join (no equality keys) whose condition has a
// conjunct left op right (op one of < <= > >=) sorts its build rows by
// right, so that each probe row's candidates are a run of that order found
// by binary search, not every build row: a piecewise merge join, as
// DuckDB's for one inequality. With a second conjunct bounding the same
// build expression from the other side (x BETWEEN b.lo AND b.hi as
// b.lo <= x AND x <= b.hi turned around: lo op1 b.v AND b.v op2 hi), the
// run is cut at both ends: a band join. Cond is still evaluated over the
// candidates, so the run only has to contain every match; the other
// conjuncts filter it.

// RangeKey is a conjunct Left Op Right of a join condition: Left reads the
// probe (left) row, Right the build row, both of the same type.
type RangeKey struct {
	Left, Right Expr
	Op          string // "<", "<=", ">" or ">="
}

// rangeOrderable reports whether values of t sort in the order their
// comparison operators use, as rangeIndex sorts them (int64, float64 with
// NaN greatest, strings bytewise).
func rangeOrderable(t columnar.Type) bool {
	switch {
	case t.Wide():
		return false
	case t.IsInteger(), t.IsFloat(), t.ID == columnar.Decimal, t.ID == columnar.Varchar, t.IsTemporal():
		return true
	}
	return false
}

// rangeIndex is the build rows with a non-NULL Right value, sorted by it.
type rangeIndex struct {
	keys  []RangeKey // one, or two bounding the same Right from both sides
	rows  []int32    // build rows by value
	ints  []int64
	flts  []float64
	strs  [][]byte
	phys  columnar.Phys
	bytes int64 // what the index takes
}

// newRangeIndex sorts the n build rows of store by key.Right; nil when the
// keys do not qualify.
func newRangeIndex(ctx context.Context, keys []RangeKey, store *chunkedStore, types []columnar.Type) (*rangeIndex, error) {
	if len(keys) == 0 || store.n == 0 || !rangeOrderable(keys[0].Right.Type()) || keys[0].Left.Type() != keys[0].Right.Type() {
		return nil, nil
	}
	x := &rangeIndex{keys: keys[:1], phys: keys[0].Right.Type().Phys()}
	if len(keys) > 1 && keys[1].Left.Type() == keys[1].Right.Type() && lower(keys[1].Op) != lower(keys[0].Op) {
		x.keys = keys[:2] // the same build expression, bounded from the other side
	}
	var perm []int32
	var row int32
	err := store.eachBatch(types, func(b *columnar.Batch) error {
		v, err := keys[0].Right.Eval(b)
		if err != nil {
			return err
		}
		for i := range b.Len {
			r := row + int32(i)
			if v.IsNull(i) {
				continue
			}
			k := i
			if v.Const {
				k = 0
			}
			switch x.phys {
			case columnar.PhysInt:
				x.ints = append(x.ints, v.Ints[k])
			case columnar.PhysUint:
				x.ints = append(x.ints, int64(v.Uints[k]))
			case columnar.PhysFloat:
				x.flts = append(x.flts, v.Floats[k])
			case columnar.PhysBytes:
				x.strs = append(x.strs, bytesAt(v, k))
			}
			perm = append(perm, r)
		}
		row += int32(b.Len)
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	idx := make([]int32, len(perm))
	for i := range idx {
		idx[i] = int32(i)
	}
	switch x.phys {
	case columnar.PhysInt:
		slices.SortStableFunc(idx, func(a, b int32) int { return cmp.Compare(x.ints[a], x.ints[b]) })
		x.ints = permuted(x.ints, idx)
	case columnar.PhysUint:
		slices.SortStableFunc(idx, func(a, b int32) int { return cmp.Compare(uint64(x.ints[a]), uint64(x.ints[b])) })
		x.ints = permuted(x.ints, idx)
	case columnar.PhysFloat:
		slices.SortStableFunc(idx, func(a, b int32) int { return columnar.CompareFloat(x.flts[a], x.flts[b]) })
		x.flts = permuted(x.flts, idx)
	case columnar.PhysBytes:
		slices.SortStableFunc(idx, func(a, b int32) int { return bytes.Compare(x.strs[a], x.strs[b]) })
		x.strs = permuted(x.strs, idx)
	}
	x.rows = permuted(perm, idx)
	x.bytes = int64(len(perm)) * (4 + 8)
	for _, s := range x.strs {
		x.bytes += int64(len(s)) + 24
	}
	return x, nil
}

// lower reports whether op bounds the build value from below (left op
// right with < or <=: right is greater).
func lower(op string) bool { return op == "<" || op == "<=" }

func permuted[T any](s []T, idx []int32) []T {
	out := make([]T, len(idx))
	for i, k := range idx {
		out[i] = s[k]
	}
	return out
}

// probe appends the keys' Left values over a probe batch to left (the
// index is shared by the copies of a parallel probe: each has its own).
func (x *rangeIndex) probe(b *columnar.Batch, left []*columnar.Vector) ([]*columnar.Vector, error) {
	for _, k := range x.keys {
		v, err := k.Left.Eval(b)
		if err != nil {
			return nil, err
		}
		left = append(left, v)
	}
	return left, nil
}

// cands returns the build rows that may match probe row i, whose Left
// values are left's: a run of the order (none when a value is NULL).
func (x *rangeIndex) cands(left []*columnar.Vector, i int) []int32 {
	lo, hi := 0, len(x.rows)
	for k, key := range x.keys {
		v := left[k]
		if v.IsNull(i) {
			return nil
		}
		j := i
		if v.Const {
			j = 0
		}
		// first is the first position whose value is >= (strict: >) the
		// probe value.
		strict := key.Op == "<" || key.Op == ">="
		var first int
		switch x.phys {
		case columnar.PhysInt:
			first = searchRun(x.ints, v.Ints[j], strict, cmp.Compare[int64])
		case columnar.PhysUint:
			first = searchRun(x.ints, int64(v.Uints[j]), strict, func(a, b int64) int { return cmp.Compare(uint64(a), uint64(b)) })
		case columnar.PhysFloat:
			first = searchRun(x.flts, v.Floats[j], strict, columnar.CompareFloat)
		case columnar.PhysBytes:
			first = searchRun(x.strs, bytesAt(v, j), strict, bytes.Compare)
		}
		if lower(key.Op) {
			lo = max(lo, first) // right > (>=) left: from first on
		} else {
			hi = min(hi, first) // right < (<=) left: before first
		}
	}
	if lo >= hi {
		return nil
	}
	return x.rows[lo:hi]
}

// searchRun returns the first position of sorted vals whose value is >= v
// (> v when strict).
func searchRun[T any](vals []T, v T, strict bool, c func(a, b T) int) int {
	i, _ := slices.BinarySearchFunc(vals, v, func(e, t T) int {
		if r := c(e, t); r != 0 || !strict {
			return r
		}
		return -1 // equal values are before the run
	})
	return i
}

// sortRanges sorts a built nested loop's rows for its Ranges; without the
// memory for the order it stays a plain nested loop.
func (j *HashJoin) sortRanges(ctx context.Context, types []columnar.Type) error {
	j.rng = nil
	if len(j.Ranges) == 0 || len(j.RightKeys) > 0 || j.grace != nil {
		return nil
	}
	x, err := newRangeIndex(ctx, j.Ranges, j.build, types)
	if err != nil || x == nil {
		return err
	}
	if j.res.Grow(x.bytes) == nil {
		j.rng = x
	}
	return nil
}
