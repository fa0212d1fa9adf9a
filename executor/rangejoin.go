package executor

import (
	"bytes"
	"cmp"
	"context"
	"math"
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
// conjuncts filter it. A second conjunct bounding another build expression
// from the other side (lo <= x AND x <= hi, an interval join) prunes the
// run by blocks of zoneRows sorted rows: each block keeps that
// expression's min and max, and a block none of whose rows can satisfy the
// conjunct is skipped whole, as a SUMMARY index skips blocks.

// RangeKey is a conjunct Left Op Right of a join condition: Left reads the
// probe (left) row, Right the build row, both of the same type.
type RangeKey struct {
	Left, Right Expr
	Op          string // "<", "<=", ">" or ">="
	// SameRight (a second key): Right is the first key's Right, so the
	// key cuts the sorted run; otherwise it prunes the run's blocks.
	SameRight bool
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
	zone  *rangeZone // a second key on another build expression, or nil
	bytes int64      // what the index takes
}

// newRangeIndex sorts the n build rows of store by key.Right; nil when the
// keys do not qualify.
func newRangeIndex(ctx context.Context, keys []RangeKey, store *chunkedStore, types []columnar.Type) (*rangeIndex, error) {
	if len(keys) == 0 || store.n == 0 || !rangeOrderable(keys[0].Right.Type()) || keys[0].Left.Type() != keys[0].Right.Type() {
		return nil, nil
	}
	x := &rangeIndex{keys: keys[:1], phys: keys[0].Right.Type().Phys()}
	if len(keys) > 1 && keys[1].Left.Type() == keys[1].Right.Type() && lower(keys[1].Op) != lower(keys[0].Op) {
		if keys[1].SameRight {
			x.keys = keys[:2] // the same build expression, bounded from the other side
		} else if zoneable(keys[1].Right.Type()) {
			x.zone = &rangeZone{key: keys[1]}
		}
	}
	var perm []int32
	var row int32
	each := store.eachBatch
	if c, ok := ColumnIndex(keys[0].Right); ok && c < len(types) && (x.zone == nil || sameColumn(x.zone.key.Right, c)) {
		each = store.eachColumn(c) // the one column read: no copy of the others
	}
	err := each(types, func(b *columnar.Batch) error {
		v, err := keys[0].Right.Eval(b)
		if err != nil {
			return err
		}
		var zv *columnar.Vector
		if x.zone != nil {
			if zv, err = x.zone.key.Right.Eval(b); err != nil {
				return err
			}
		}
		for i := range b.Len {
			r := row + int32(i)
			if v.IsNull(i) {
				continue
			}
			if zv != nil {
				x.zone.collect(zv, i)
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
	// Sorted in runs and merged (sort_perm.go), so that a cancelled query
	// stops within milliseconds however big the build; ties by position.
	var by func(a, b int32) int
	switch x.phys {
	case columnar.PhysInt:
		by = func(a, b int32) int { return cmp.Compare(x.ints[a], x.ints[b]) }
	case columnar.PhysUint:
		by = func(a, b int32) int { return cmp.Compare(uint64(x.ints[a]), uint64(x.ints[b])) }
	case columnar.PhysFloat:
		by = func(a, b int32) int { return columnar.CompareFloat(x.flts[a], x.flts[b]) }
	case columnar.PhysBytes:
		by = func(a, b int32) int { return bytes.Compare(x.strs[a], x.strs[b]) }
	}
	idx, err = mergeSort(ctx, idx, func(a, b int32) int {
		if c := by(a, b); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if err != nil {
		return nil, err
	}
	switch x.phys {
	case columnar.PhysInt, columnar.PhysUint:
		x.ints = permuted(x.ints, idx)
	case columnar.PhysFloat:
		x.flts = permuted(x.flts, idx)
	case columnar.PhysBytes:
		x.strs = permuted(x.strs, idx)
	}
	x.rows = permuted(perm, idx)
	x.bytes = int64(len(perm)) * (4 + 8)
	if x.zone != nil {
		x.zone.finish(idx)
		x.bytes += int64(len(x.zone.vals)) * 8
	}
	for _, s := range x.strs {
		x.bytes += int64(len(s)) + 24
	}
	return x, nil
}

// sameColumn reports whether e is stored column c.
func sameColumn(e Expr, c int) bool {
	k, ok := ColumnIndex(e)
	return ok && k == c
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
	keys := x.keys
	if x.zone != nil {
		keys = []RangeKey{keys[0], x.zone.key}
	}
	for _, k := range keys {
		v, err := k.Left.Eval(b)
		if err != nil {
			return nil, err
		}
		left = append(left, v)
	}
	return left, nil
}

// run returns the positions [lo, hi) of the order that may match probe
// row i, whose Left values are left's (none when a value is NULL).
func (x *rangeIndex) run(left []*columnar.Vector, i int) (int, int) {
	lo, hi := 0, len(x.rows)
	if x.zone != nil && left[1].IsNull(i) {
		return 0, 0
	}
	for k, key := range x.keys {
		v := left[k]
		if v.IsNull(i) {
			return 0, 0
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
	return lo, min(max(lo, hi), len(x.rows))
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
	if err := j.res.Grow(x.bytes); err != nil {
		if j.blk == nil {
			return nil
		}
		j.res.Force(x.bytes) // a block's order is a fraction of its rows
	}
	j.rng = x
	return nil
}

// zoneRows is the block of sorted rows a rangeZone keeps a min and max for:
// skipping a block costs one check instead of zoneRows pairs.
const zoneRows = 64

// rangeZone is a second range key on another build expression: its
// values in the sorted order, and their min and max per block.
type rangeZone struct {
	key      RangeKey
	vals     []int64 // in build order, then sorted order (floats as bits)
	null     []bool
	min, max []int64 // per block; has[b] false: every value NULL
	has      []bool
	float    bool
}

func zoneable(t columnar.Type) bool {
	return rangeOrderable(t) && (t.Phys() == columnar.PhysInt || t.Phys() == columnar.PhysFloat)
}

// collect records row i of v (in build order, for the rows sorted).
func (z *rangeZone) collect(v *columnar.Vector, i int) {
	k := i
	if v.Const {
		k = 0
	}
	z.null = append(z.null, v.IsNull(i))
	if v.Type.Phys() == columnar.PhysFloat {
		z.float = true
		z.vals = append(z.vals, int64(math.Float64bits(v.Floats[k])))
		return
	}
	z.vals = append(z.vals, v.Ints[k])
}

func (z *rangeZone) cmp(a, b int64) int {
	if z.float {
		return columnar.CompareFloat(math.Float64frombits(uint64(a)), math.Float64frombits(uint64(b)))
	}
	return cmp.Compare(a, b)
}

// finish puts the values in the sorted order and sums up the blocks.
func (z *rangeZone) finish(idx []int32) {
	z.vals, z.null = permuted(z.vals, idx), permuted(z.null, idx)
	nb := (len(z.vals) + zoneRows - 1) / zoneRows
	z.min, z.max, z.has = make([]int64, nb), make([]int64, nb), make([]bool, nb)
	for p, v := range z.vals {
		if z.null[p] {
			continue
		}
		b := p / zoneRows
		if !z.has[b] {
			z.min[b], z.max[b], z.has[b] = v, v, true
			continue
		}
		if z.cmp(v, z.min[b]) < 0 {
			z.min[b] = v
		}
		if z.cmp(v, z.max[b]) > 0 {
			z.max[b] = v
		}
	}
	z.null = nil
}

// may reports whether block b has a row whose value satisfies
// probe op value, probe being row i of left.
func (z *rangeZone) may(left *columnar.Vector, i, b int) bool {
	if !z.has[b] {
		return false
	}
	if left.Const {
		i = 0
	}
	var p int64
	if z.float {
		p = int64(math.Float64bits(left.Floats[i]))
	} else {
		p = left.Ints[i]
	}
	switch z.key.Op {
	case "<": // value > p
		return z.cmp(z.max[b], p) > 0
	case "<=":
		return z.cmp(z.max[b], p) >= 0
	case ">": // value < p
		return z.cmp(z.min[b], p) < 0
	}
	return z.cmp(z.min[b], p) <= 0
}

// fillRange makes up to MaxBatch pairs of a range join from the cursor on:
// each probe row with the sorted build rows of its run, skipping the
// blocks the zone rules out.
func (j *HashJoin) fillRange() {
	c, x := &j.nested, j.rng
	settled := j.oneMatchSettles()
	for c.k < len(j.lrows) && len(j.pairL) < columnar.MaxBatch {
		if settled && j.lmatch[c.k] {
			c.k, c.started = c.k+1, false // matched already (nestedloop.go)
			continue
		}
		row := j.lrows[c.k]
		if !c.started {
			c.r, c.hi = x.run(j.rngLeft, row)
			c.started = true
		}
		for c.r < c.hi && len(j.pairL) < columnar.MaxBatch {
			end := c.hi
			if x.zone != nil {
				b := c.r / zoneRows
				end = min(end, (b+1)*zoneRows)
				if !x.zone.may(j.rngLeft[1], row, b) {
					c.r = end
					continue
				}
			}
			end = min(end, c.r+columnar.MaxBatch-len(j.pairL))
			for _, r := range x.rows[c.r:end] {
				j.pairL = append(j.pairL, int32(c.k))
				j.pairR = append(j.pairR, r)
			}
			c.r = end
		}
		if c.r >= c.hi {
			c.k, c.started = c.k+1, false
		}
	}
}
