package executor

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// Holistic aggregates keep every (non-NULL) value of a group.
const (
	AggMedian       AggKind = iota + AggAvgMerge + 1 // DOUBLE: quantile_cont(x, 0.5)
	AggQuantileCont                                  // DOUBLE: Param is the fraction in [0, 1]
	AggStringAgg                                     // VARCHAR: Param is the separator
	AggVarSamp                                       // DOUBLE: sample variance (two-pass), NULL below 2 values
	AggVarPop                                        // DOUBLE: population variance
	AggStddevSamp                                    // DOUBLE: sqrt of AggVarSamp
	AggStddevPop                                     // DOUBLE: sqrt of AggVarPop
)

func (k AggKind) holistic() bool { return k >= AggMedian }

// collect appends the live non-NULL values of arg to their groups' lists.
func (s *aggState) collect(b *columnar.Batch, arg *columnar.Vector, gids []int32) {
	if s.spec.Kind == AggApproxCountDistinct {
		s.approxAdd(b, arg, gids)
		return
	}
	forEach(b, func(i int) {
		if arg.IsNull(i) {
			return
		}
		if s.distinct != nil {
			s.keyBuf = binary.LittleEndian.AppendUint32(s.keyBuf[:0], uint32(gids[i]))
			s.keyBuf = encodeKey(s.keyBuf, []*columnar.Vector{arg}, i)
			if _, seen := s.distinct[string(s.keyBuf)]; seen {
				return
			}
			s.distinct[string(s.keyBuf)] = struct{}{}
		}
		g := gids[i]
		s.lists[g] = append(s.lists[g], arg.Value(i))
	})
}

func (s *aggState) holisticResult(out *columnar.Vector, from, to int) {
	if s.spec.Kind == AggApproxCountDistinct {
		s.approxResult(out, from, to)
		return
	}
	n := to - from
	for k := range n {
		vals := s.lists[from+k]
		if len(vals) == 0 {
			out.SetNull(k, n)
			continue
		}
		switch s.spec.Kind {
		case AggVarSamp, AggVarPop, AggStddevSamp, AggStddevPop:
			v, ok := variance(vals, s.spec.Kind == AggVarSamp || s.spec.Kind == AggStddevSamp)
			switch {
			case !ok:
				out.SetNull(k, n)
			case s.spec.Kind == AggStddevSamp || s.spec.Kind == AggStddevPop:
				out.Floats[k] = math.Sqrt(v)
			default:
				out.Floats[k] = v
			}
		case AggStringAgg:
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = v.S
			}
			out.Bytes[k] = []byte(strings.Join(parts, s.spec.Param.S))
		default:
			q := 0.5
			if s.spec.Kind == AggQuantileCont {
				q = s.spec.Param.F
			}
			xs := make([]float64, len(vals))
			for i, v := range vals {
				xs[i] = v.AsFloat()
			}
			slices.SortFunc(xs, columnar.CompareFloat)
			pos := q * float64(len(xs)-1)
			lo, hi := int(math.Floor(pos)), int(math.Ceil(pos))
			out.Floats[k] = xs[lo] + (pos-float64(lo))*(xs[hi]-xs[lo])
		}
	}
}

// variance computes the sample or population variance in two passes over
// the values shifted by the first one (exact for a constant column, stable
// under a large offset); ok is false for a sample of fewer than 2 values.
func variance(vals []columnar.Value, sample bool) (float64, bool) {
	n := float64(len(vals))
	if len(vals) == 0 || sample && len(vals) < 2 {
		return 0, false
	}
	k := vals[0].AsFloat()
	var sum float64
	for _, v := range vals {
		sum += v.AsFloat() - k
	}
	mean := sum / n
	var m2 float64
	for _, v := range vals {
		d := v.AsFloat() - k - mean
		m2 += d * d
	}
	if sample {
		return m2 / (n - 1), true
	}
	return m2 / n, true
}
