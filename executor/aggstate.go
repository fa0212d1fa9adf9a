package executor

import (
	"math"
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
)

// aggState holds one aggregate's running state for every group, in slices
// indexed by group id.
type aggState struct {
	spec   AggSpec
	in     columnar.Type // argument type
	count  []int64       // rows counted (count, avg) or seen (sum, min, max)
	ints   []int64
	uints  []uint64
	floats []float64
	// comp carries the rounding error of float sums (TwoSum), so that a
	// SUM/AVG of doubles does not depend on the order rows arrive in:
	// parallel partial aggregates see rows in a different order every run,
	// and two evaluations of one aggregate must agree (a CTE compared with
	// its own max, TPC-H Q15).
	comp []float64
	// isum is the exact int64 part of a float SUM/AVG over integers or
	// DECIMALs (scaled integers): adding ints is cheaper than compensated
	// float additions, and exact, so order-independent. A group whose int
	// sum would overflow spills it into floats/comp first (aggstate_int.go).
	isum []int64
	wsum []columnar.Int128 // a SUM typed HUGEINT or DECIMAL(38,s) (aggstate_widesum.go)
	// keys16 holds MIN/MAX of a 128-bit type (aggstate_widesum.go).
	keys16 [][16]byte
	bytes  [][]byte
	bools  []bool
	ar     arena // min/max strings are copied here
	// distinct remembers (group, value) pairs already aggregated
	// (aggstate_distinct.go); nil when not DISTINCT.
	distinct *distinctPairs
	vals     valueLists  // holistic aggregates: the values of each group (aggstate_values.go)
	valsFrom *aggState   // the state whose vals this one reads instead (aggstate_share.go)
	hll      hllSketches // approx_count_distinct (aggstate_approx.go)
	keyBuf   []byte
	dsel     []int
	// args and argScratch: arg_max / arg_min (aggstate_argminmax.go)
	args       []argBest
	argScratch columnar.Vector
	tops       [][]topEntry // arg_max(…, n) and the like (aggstate_topn.go)
	// pub is the value last published into AggSpec.Bound, if pubOK
	// (aggstate_bound.go).
	pub   columnar.Value
	pubOK bool
	co    []coMoments // covar/corr/regr_* (aggstate_pair.go)
	st    []statState // skewness, kurtosis, product, sem, fsum, favg (aggstate_stats.go)
	// digests are approx_quantile's t-digests (aggstate_approx_quantile.go).
	digests []*tDigest
	// ungrouped is set for an aggregate without GROUP BY, whose state
	// DuckDB finalizes differently (approx_quantile).
	ungrouped bool
}

func newAggState(spec AggSpec) *aggState {
	s := &aggState{spec: spec}
	if spec.Arg != nil {
		s.in = spec.Arg.Type()
	}
	if spec.Distinct {
		s.distinct = &distinctPairs{}
	}
	return s
}

// grow makes room for groups [0, n) (new ones zero).
func (s *aggState) grow(n int) { s.size(n, false) }

// reserve gives the state's slices capacity for n groups without adding
// any: a parallel GROUP BY's final that knows about how many groups its
// partition holds (reserveGroups) then grows its states without copying
// them at each doubling (TPC-H Q18's finals: ~94,000 groups each, whose
// counts and 128-bit sums were grown from 16).
func (s *aggState) reserve(n int) { s.size(n, true) }

// size is grow, or reserve when capOnly.
func (s *aggState) size(n int, capOnly bool) {
	s.count = sizeTo(s.count, n, capOnly)
	if s.spec.Kind.keepsOne() {
		s.args = sizeTo(s.args, n, capOnly)
		return
	}
	if s.spec.Kind.pair() {
		s.co = sizeTo(s.co, n, capOnly)
		return
	}
	if s.spec.Kind.topN() {
		s.tops = sizeTo(s.tops, n, capOnly)
		return
	}
	if s.spec.Kind.streamingStat() {
		s.st = sizeTo(s.st, n, capOnly)
		return
	}
	if s.spec.Kind.holistic() {
		if s.valsFrom == nil && !capOnly {
			s.vals.grow(s.spec.Kind, s.in, n)
		}
		return
	}
	if s.wideLane() {
		s.wsum = sizeTo(s.wsum, n, capOnly) // aggstate_widesum.go
		return
	}
	if s.minMaxWide() {
		s.keys16 = sizeTo(s.keys16, n, capOnly)
		return
	}
	switch s.accPhys() {
	case columnar.PhysInt:
		s.ints = sizeTo(s.ints, n, capOnly)
	case columnar.PhysUint:
		s.uints = sizeTo(s.uints, n, capOnly)
	case columnar.PhysFloat:
		k := s.spec.Kind
		intSum := (k == AggSum || k == AggAvg) && s.in.Phys() == columnar.PhysInt
		if intSum {
			s.isum = sizeTo(s.isum, n, capOnly)
		}
		// An int sum keeps float parts only once some group spilled
		// (spill): most never do, and two slices fewer to grow and clear
		// per group is much of a high-cardinality sum's cost.
		if !intSum || s.floats != nil {
			s.floats = sizeTo(s.floats, n, capOnly)
			if k == AggSum || k == AggAvg || k == AggAvgMerge {
				s.comp = sizeTo(s.comp, n, capOnly)
			}
		}
	case columnar.PhysBytes:
		s.bytes = sizeTo(s.bytes, n, capOnly)
	case columnar.PhysBool:
		s.bools = sizeTo(s.bools, n, capOnly)
	}
}

// accPhys is the physical type of the accumulator.
func (s *aggState) accPhys() columnar.Phys {
	switch s.spec.Kind {
	case AggCountStar, AggCount:
		return columnar.PhysNone
	case AggAvg, AggAvgMerge:
		// A float accumulator cannot overflow where an int64 sum of large
		// BIGINTs would; it is exact while the sum stays below 2^53.
		return columnar.PhysFloat
	case AggSum:
		if s.wideSum() && !s.wideLane() {
			return columnar.PhysInt // 64-bit lanes until one overflows (aggstate_widesum.go)
		}
		return s.spec.Type.Phys()
	}
	return s.in.Phys()
}

// update folds the live rows of b into the groups gids[i].
func (s *aggState) update(b *columnar.Batch, arg *columnar.Vector, gids []int32) error {
	if s.spec.Kind == AggCountStar {
		if len(s.count) == 1 { // one group: every gid is 0 (aggstate_flat.go)
			s.count[0] += int64(b.Live())
			return nil
		}
		countRows(s.count, gids, b.Sel, b.Len)
		return nil
	}
	if arg.Const {
		arg = expandConst(arg, b.Len)
	}
	if s.spec.Kind.holistic() {
		return s.collect(b, arg, gids)
	}
	if s.updateFlat(b, arg) {
		return nil
	}
	// Rows with a NULL argument are ignored by every aggregate but count(*).
	sel := b.Sel
	if s.distinct != nil {
		var err error
		if sel, err = s.distinct.fresh(b, arg, gids); err != nil || len(sel) == 0 {
			return err
		}
	} else if arg.Valid != nil {
		if b.Sel == nil && s.sumsFloats(arg) {
			updateSumFloatWords(s.floats, s.comp, s.count, arg.Floats, gids, arg.Valid, b.Len)
			return nil
		}
		s.dsel = appendValid(s.dsel[:0], arg.Valid, b)
		sel = s.dsel
		if len(sel) == 0 {
			return nil
		}
	}
	rows := func(fn func(i int)) {
		if sel == nil {
			for i := 0; i < b.Len; i++ {
				fn(i)
			}
			return
		}
		for _, i := range sel {
			fn(i)
		}
	}
	if s.wideSum() {
		return s.updateWideSum(arg, gids, sel, b.Len)
	}
	if s.minMaxWide() {
		s.updateMinMaxWide(arg, gids, sel, b.Len)
		return nil
	}
	switch s.spec.Kind {
	case AggCount:
		countRows(s.count, gids, sel, b.Len)
		return nil
	case AggSum, AggAvg:
		switch s.accPhys() {
		case columnar.PhysFloat:
			vals := s.floats
			switch arg.Type.Phys() {
			case columnar.PhysFloat:
				updateSumFloat(vals, s.comp, s.count, arg.Floats, gids, sel, b.Len)
			case columnar.PhysInt:
				s.sumIntsSpill(arg.Ints, gids, sel, b.Len)
			case columnar.PhysUint:
				comp := s.comp
				rows(func(i int) { g := gids[i]; twoSum(&vals[g], &comp[g], float64(arg.Uints[i])); s.count[g]++ })
			}
			return nil
		case columnar.PhysInt:
			if !sumInts(s.ints, s.count, arg.Ints, gids, sel, b.Len) {
				if arg.Type.ID == columnar.Decimal {
					return errorf("overflow in SUM of %s: %s", arg.Type, decimalAdvice)
				}
				return errorf("overflow in SUM of %s", arg.Type)
			}
			return nil
		case columnar.PhysUint:
			vals := s.uints
			rows(func(i int) { vals[gids[i]] += arg.Uints[i]; s.count[gids[i]]++ })
			return nil
		}
	case AggMin, AggMax:
		isMin := s.spec.Kind == AggMin
		switch arg.Type.Phys() {
		case columnar.PhysInt:
			updateMinMax(s.ints, s.count, arg.Ints, gids, sel, b.Len, isMin)
		case columnar.PhysUint:
			updateMinMax(s.uints, s.count, arg.Uints, gids, sel, b.Len, isMin)
		case columnar.PhysFloat:
			minMaxFloats(s.floats, s.count, arg.Floats, gids, sel, b.Len, isMin)
		case columnar.PhysBool:
			rows(func(i int) {
				g, x := gids[i], arg.Bools[i]
				if s.count[g] == 0 || (isMin && !x) || (!isMin && x) {
					s.bools[g] = x
				}
				s.count[g]++
			})
		case columnar.PhysBytes:
			rows(func(i int) {
				g, x := gids[i], arg.Bytes[i]
				if s.count[g] == 0 {
					s.bytes[g] = s.copyBytes(x)
				} else if c := columnar.CompareBytes(x, s.bytes[g]); (c < 0) == isMin && c != 0 {
					s.bytes[g] = s.copyBytes(x)
				}
				s.count[g]++
			})
		}
		return nil
	}
	return nil
}

func (s *aggState) copyBytes(x []byte) []byte {
	buf := s.ar.alloc(len(x))
	copy(buf, x)
	return buf
}

func updateSumFloat(vals, comp []float64, counts []int64, in []float64, gids []int32, sel []int, n int) {
	if sel == nil {
		in, gids = in[:n], gids[:n]
		for i, x := range in {
			g := gids[i]
			twoSum(&vals[g], &comp[g], x)
			counts[g]++
		}
		return
	}
	for _, i := range sel {
		g := gids[i]
		twoSum(&vals[g], &comp[g], in[i])
		counts[g]++
	}
}

// updateSumFloatWords is updateSumFloat for a batch without a selection
// whose NULLs are read from the validity words, as updateFlat reads them:
// a full word is 64 rows added without a test, building no selection.
func updateSumFloatWords(vals, comp []float64, counts []int64, in []float64, gids []int32, valid columnar.Bitmap, n int) {
	for w := 0; 64*w < n; w++ {
		m, lo := word(valid, w, n), 64*w
		if m == ^uint64(0) {
			updateSumFloat(vals, comp, counts, in[lo:lo+64], gids[lo:lo+64], nil, 64)
			continue
		}
		for ; m != 0; m &= m - 1 {
			i := lo + bits.TrailingZeros64(m)
			g := gids[i]
			twoSum(&vals[g], &comp[g], in[i])
			counts[g]++
		}
	}
}

// sumsFloats reports whether s is a SUM or AVG of float arg into float
// accumulators (updateSumFloat's case).
func (s *aggState) sumsFloats(arg *columnar.Vector) bool {
	return (s.spec.Kind == AggSum || s.spec.Kind == AggAvg) && !s.wideSum() && !s.minMaxWide() &&
		s.accPhys() == columnar.PhysFloat && arg.Type.Phys() == columnar.PhysFloat
}

// floatSum is group g's compensated float sum.
func (s *aggState) floatSum(g int) float64 {
	if g < len(s.isum) {
		return s.intFloatSum(g)
	}
	v := s.floats[g]
	if g < len(s.comp) && !math.IsInf(v, 0) && !math.IsNaN(v) {
		v += s.comp[g]
	}
	return v
}

func updateMinMax[T int64 | uint64](vals []T, counts []int64, in []T, gids []int32, sel []int, n int, isMin bool) {
	upd := func(i int) {
		g, x := gids[i], in[i]
		if counts[g] == 0 || (isMin && x < vals[g]) || (!isMin && x > vals[g]) {
			vals[g] = x
		}
		counts[g]++
	}
	if sel == nil {
		for i := 0; i < n; i++ {
			upd(i)
		}
		return
	}
	for _, i := range sel {
		upd(i)
	}
}

// result writes groups [from, to) into out (rows 0..to-from).
func (s *aggState) result(out *columnar.Vector, from, to int) {
	if s.spec.Kind.keepsOne() {
		s.argResult(out, from, to)
		return
	}
	if s.spec.Kind.pair() {
		s.pairResult(out, from, to)
		return
	}
	if s.spec.Kind.topN() {
		s.topNResult(out, from, to)
		return
	}
	if s.spec.Kind.holistic() {
		s.holisticResult(out, from, to)
		return
	}
	n := to - from
	var slab []byte // wide sums, min and max: the batch's 16-byte values
	if s.wideSum() || s.minMaxWide() {
		slab = make([]byte, 0, 16*n)
	}
	for k := 0; k < n; k++ {
		g := from + k
		c := s.count[g]
		switch s.spec.Kind {
		case AggCountStar, AggCount:
			out.Ints[k] = c
			continue
		}
		if c == 0 {
			out.SetNull(k, n)
			continue
		}
		switch {
		case s.spec.Kind == AggAvg || s.spec.Kind == AggAvgMerge:
			out.Floats[k] = s.floatSum(g) / float64(c)
			continue
		case s.wideSum():
			s.wideSumResult(out, g, k, &slab)
			continue
		case s.minMaxWide():
			s.minMaxWideResult(out, g, k, &slab)
			continue
		}
		switch out.Type.Phys() {
		case columnar.PhysInt:
			out.Ints[k] = s.ints[g]
		case columnar.PhysUint:
			out.Uints[k] = s.uints[g]
		case columnar.PhysFloat:
			out.Floats[k] = s.floatSum(g)
		case columnar.PhysBytes:
			out.Bytes[k] = s.bytes[g]
		case columnar.PhysBool:
			out.Bools[k] = s.bools[g]
		}
	}
}

// mergeAvg folds partial (sum, count) pairs into the groups gids[i].
func (s *aggState) mergeAvg(b *columnar.Batch, sum, cnt *columnar.Vector, gids []int32) {
	b.ForEach(func(i int) {
		j, k := idx(sum, i), idx(cnt, i)
		if sum.IsNull(j) || cnt.IsNull(k) {
			return
		}
		g := gids[i]
		twoSum(&s.floats[g], &s.comp[g], sum.Floats[j])
		s.count[g] += cnt.Ints[k]
	})

}

func countRows(counts []int64, gids []int32, sel []int, n int) {
	if len(counts) <= fewGroups {
		countRowsLanes(counts, gids, sel, n)
		return
	}
	if sel == nil {
		for _, g := range gids[:n] {
			counts[g]++
		}
		return
	}
	for _, i := range sel {
		counts[gids[i]]++
	}
}

// sumInts adds in[i] to vals[gids[i]]; false on int64 overflow.
func sumInts(vals, counts []int64, in []int64, gids []int32, sel []int, n int) bool {
	ok := true
	add := func(i int) {
		g, x := gids[i], in[i]
		r := vals[g] + x
		if (r > vals[g]) != (x > 0) {
			ok = false
		}
		vals[g] = r
		counts[g]++
	}
	if sel == nil {
		// Overflow collects in the sign bit of bad instead of a branch
		// per row: a+x wrapped iff the result's sign differs from both.
		var bad int64
		in, gids = in[:n], gids[:n]
		for i, x := range in {
			g := gids[i]
			a := vals[g]
			r := a + x
			bad |= (a ^ r) & (x ^ r)
			vals[g] = r
			counts[g]++
		}
		return bad >= 0
	}
	for _, i := range sel {
		add(i)
	}
	return ok
}

// minMaxFloats folds floats into per-group minima or maxima; NaN is the
// greatest value (DuckDB), so it wins MAX and loses MIN.
func minMaxFloats(vals []float64, counts []int64, in []float64, gids []int32, sel []int, n int, isMin bool) {
	one := func(i int) {
		g, x := gids[i], in[i]
		if counts[g] == 0 {
			vals[g] = x
		} else if c := columnar.CompareFloat(x, vals[g]); c != 0 && (c < 0) == isMin {
			vals[g] = x
		}
		counts[g]++
	}
	if sel == nil {
		for i := 0; i < n; i++ {
			one(i)
		}
		return
	}
	for _, i := range sel {
		one(i)
	}
}
