package executor

import (
	"math"
	"math/big"

	"github.com/b2sql/b2sql/columnar"
)

// The statistics aggregates (planner/stats_aggs.go), computed as DuckDB
// computes them so that they give its numbers, rounding included.
// skewness, kurtosis, kurtosis_pop, product, sem, fsum and favg keep a
// running statState per group, updated in input order (DuckDB's states:
// raw power sums, a product, Welford's moments, a Kahan sum); entropy
// and mad keep the group's values (holistic, aggstate_mad.go).
const (
	AggSkewness AggKind = 40 + iota
	AggKurtosis
	AggKurtosisPop
	AggProduct
	AggSem
	AggFsum
	AggFavg
	AggEntropy
	AggMad
)

// streamingStat reports whether k keeps a statState rather than values.
func (k AggKind) streamingStat() bool { return k >= AggSkewness && k <= AggFavg }

// statKinds are the statistics by the name a window function carries.
var statKinds = map[string]AggKind{
	"skewness": AggSkewness, "kurtosis": AggKurtosis, "kurtosis_pop": AggKurtosisPop, "product": AggProduct,
	"sem": AggSem, "fsum": AggFsum, "favg": AggFavg, "entropy": AggEntropy, "mad": AggMad,
}

// statState is one group's running state of a streaming statistic:
//
//	skewness, kurtosis*  n and the sums of x, x², x³, x⁴ (a, b, c, d)
//	product              n and the product (a)
//	sem                  Welford's n, mean (a) and squared deviations (b)
//	fsum, favg           n, the Kahan sum (a) and its running error (b)
type statState struct {
	n          int64
	a, b, c, d float64
}

func (m *statState) add(kind AggKind, x float64) {
	switch kind {
	case AggSkewness, AggKurtosis, AggKurtosisPop:
		m.a += x
		m.b += powRounded(x, 2)
		m.c += powRounded(x, 3)
		if kind != AggSkewness {
			m.d += powRounded(x, 4)
		}
	case AggProduct:
		if m.n == 0 {
			m.a = 1
		}
		m.a *= x
	case AggSem:
		n := float64(m.n + 1)
		mean := m.a + (x-m.a)/n
		m.b += (x - mean) * (x - m.a)
		m.a = mean
	case AggFsum, AggFavg:
		kahanAdd(x, &m.a, &m.b)
	}
	m.n++
}

// kahanAdd is DuckDB's KahanAddInternal: the running error is taken off
// the next input, and fsum's result is the sum without it.
func kahanAdd(x float64, sum, err *float64) {
	d := x - *err
	t := *sum + d
	*err = (t - *sum) - d
	*sum = t
}

// powRounded is x^k (k = 2, 3 or 4) rounded once, as C's pow rounds it:
// products carried in two doubles (the error of each by a fused
// multiply-add), so that power sums round as DuckDB's do.
func powRounded(x float64, k int) float64 {
	hi, lo := x, 0.0
	for range k - 1 {
		p := hi * x
		if math.IsInf(p, 0) || math.IsNaN(p) || p == 0 {
			return p
		}
		lo = math.FMA(hi, x, -p) + lo*x
		hi = p
	}
	return hi + lo
}

// result is the statistic of the state; ok is false where DuckDB answers
// NULL. skewness and kurtosis may be infinite or NaN where DuckDB reports
// an error: the binder wraps them in stat_check (func_stats.go).
func (m *statState) result(kind AggKind) (float64, bool) {
	if m.n == 0 {
		return 0, false
	}
	n := float64(m.n)
	switch kind {
	case AggProduct, AggFsum:
		return m.a, true
	case AggFavg:
		return m.a/n + m.b/n, true
	case AggSem:
		return math.Sqrt(m.b/n) / math.Sqrt(n), true
	case AggSkewness:
		return m.skewness()
	case AggKurtosis, AggKurtosisPop:
		return m.kurtosis(kind == AggKurtosis)
	}
	return 0, false
}

// skewness follows DuckDB's SkewnessOperation::Finalize: NULL for up to 2
// values and for a second moment within rounding noise of zero.
func (m *statState) skewness() (float64, bool) {
	if m.n <= 2 {
		return 0, false
	}
	n := float64(m.n)
	temp := 1 / n
	rawM2 := m.b - m.a*m.a*temp
	finite := func(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }
	if finite(rawM2) && finite(m.b) && math.Abs(rawM2) <= 0x1p-52*math.Max(1, math.Abs(m.b)) {
		return 0, false
	}
	variance := temp * rawM2
	if variance <= 0 {
		return 0, false
	}
	div := math.Sqrt(math.Pow(variance, 3))
	temp1 := math.Sqrt(n*(n-1)) / (n - 2)
	return temp1 * temp * (m.c - 3*m.b*m.a*temp + 2*math.Pow(m.a, 3)*temp*temp) / div, true
}

// kurtosis follows DuckDB's KurtosisOperation::Finalize, sample (bias
// corrected, NULL below 4 values) or population (NULL below 2).
func (m *statState) kurtosis(sample bool) (float64, bool) {
	n := float64(m.n)
	if n <= 1 || sample && n <= 3 {
		return 0, false
	}
	temp := 1 / n
	if m.b-m.a*m.a*temp == 0 || zeroExtended(m.b, m.a*m.a, n) {
		return 0, false
	}
	m4 := temp * (m.d - 4*m.c*m.a*temp + 6*m.b*m.a*m.a*temp*temp - 3*math.Pow(m.a, 4)*math.Pow(temp, 3))
	m2 := temp * (m.b - m.a*m.a*temp)
	if m2 <= 0 {
		return 0, false
	}
	if !sample {
		return m4/(m2*m2) - 3, true
	}
	return (n - 1) * ((n+1)*m4/(m2*m2) - 3*(n-1)) / ((n - 2) * (n - 3)), true
}

// zeroExtended reports whether sumSq - sq·(1/n) is zero in x87 extended
// precision (64-bit mantissa): DuckDB's second test for a constant column,
// `sum_sqr - sum * sum * temp_aux == 0` with temp_aux a long double.
func zeroExtended(sumSq, sq, n float64) bool {
	if math.IsInf(sq, 0) || math.IsNaN(sq) || math.IsInf(sumSq, 0) || math.IsNaN(sumSq) {
		return false
	}
	f := func() *big.Float { return new(big.Float).SetPrec(64) }
	inv := f().Quo(f().SetFloat64(1), f().SetFloat64(n))
	prod := f().Mul(f().SetFloat64(sq), inv)
	return f().Sub(f().SetFloat64(sumSq), prod).Sign() == 0
}

// statAdd folds the live non-NULL rows of arg (numbers, read as DOUBLE)
// into their groups' states; with DISTINCT only values new to a group.
func (s *aggState) statAdd(b *columnar.Batch, arg *columnar.Vector, gids []int32) error {
	x := floatReader(arg)
	kind := s.spec.Kind
	if s.distinct != nil {
		fresh, err := s.distinct.fresh(b, arg, gids)
		for _, i := range fresh {
			s.st[gids[i]].add(kind, x(i))
		}
		return err
	}
	b.ForEach(func(i int) {
		if !arg.IsNull(i) {
			s.st[gids[i]].add(kind, x(i))
		}
	})

	return nil
}

// floatReader reads row i of a numeric vector as a double, as
// Value.AsFloat converts (the binder casts other types to DOUBLE).
func floatReader(v *columnar.Vector) func(i int) float64 {
	switch {
	case v.Type.Phys() == columnar.PhysFloat:
		return func(i int) float64 { return v.Floats[i] }
	case v.Type.Phys() == columnar.PhysUint:
		return func(i int) float64 { return float64(v.Uints[i]) }
	case v.Type.ID == columnar.Decimal:
		div := math.Pow10(int(v.Type.Scale))
		return func(i int) float64 { return float64(v.Ints[i]) / div }
	case v.Type.Phys() == columnar.PhysInt:
		return func(i int) float64 { return float64(v.Ints[i]) }
	}
	return func(i int) float64 { return v.Value(i).AsFloat() }
}

// statResult writes groups [from, to) into out (DOUBLE).
func (s *aggState) statResult(out *columnar.Vector, from, to int) {
	n := to - from
	for k := range n {
		v, ok := s.st[from+k].result(s.spec.Kind)
		if !ok {
			out.SetNull(k, n)
			continue
		}
		out.Floats[k] = v
	}
}

// fnStatCheck is stat_check(x, name): x, or the error DuckDB reports
// ("SKEW is out of range!") where the statistic is infinite or NaN.
func fnStatCheck(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if x := a[0].F; math.IsInf(x, 0) || math.IsNaN(x) {
		return columnar.Value{}, errorf("%s is out of range", a[1].S)
	}
	return a[0], nil
}
