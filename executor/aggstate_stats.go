package executor

import (
	"bytes"
	"math"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// The statistics aggregates (planner/stats_aggs.go), computed from a
// group's values as DuckDB defines them. Moments are taken about the mean
// (two passes) rather than from DuckDB's raw power sums: the same value,
// without the cancellation raw sums suffer for large values.
const (
	AggSkewness AggKind = 40 + iota
	AggKurtosis
	AggKurtosisPop
	AggEntropy
	AggProduct
	AggGeomean
	AggSem
	AggFsum
	AggFavg
	AggMad
)

func (k AggKind) stats() bool { return k >= AggSkewness && k <= AggMad }

// floatsOf returns group g's values as doubles (DECIMALs unscaled, as
// Value.AsFloat reads them).
func (v *valueLists) floatsOf(g int) []float64 {
	if v.store == columnar.PhysFloat {
		return v.floats[g]
	}
	xs := make([]float64, len(v.ints[g]))
	for i, x := range v.ints[g] {
		xs[i] = v.float(x)
	}
	return xs
}

// statsResult sets row k of out to the statistic of group g, which has at
// least one value (entropy also answers for none).
func (v *valueLists) statsResult(kind AggKind, out *columnar.Vector, k, n, g int) {
	if kind == AggEntropy {
		out.Floats[k] = v.entropy(g)
		return
	}
	xs := v.floatsOf(g)
	r, ok := statOf(kind, xs)
	if !ok {
		out.SetNull(k, n)
		return
	}
	if out.Type.ID == columnar.Decimal { // mad of a DECIMAL keeps its type
		out.Ints[k] = int64(math.Round(r * math.Pow10(int(out.Type.Scale))))
		return
	}
	out.Floats[k] = r
}

// statOf is a statistic of xs (not empty); ok is false where DuckDB
// answers NULL.
func statOf(kind AggKind, xs []float64) (float64, bool) {
	n := float64(len(xs))
	switch kind {
	case AggProduct:
		p := 1.0
		for _, x := range xs {
			p *= x
		}
		return p, true
	case AggGeomean:
		var s float64
		for _, x := range xs {
			s += math.Log(x)
		}
		return math.Exp(s / n), true
	case AggFsum, AggFavg:
		s := kahanSum(xs)
		if kind == AggFavg {
			s /= n
		}
		return s, true
	case AggMad:
		med := median(slices.Clone(xs))
		dev := make([]float64, len(xs))
		for i, x := range xs {
			dev[i] = math.Abs(x - med)
		}
		return median(dev), true
	}
	mean := kahanSum(xs) / n
	var m2, m3, m4 float64
	for _, x := range xs {
		d := x - mean
		m2 += d * d
		m3 += d * d * d
		m4 += d * d * d * d
	}
	m2, m3, m4 = m2/n, m3/n, m4/n
	switch kind {
	case AggSem:
		return math.Sqrt(m2) / math.Sqrt(n), true
	case AggSkewness:
		if n <= 2 {
			return 0, false
		}
		// DuckDB divides by the zero spread of a constant column: nan.
		return math.Sqrt(n*(n-1)) / (n - 2) * m3 / math.Pow(m2, 1.5), true
	case AggKurtosis:
		if n <= 3 || m2 == 0 {
			return 0, false
		}
		return (n - 1) * ((n+1)*m4/(m2*m2) - 3*(n-1)) / ((n - 2) * (n - 3)), true
	case AggKurtosisPop:
		if n <= 1 || m2 == 0 {
			return 0, false
		}
		return m4/(m2*m2) - 3, true
	}
	return 0, false
}

// kahanSum adds xs with Kahan's compensation, as DuckDB's fsum does (the
// running error is subtracted from each next value, not added at the end).
func kahanSum(xs []float64) float64 {
	var s, e float64
	for _, x := range xs {
		d := x - e
		t := s + d
		e = (t - s) - d
		s = t
	}
	return s
}

// median is the interpolated middle of xs (reordered).
func median(xs []float64) float64 {
	slices.SortFunc(xs, columnar.CompareFloat)
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[m]
	}
	return xs[m-1] + (xs[m]-xs[m-1])/2
}

// entropy is the base-2 entropy of the frequencies of group g's values
// (0 for a group without values, as DuckDB).
func (v *valueLists) entropy(g int) float64 {
	var counts []int
	run := func(equal func(i, j int) bool, n int) {
		c := 1
		for i := 1; i <= n; i++ {
			if i < n && equal(i-1, i) {
				c++
				continue
			}
			counts = append(counts, c)
			c = 1
		}
	}
	switch v.store {
	case columnar.PhysFloat:
		xs := slices.Clone(v.floats[g])
		slices.SortFunc(xs, columnar.CompareFloat)
		run(func(i, j int) bool { return columnar.CompareFloat(xs[i], xs[j]) == 0 }, len(xs))
	case columnar.PhysInt:
		xs := slices.Clone(v.ints[g])
		slices.Sort(xs)
		run(func(i, j int) bool { return xs[i] == xs[j] }, len(xs))
	case columnar.PhysBytes:
		ss := make([][]byte, len(v.ends[g]))
		for j := range ss {
			ss[j] = v.str(g, j)
		}
		slices.SortFunc(ss, bytes.Compare)
		run(func(i, j int) bool { return bytes.Equal(ss[i], ss[j]) }, len(ss))
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	var h float64
	for _, c := range counts {
		p := float64(c) / float64(total)
		h -= p * math.Log2(p)
	}
	return h
}
