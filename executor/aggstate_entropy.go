package executor

import (
	"math"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// entropy(x) is DuckDB's entropy of the frequencies of a group's (or a
// frame's) non-NULL values, counted as mode counts them (DuckDB computes
// both in mode.cpp): values equal as in GROUP BY (one NaN, -0 = 0), lists
// and structs by their whole value.

// entropyOf is Σ (c/n)·log2(n/c) over the counts c of n values, summed in
// ascending order of c (deterministic, whatever a map's order); 0 for no
// values.
func entropyOf(counts []int64) float64 {
	slices.Sort(counts)
	var total int64
	for _, c := range counts {
		total += c
	}
	var h float64
	for _, c := range counts {
		h += float64(c) / float64(total) * math.Log2(float64(total)/float64(c))
	}
	return h
}

// entropyResult writes the entropy of groups [from, to).
func (s *aggState) entropyResult(out *columnar.Vector, from, to int) {
	var counts []int64
	for k := range to - from {
		counts = counts[:0]
		for _, c := range s.vals.modes[from+k] {
			counts = append(counts, c.n)
		}
		out.Floats[k] = entropyOf(counts)
	}
}

// frameEntropy is the entropy of a window frame's non-NULL values.
func frameEntropy(vals []columnar.Value) float64 {
	m := map[distinctKey]int64{}
	for _, v := range vals {
		m[keyOf(v)]++
	}
	counts := make([]int64, 0, len(m))
	for _, c := range m {
		counts = append(counts, c)
	}
	return entropyOf(counts)
}
