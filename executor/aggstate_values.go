package executor

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// valueLists holds the values of every group of a holistic aggregate in
// typed per-group slices, the argument's type kept once: 8 bytes a number,
// a string's bytes plus a 4-byte end offset (a columnar.Value was 64 bytes
// plus its string). Which slices a state uses depends on the aggregate and
// the argument's physical type (store).
type valueLists struct {
	typ    columnar.Type
	store  columnar.Phys // PhysInt: ints; PhysFloat: floats; PhysBytes: bytes+ends; PhysNone: nothing
	ints   [][]int64     // PhysInt, and PhysUint with the sign bit flipped (signed order = unsigned order)
	floats [][]float64   // PhysFloat
	bytes  [][]byte      // PhysBytes: a group's values back to back
	ends   [][]uint32    // the end offset in bytes[g] of each value
	modes  []modeCounts  // mode (aggstate_mode.go)
	// mode of a nested type: each group's distinct values, modeLen rows.
	modeStore *columnar.Vector
	modeLen   int
	// array_agg (aggstate_list.go): every value, in the child of
	// listStore (a LIST vector used for its child only), and each group's
	// rows of it.
	listStore *columnar.Vector
	rows      [][]int32
	// var_*/stddev_* keep no values but running moments (Welford's
	// update): each group's count, mean and sum of squared deviations of
	// the values shifted by its first one (a large common offset then
	// costs no precision).
	moments              bool
	mn, mean, msq, shift []float64
	seq                  int64 // mode: values seen so far, for the first-seen tie rule
}

const uintFlip = uint64(1) << 63

// grow makes room for n groups of aggregate kind over arguments of type t.
func (v *valueLists) grow(kind AggKind, t columnar.Type, n int) {
	v.typ = t
	v.store = t.Phys()
	switch {
	case kind == AggApproxCountDistinct || kind == AggApproxQuantile:
		return // a sketch or digest per group (aggstate_approx*.go)
	case kind.bitAgg() || kind == AggBitstringAgg:
		return // one uint64 or BIT per group, grown as rows come (aggstate_bits.go, aggstate_bitstring.go)
	case kind == AggMode || kind == AggEntropy || kind == AggHistogram || kind == AggApproxTopK:
		v.modes = growZero(v.modes, n)
		if kind != AggEntropy && v.store == columnar.PhysNested && v.modeStore == nil {
			v.modeStore = columnar.NewVector(t, 0)
		}
		return
	case kind == AggList:
		v.rows = growZero(v.rows, n)
		if v.listStore == nil {
			v.listStore = columnar.NewVector(columnar.ListOf(t), 0)
		}
		return
	case kind >= AggVarSamp && kind <= AggStddevPop:
		v.moments = true
		v.mn, v.mean, v.msq, v.shift = growZero(v.mn, n), growZero(v.mean, n), growZero(v.msq, n), growZero(v.shift, n)
		return
	case v.store == columnar.PhysUint:
		v.store = columnar.PhysInt
	}
	switch v.store {
	case columnar.PhysInt:
		v.ints = growZero(v.ints, n)
	case columnar.PhysFloat:
		v.floats = growZero(v.floats, n)
	case columnar.PhysBytes:
		v.bytes = growZero(v.bytes, n)
		v.ends = growZero(v.ends, n)
	case columnar.PhysNested:
		// quantile_disc of lists and structs: the values in listStore's
		// child, each group's rows of it, as array_agg keeps them
		v.rows = growZero(v.rows, n)
		if v.listStore == nil {
			v.listStore = columnar.NewVector(columnar.ListOf(t), 0)
		}
	}
}

// count is the number of values of group g.
func (v *valueLists) count(g int) int {
	if v.moments {
		return int(v.mn[g])
	}
	switch v.store {
	case columnar.PhysInt:
		return len(v.ints[g])
	case columnar.PhysFloat:
		return len(v.floats[g])
	case columnar.PhysBytes:
		return len(v.ends[g])
	case columnar.PhysNested:
		return len(v.rows[g])
	}
	return 0
}

// adder returns the function that appends row i of arg to group g.
func (v *valueLists) adder(kind AggKind, arg *columnar.Vector) func(g int32, i int) {
	switch {
	case v.moments:
		// Numbers as doubles, converted as Value.AsFloat does.
		switch {
		case arg.Type.Phys() == columnar.PhysFloat:
			return func(g int32, i int) { v.addMoment(g, arg.Floats[i]) }
		case arg.Type.Phys() == columnar.PhysUint:
			return func(g int32, i int) { v.addMoment(g, float64(arg.Uints[i])) }
		case arg.Type.ID == columnar.Decimal:
			div := math.Pow10(int(arg.Type.Scale))
			return func(g int32, i int) { v.addMoment(g, float64(arg.Ints[i])/div) }
		case arg.Type.Phys() == columnar.PhysInt:
			return func(g int32, i int) { v.addMoment(g, float64(arg.Ints[i])) }
		}
	case v.store == columnar.PhysFloat:
		return func(g int32, i int) { v.floats[g] = append(v.floats[g], arg.Floats[i]) }
	case v.store == columnar.PhysInt && arg.Type.Phys() == columnar.PhysUint:
		return func(g int32, i int) { v.ints[g] = append(v.ints[g], int64(arg.Uints[i]^uintFlip)) }
	case v.store == columnar.PhysInt:
		return func(g int32, i int) { v.ints[g] = append(v.ints[g], arg.Ints[i]) }
	case v.store == columnar.PhysBytes:
		return func(g int32, i int) {
			v.bytes[g] = append(v.bytes[g], arg.Bytes[i]...)
			v.ends[g] = append(v.ends[g], uint32(len(v.bytes[g])))
		}
	case v.store == columnar.PhysNested:
		return func(g int32, i int) { v.rows[g] = append(v.rows[g], int32(v.listStore.AppendKidOwned(arg, i))) }
	}
	return func(int32, int) {}
}

// addMoment folds x into group g's moments (Welford): stable without a
// second pass, exact (variance 0) for a constant column.
func (v *valueLists) addMoment(g int32, x float64) {
	if v.mn[g] == 0 {
		v.shift[g] = x
	}
	x -= v.shift[g]
	v.mn[g]++
	d := x - v.mean[g]
	v.mean[g] += d / v.mn[g]
	v.msq[g] += d * (x - v.mean[g])
}

// variance is group g's sample or population variance; ok is false for a
// sample of fewer than 2 values.
func (v *valueLists) variance(g int, sample bool) (float64, bool) {
	n := v.mn[g]
	switch {
	case n == 0 || sample && n < 2:
		return 0, false
	case sample:
		return v.msq[g] / (n - 1), true
	}
	return v.msq[g] / n, true
}

// str is value j of group g (PhysBytes).
func (v *valueLists) str(g, j int) []byte {
	start := uint32(0)
	if j > 0 {
		start = v.ends[g][j-1]
	}
	return v.bytes[g][start:v.ends[g][j]:v.ends[g][j]]
}

// joined is group g's values in input order, separated by sep.
func (v *valueLists) joined(g int, sep string) []byte {
	ends := v.ends[g]
	out := make([]byte, 0, len(v.bytes[g])+len(sep)*(len(ends)-1))
	for j := range ends {
		if j > 0 {
			out = append(out, sep...)
		}
		out = append(out, v.str(g, j)...)
	}
	return out
}

// float is the double of a stored int.
func (v *valueLists) float(x int64) float64 {
	if v.typ.Phys() == columnar.PhysUint {
		return float64(uint64(x) ^ uintFlip)
	}
	return columnar.Value{Type: v.typ, I: x}.AsFloat()
}

// continuous is quantile_cont(q) of group g (at least one value): the
// linear interpolation between the values of rank ⌊q·(n-1)⌋ and the next.
// It reorders the group's values.
func (v *valueLists) continuous(g int, q float64) float64 {
	var lo, hi, frac float64
	if v.store == columnar.PhysFloat {
		lo, hi, frac = contPick(v.floats[g], q, columnar.CompareFloat)
	} else {
		a, b, d := contPick(v.ints[g], q, cmp.Compare[int64])
		lo, hi, frac = v.float(a), v.float(b), d
	}
	if frac == 0 {
		return lo
	}
	return lo*(1-frac) + hi*frac // DuckDB's double interpolation
}

// discreteIndex is the rank quantile_disc(q) picks among n sorted values,
// as DuckDB: the first value whose cumulative share reaches q (rank
// ⌈n·q⌉-1, at least 0), with the floor taken as n - ⌊n - n·q⌋.
func discreteIndex(n int, q float64) int {
	if math.Signbit(q) {
		// a descending quantile: the rank of -q counted from the top
		return n - 1 - discreteIndex(n, -q)
	}
	floored := int(math.Floor(float64(n) - float64(n)*q))
	return max(1, n-floored) - 1
}

// AggReservoirQuantile is reservoir_quantile(x, q [, size]): the group's
// value of rank ⌊(n-1)·q⌋ in ascending order, of x's type. DuckDB ranks a
// random sample of size values (8192 by default) and so answers exactly
// up to that many; b2sql ranks every value, the answer DuckDB approaches.
const AggReservoirQuantile AggKind = 107

// reservoirIndex is the rank reservoir_quantile(q) picks among n values.
func reservoirIndex(n int, q float64) int { return int(math.Floor(float64(n-1) * q)) }

// discrete writes quantile_disc(q) of group g (at least one value) into
// out row k (of n): an actual value of the group, of the argument's type.
func (v *valueLists) discrete(out *columnar.Vector, k, n, g int, q float64) {
	v.ranked(out, k, n, g, func(m int) int { return discreteIndex(m, q) })
}

// ranked writes the value of group g whose rank among its m values is
// rank(m) into out row k (of n).
func (v *valueLists) ranked(out *columnar.Vector, k, n, g int, rank func(m int) int) {
	switch v.store {
	case columnar.PhysFloat:
		xs := v.floats[g]
		out.Floats[k], _ = nthAndNext(xs, rank(len(xs)), columnar.CompareFloat)
	case columnar.PhysInt:
		xs := v.ints[g]
		x, _ := nthAndNext(xs, rank(len(xs)), cmp.Compare[int64])
		if out.Type.Phys() == columnar.PhysUint {
			out.Uints[k] = uint64(x) ^ uintFlip
		} else {
			out.Ints[k] = x
		}
	case columnar.PhysBytes:
		idx := make([]int32, len(v.ends[g]))
		for j := range idx {
			idx[j] = int32(j)
		}
		j, _ := nthAndNext(idx, rank(len(idx)), func(a, b int32) int {
			return columnar.CompareBytes(v.str(g, int(a)), v.str(g, int(b)))
		})
		out.Bytes[k] = v.str(g, int(j))
	case columnar.PhysNested:
		// a list or struct: its rows in listStore's child, by DuckDB's
		// order of nested values
		kid := v.listStore.Kids[0]
		rows := v.rows[g]
		j, _ := nthAndNext(rows, rank(len(rows)), func(a, b int32) int {
			return columnar.Compare(kid.Value(int(a)), kid.Value(int(b)))
		})
		out.SetValue(k, n, kid.Value(int(j)))
	}
}

// contRank is the lower rank and the upper weight of quantile q of n values.
func contRank(n int, q float64) (int, float64) {
	rn := float64(n-1) * q
	return int(math.Floor(rn)), rn - math.Floor(rn)
}

// contPick returns the two values quantile q of xs (reordered) lies
// between and the weight d on the second. A negative q (its sign bit set:
// -0 too) counts ranks from the top, as DuckDB's descending quantiles:
// the values of ranks ⌊(n-1)·|q|⌋ and the next in descending order.
func contPick[T any](xs []T, q float64, c func(a, b T) int) (lo, hi T, d float64) {
	n := len(xs)
	if !math.Signbit(q) {
		r, d := contRank(n, q)
		lo, hi := nthAndNext(xs, r, c)
		return lo, hi, d
	}
	r, d := contRank(n, -q)
	if d == 0 || r >= n-1 {
		x, _ := nthAndNext(xs, n-1-r, c)
		return x, x, 0
	}
	below, above := nthAndNext(xs, n-2-r, c)
	return above, below, d
}

// nthAndNext reorders xs so that xs[r] is the value of rank r (quickselect
// with a three-way partition, so runs of equal values end it early), and
// returns it with the value of rank r+1 (xs[r] again when r is the last).
// It runs in linear time on average where a sort would take n·log n; past
// 2·log2(n) rounds it sorts what is left, bounding the worst case.
func nthAndNext[T any](xs []T, r int, cmp func(a, b T) int) (T, T) {
	lo, hi := 0, len(xs)
	for rounds := 2 * bits.Len(uint(len(xs))); hi-lo > 16; rounds-- {
		if rounds == 0 {
			slices.SortFunc(xs[lo:hi], cmp)
			break
		}
		p := median3(xs[lo], xs[lo+(hi-lo)/2], xs[hi-1], cmp)
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch c := cmp(xs[i], p); {
			case c < 0:
				xs[lt], xs[i] = xs[i], xs[lt]
				lt++
				i++
			case c > 0:
				gt--
				xs[i], xs[gt] = xs[gt], xs[i]
			default:
				i++
			}
		}
		switch {
		case r < lt:
			hi = lt
		case r >= gt:
			lo = gt
		default:
			lo, hi = r, r // xs[lt:gt] all equal p: rank r is found
		}
	}
	if hi-lo > 1 {
		slices.SortFunc(xs[lo:hi], cmp)
	}
	x := xs[r]
	if r+1 >= len(xs) {
		return x, x
	}
	// Everything right of r is at least xs[r]: the next rank is their least.
	next := xs[r+1]
	for _, y := range xs[r+2:] {
		if cmp(y, next) < 0 {
			next = y
		}
	}
	return x, next
}

func median3[T any](a, b, c T, cmp func(a, b T) int) T {
	if cmp(a, b) > 0 {
		a, b = b, a
	}
	if cmp(b, c) > 0 {
		b = c
		if cmp(a, b) > 0 {
			b = a
		}
	}
	return b
}

// modeCounts maps a group's distinct values (their modeKey bytes) to how
// often and when first each was seen.
type modeCounts map[string]modeCount

type modeCount struct {
	n, first int64
	last     int64 // when n last grew (approx_top_k's tie rule)
	row      int   // nested values: the value's row in valueLists.modeStore
}
