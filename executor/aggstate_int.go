package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// sumIntsSpill adds in[i] (integers, or DECIMALs scaled by 10^scale) to
// the exact int64 sums isum[gids[i]] of a float SUM/AVG. A group whose sum
// would overflow first moves it, as a float, into its compensated float
// sum and starts over from the row's value.
func (s *aggState) sumIntsSpill(in []int64, gids []int32, sel []int, n int) {
	isum, counts := s.isum, s.count
	if sel == nil {
		in, gids = in[:n], gids[:n]
		for i, x := range in {
			g := gids[i]
			r := isum[g] + x
			if (r > isum[g]) != (x > 0) {
				s.spill(g)
				r = x
			}
			isum[g] = r
			counts[g]++
		}
		return
	}
	for _, i := range sel {
		g, x := gids[i], in[i]
		r := isum[g] + x
		if (r > isum[g]) != (x > 0) {
			s.spill(g)
			r = x
		}
		isum[g] = r
		counts[g]++
	}
}

// intScale is the divisor that turns the argument's scaled integers into
// values: 10^scale for DECIMAL, 1 for integers.
func (s *aggState) intScale() float64 {
	if s.in.ID != columnar.Decimal {
		return 1
	}
	return math.Pow10(int(s.in.Scale))
}

// spill moves group g's int sum into its float sum.
func (s *aggState) spill(g int32) {
	if s.floats == nil {
		s.floats = make([]float64, len(s.isum), cap(s.isum))
		s.comp = make([]float64, len(s.isum), cap(s.isum))
	}
	twoSum(&s.floats[g], &s.comp[g], float64(s.isum[g])/s.intScale())
	s.isum[g] = 0
}

// intFloatSum is group g's sum: the int part divided by the scale (one
// correctly rounded division when nothing spilled), plus what spilled.
func (s *aggState) intFloatSum(g int) float64 {
	v := float64(s.isum[g]) / s.intScale()
	if s.floats == nil || s.floats[g] == 0 && s.comp[g] == 0 {
		return v
	}
	sum, comp := s.floats[g], s.comp[g]
	twoSum(&sum, &comp, v)
	if math.IsInf(sum, 0) || math.IsNaN(sum) {
		return sum
	}
	return sum + comp
}
