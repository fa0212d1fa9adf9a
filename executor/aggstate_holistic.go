package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// Holistic aggregates keep every (non-NULL) value of a group.
const (
	AggMedian       AggKind = iota + AggAvgMerge + 1 // DOUBLE: quantile_cont(x, 0.5)
	AggQuantileCont                                  // DOUBLE: Param is the fraction in [0, 1]
	AggStringAgg                                     // VARCHAR: Param is the separator
	AggVarSamp                                       // DOUBLE: sample variance (running moments), NULL below 2 values
	AggVarPop                                        // DOUBLE: population variance
	AggStddevSamp                                    // DOUBLE: sqrt of AggVarSamp
	AggStddevPop                                     // DOUBLE: sqrt of AggVarPop
)

func (k AggKind) holistic() bool { return k >= AggMedian }

// collect appends the live non-NULL values of arg to their groups' value
// lists (aggstate_values.go), or to the state an aggregate keeps instead.
func (s *aggState) collect(b *columnar.Batch, arg *columnar.Vector, gids []int32) error {
	switch s.spec.Kind {
	case AggApproxCountDistinct:
		s.approxAdd(b, arg, gids)
		return nil
	case AggApproxQuantile:
		if s.distinct != nil {
			fresh, err := s.distinct.fresh(b, arg, gids)
			if err != nil || len(fresh) == 0 {
				return err
			}
			b = &columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: fresh}
		}
		s.approxQuantileAdd(b, arg, gids) // aggstate_approx_quantile.go
		return nil
	case AggMode, AggEntropy, AggHistogram, AggApproxTopK:
		s.modeAdd(b, arg, gids) // aggstate_mode.go: entropy, histogram and approx_top_k are of the same frequencies
		return nil
	case AggList:
		return s.listAdd(b, arg, gids) // aggstate_list.go
	}
	if s.spec.Kind.streamingStat() {
		return s.statAdd(b, arg, gids) // aggstate_stats.go
	}
	if s.spec.Kind.bitAgg() {
		return s.bitAdd(b, arg, gids) // aggstate_bits.go
	}
	if s.spec.Kind == AggBitstringAgg {
		return s.bitstringAdd(b, arg, gids) // aggstate_bitstring.go
	}
	if s.valsFrom != nil {
		return nil // the leader collects (aggstate_share.go)
	}
	add := s.vals.adder(s.spec.Kind, arg)
	if s.distinct != nil {
		fresh, err := s.distinct.fresh(b, arg, gids)
		for _, i := range fresh {
			add(gids[i], i)
		}
		return err
	}
	if arg.Valid == nil {
		if b.Sel == nil {
			for i, g := range gids[:b.Len] {
				add(g, i)
			}
			return nil
		}
		for _, i := range b.Sel {
			add(gids[i], i)
		}
		return nil
	}
	b.ForEach(func(i int) {
		if arg.IsNull(i) {
			return
		}
		add(gids[i], i)
	})

	return nil
}

func (s *aggState) holisticResult(out *columnar.Vector, from, to int) {
	switch s.spec.Kind {
	case AggApproxCountDistinct:
		s.approxResult(out, from, to)
		return
	case AggMode:
		s.modeResult(out, from, to)
		return
	case AggEntropy:
		s.entropyResult(out, from, to) // aggstate_entropy.go
		return
	case AggHistogram:
		s.histogramResult(out, from, to) // aggstate_histogram.go
		return
	case AggApproxTopK:
		s.topKResult(out, from, to) // aggstate_topk.go
		return
	case AggApproxQuantile:
		s.approxQuantileResult(out, from, to)
		return
	case AggList:
		s.listResult(out, from, to)
		return
	}
	if s.spec.Kind.streamingStat() {
		s.statResult(out, from, to) // aggstate_stats.go
		return
	}
	if s.spec.Kind.bitAgg() {
		s.bitResult(out, from, to) // aggstate_bits.go
		return
	}
	if s.spec.Kind == AggBitstringAgg {
		s.bitstringResult(out, from, to) // aggstate_bitstring.go
		return
	}
	n := to - from
	vals := s.values()
	for k := range n {
		g := from + k
		if vals.count(g) == 0 {
			out.SetValue(k, n, columnar.NullValue(out.Type)) // a nested row's offsets too
			continue
		}
		switch s.spec.Kind {
		case AggMad:
			vals.madResult(out, k, n, g) // aggstate_mad.go
		case AggVarSamp, AggVarPop, AggStddevSamp, AggStddevPop:
			v, ok := vals.variance(g, s.spec.Kind == AggVarSamp || s.spec.Kind == AggStddevSamp)
			switch {
			case !ok:
				out.SetNull(k, n)
			case s.spec.Kind == AggStddevSamp || s.spec.Kind == AggStddevPop:
				out.Floats[k] = math.Sqrt(v)
			default:
				out.Floats[k] = v
			}
		case AggStringAgg:
			out.Bytes[k] = vals.joined(g, s.spec.Param.S)
		case AggQuantileDisc:
			vals.discrete(out, k, n, g, s.spec.Param.F)
		case AggReservoirQuantile:
			q := s.spec.Param.F
			vals.ranked(out, k, n, g, func(m int) int { return reservoirIndex(m, q) }) // aggstate_values.go
		default:
			q := 0.5
			if s.spec.Kind == AggQuantileCont {
				q = s.spec.Param.F
			}
			vals.continuousInto(out, k, n, g, q) // aggstate_quantile_typed.go
		}
	}
}

// variance computes the sample or population variance of values; ok is
// false for a sample of fewer than 2 values. Window frames keep Values.
func variance(vals []columnar.Value, sample bool) (float64, bool) {
	xs := make([]float64, len(vals))
	for i, v := range vals {
		xs[i] = v.AsFloat()
	}
	return varianceFloats(xs, sample)
}

// varianceFloats computes the sample or population variance in two passes
// over the values shifted by the first one (exact for a constant column,
// stable under a large offset); ok is false for a sample of fewer than 2
// values.
func varianceFloats(xs []float64, sample bool) (float64, bool) {
	n := float64(len(xs))
	if len(xs) == 0 || sample && len(xs) < 2 {
		return 0, false
	}
	k := xs[0]
	var sum float64
	for _, x := range xs {
		sum += x - k
	}
	mean := sum / n
	var m2 float64
	for _, x := range xs {
		d := x - k - mean
		m2 += d * d
	}
	if sample {
		return m2 / (n - 1), true
	}
	return m2 / n, true
}
