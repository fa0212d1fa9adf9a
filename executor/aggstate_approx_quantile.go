package executor

import (
	"math"
	"math/big"

	"github.com/b2sql/b2sql/columnar"
)

// AggApproxQuantile is approx_quantile(x, Param): DuckDB's estimate of
// quantile Param (a FLOAT fraction, as DuckDB binds it) from a t-digest
// of compression 100 per group (tdigest.go). Values enter as doubles (a
// DECIMAL unscaled, DATE in days, TIME and TIMESTAMP in microseconds;
// infinities and NaN are skipped) and the estimate returns to the result
// type as DuckDB casts it: rounded half to even, clamped to the type's
// physical range. It runs on the holistic path (one final aggregate).
const AggApproxQuantile AggKind = 50

// approxQuantileAdd adds the live non-NULL values of arg to their groups'
// digests.
func (s *aggState) approxQuantileAdd(b *columnar.Batch, arg *columnar.Vector, gids []int32) {
	x := digestReader(arg)
	b.ForEach(func(i int) {
		if arg.IsNull(i) {
			return
		}
		v := x(i)
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return
		}
		g := int(gids[i])
		if g >= len(s.digests) {
			s.digests = growZero(s.digests, g+1)
		}
		if s.digests[g] == nil {
			s.digests[g] = newTDigest(100)
		}
		s.digests[g].addValue(v)
	})

}

// digestReader reads row i of v as the double DuckDB's t-digest stores.
func digestReader(v *columnar.Vector) func(i int) float64 {
	switch v.Type.ID {
	case columnar.Hugeint, columnar.Decimal128:
		return func(i int) float64 { return columnar.Int128FromKey(v.Bytes[i]).Float() }
	case columnar.Uhugeint:
		return func(i int) float64 {
			f, _ := new(big.Float).SetInt(columnar.Uint128FromKey(v.Bytes[i]).BigUnsigned()).Float64()
			return f
		}
	}
	switch v.Type.Phys() {
	case columnar.PhysFloat:
		return func(i int) float64 { return v.Floats[i] }
	case columnar.PhysUint:
		return func(i int) float64 { return float64(v.Uints[i]) }
	}
	return func(i int) float64 { return float64(v.Ints[i]) } // a DECIMAL unscaled
}

// approxQuantileResult writes the estimates of groups [from, to): NULL for
// a group without (finite) values.
func (s *aggState) approxQuantileResult(out *columnar.Vector, from, to int) {
	n := to - from
	q := float64(float32(s.spec.Param.F))
	for k := range n {
		g := from + k
		if g >= len(s.digests) || s.digests[g] == nil {
			out.SetNull(k, n)
			continue
		}
		d := s.digests[g]
		if s.ungrouped {
			// DuckDB combines an ungrouped state into an empty one before
			// finalizing it; a grouped state is compressed in place.
			d = d.finalized()
		} else {
			d.process()
		}
		out.SetValue(k, n, digestValue(out.Type, d.quantile(q)))
	}
}

// digestValue is estimate x as a value of type t, as DuckDB's
// ApproxQuantileCoding::Decode casts it: half to even, clamped to the
// range of t's physical type.
func digestValue(t columnar.Type, x float64) columnar.Value {
	switch t.ID {
	case columnar.Float64:
		return columnar.FloatValue(t, x)
	case columnar.Float32:
		return columnar.FloatValue(t, float64(float32(math.Max(-math.MaxFloat32, math.Min(math.MaxFloat32, x)))))
	case columnar.Hugeint, columnar.Decimal128:
		r := math.RoundToEven(x)
		lim := math.Ldexp(1, 127)
		b := new(big.Int)
		switch {
		case r >= lim:
			b.Lsh(big.NewInt(1), 127).Sub(b, big.NewInt(1))
		case r < -lim:
			b.Lsh(big.NewInt(1), 127).Neg(b)
		default:
			big.NewFloat(r).Int(b)
		}
		v, _ := columnar.WideFromBig(t, b)
		return v
	}
	bits := 64
	switch {
	case t.ID == columnar.Int8:
		bits = 8
	case t.ID == columnar.Int16 || t.ID == columnar.Decimal && t.Precision <= 4:
		bits = 16
	case t.ID == columnar.Int32 || t.ID == columnar.Date || t.ID == columnar.Decimal && t.Precision <= 9:
		bits = 32
	}
	lo, hi := -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1)
	r := math.RoundToEven(x)
	switch {
	case r >= hi:
		return columnar.IntValue(t, int64(uint64(1)<<(bits-1)-1))
	case r < lo:
		return columnar.IntValue(t, -int64(uint64(1)<<(bits-1)))
	}
	return columnar.IntValue(t, int64(r))
}
