package executor

import (
	"math"
	"math/big"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// fill(x [ORDER BY k]) OVER (…) replaces a NULL x by a linear
// interpolation over the ordering k: the argument's ORDER BY, else the
// window's single ORDER BY key. DuckDB's rules, which this follows:
//   - an anchor is a row whose x and k are both non-NULL and finite; a row
//     whose k is NULL or infinite is never filled and breaks the search
//     for anchors (they are not looked for across it);
//   - a NULL row takes the nearest anchor before it (in k's order), else
//     the nearest after it, and then the next anchor after that one, else
//     the one before it: so rows past either end are extrapolated from the
//     two nearest anchors, and a single anchor is copied;
//   - with d = (k - k0) / (k1 - k0) in DOUBLE (0 when k0 = k1), the value
//     is x0 + (x1 - x0) * d; for integer payloads (integers, DECIMAL,
//     DATE, TIMESTAMP, TIME) the offset is truncated when 0 <= d <= 1 and
//     rounded half to even outside (extrapolated from the smaller of x0,
//     x1), and an extrapolation whose offset or value overflows the type
//     stays NULL.

// fillPartition fills res for the rows of one partition, in window order.
func fillPartition(f *WindowFunc, rows []int32, ord, args, argOrd []*columnar.Vector, res []columnar.Value) {
	keys := ord
	seq := rows
	if len(f.ArgOrder) > 0 {
		keys = argOrd
		seq = slices.Clone(rows)
		slices.SortStableFunc(seq, func(a, b int32) int { return compareRows(argOrd, f.ArgOrder, int(a), int(b)) })
	}
	m := len(seq)
	key := make([]float64, m)
	keyOK := make([]bool, m)
	val := make([]columnar.Value, m)
	anchor := make([]bool, m)
	for j, r := range seq {
		key[j], keyOK[j] = fillNumber(keys[0].Value(int(r)))
		val[j] = args[0].Value(int(r))
		_, finite := fillNumber(val[j])
		anchor[j] = keyOK[j] && finite
	}
	// before[j] / after[j]: the nearest anchor at or before / after j
	// without a row of invalid k between (-1: none).
	before, after := make([]int, m), make([]int, m)
	last := -1
	for j := range m {
		if !keyOK[j] {
			last = -1
		} else if anchor[j] {
			last = j
		}
		before[j] = last
	}
	last = -1
	for j := m - 1; j >= 0; j-- {
		if !keyOK[j] {
			last = -1
		} else if anchor[j] {
			last = j
		}
		after[j] = last
	}
	at := func(s []int, j int) int {
		if j < 0 || j >= m {
			return -1
		}
		return s[j]
	}
	for j, r := range seq {
		res[r] = val[j]
		if !val[j].Null || !keyOK[j] {
			continue
		}
		p := at(before, j-1)
		if p < 0 {
			p = at(after, j+1)
		}
		if p < 0 {
			continue // no anchor: NULL
		}
		n := at(after, p+1)
		if n < 0 {
			if q := at(before, p-1); q >= 0 {
				p, n = q, p
			}
		}
		if n < 0 {
			res[r] = val[p]
			continue
		}
		res[r] = fillValue(f.Type, val[p], val[n], fillSlope(key[j], key[p], key[n]))
	}
}

// fillSlope is (k - k0) / (k1 - k0), 0 when k0 = k1; halved first when
// the span overflows a DOUBLE (-1e308 to 1e308: DuckDB's suite).
func fillSlope(k, k0, k1 float64) float64 {
	den := k1 - k0
	if den == 0 {
		return 0
	}
	if math.IsInf(den, 0) || math.IsInf(k-k0, 0) {
		return (k/2 - k0/2) / (k1/2 - k0/2)
	}
	return (k - k0) / den
}

// fillNumber is v as a DOUBLE (an integer payload as its number: days,
// microseconds, unscaled decimal) and whether it is an anchor's: non-NULL
// and finite.
func fillNumber(v columnar.Value) (float64, bool) {
	if v.Null {
		return 0, false
	}
	switch v.Type.Phys() {
	case columnar.PhysFloat:
		return v.F, !math.IsInf(v.F, 0) && !math.IsNaN(v.F)
	case columnar.PhysUint:
		return float64(uint64(v.I)), true
	}
	return float64(v.I), columnar.Infinity(v.Type, v.I) == 0
}

// fillValue is x0 + (x1 - x0) * d of type t, as fillPartition describes.
// Integer payloads are computed exactly (big numbers): the span of two
// BIGINTs does not fit in 64 bits, nor its product with d in a DOUBLE.
func fillValue(t columnar.Type, x0, x1 columnar.Value, d float64) columnar.Value {
	if t.Phys() == columnar.PhysFloat {
		y := x0.F + (x1.F-x0.F)*d
		if t.ID == columnar.Float32 {
			y = float64(float32(y))
		}
		return columnar.FloatValue(t, y)
	}
	if v, ok := fillSmall(t, x0, x1, d); ok {
		return v
	}
	lo, hi := fillInt(x0), fillInt(x1)
	inside := d >= 0 && d <= 1
	if !inside && lo.Cmp(hi) > 0 {
		lo, hi, d = hi, lo, -d
	}
	off := fillOffset(new(big.Int).Sub(hi, lo), math.Abs(d), !inside)
	if d < 0 {
		off.Neg(off)
	}
	minV, maxV := fillRange(t)
	y := new(big.Int).Add(lo, off)
	if !inside && (off.CmpAbs(maxV) > 0 || y.Cmp(minV) < 0 || y.Cmp(maxV) > 0) {
		// The offset is a value of t too (DuckDB casts it first):
		// TINYINT 100 - 220 is NULL though -120 fits.
		return columnar.NullValue(t)
	}
	if t.Phys() == columnar.PhysUint {
		return columnar.Value{Type: t, I: int64(y.Uint64())}
	}
	return columnar.Value{Type: t, I: y.Int64()}
}

// fillSmall is fillValue in int64 and DOUBLE arithmetic, for signed
// payloads within 2^52 of zero (every date and timestamp of this era)
// whose offset stays within 2^53: exact there, and free of the big
// numbers a filled row would otherwise allocate. ok is false for the rest.
func fillSmall(t columnar.Type, x0, x1 columnar.Value, d float64) (columnar.Value, bool) {
	const small = 1 << 52
	y0, y1 := x0.I, x1.I
	if t.Phys() != columnar.PhysInt || y0 <= -small || y0 >= small || y1 <= -small || y1 >= small {
		return columnar.Value{}, false
	}
	if d >= 0 && d <= 1 {
		return columnar.Value{Type: t, I: y0 + int64(math.Trunc(float64(y1-y0)*d))}, true
	}
	if y0 > y1 {
		y0, y1, d = y1, y0, -d
	}
	off := math.RoundToEven(float64(y1-y0) * math.Abs(d))
	if off > 1<<53 {
		return columnar.Value{}, false
	}
	y := y0 + int64(off)
	if d < 0 {
		y = y0 - int64(off)
	}
	minV, maxV := fillRange64(t)
	if int64(off) > maxV || y < minV || y > maxV {
		return columnar.NullValue(t), true
	}
	return columnar.Value{Type: t, I: y}, true
}

// fillInt is v's integer payload.
func fillInt(v columnar.Value) *big.Int {
	if v.Type.Phys() == columnar.PhysUint {
		return new(big.Int).SetUint64(uint64(v.I))
	}
	return big.NewInt(v.I)
}

// fillOffset is span × d (d >= 0), truncated or rounded half to even. The
// product is a DOUBLE's, as DuckDB's, while the span is exact in one (6
// days × 0.333… is 2 days, not 1.999…); a wider span (two BIGINTs far
// apart) is multiplied exactly.
func fillOffset(span *big.Int, d float64, round bool) *big.Int {
	if span.IsInt64() && math.Abs(float64(span.Int64())) <= 1<<53 {
		p := float64(span.Int64()) * d
		if round {
			p = math.RoundToEven(p)
		}
		return big.NewInt(int64(math.Trunc(p)))
	}
	x := new(big.Float).SetPrec(256).SetInt(span)
	x.Mul(x, new(big.Float).SetPrec(256).SetFloat64(d))
	whole, _ := x.Int(nil) // toward zero
	if !round {
		return whole
	}
	frac := new(big.Float).SetPrec(256).Sub(x, new(big.Float).SetPrec(256).SetInt(whole))
	half := big.NewFloat(0.5)
	switch c := frac.Abs(frac).Cmp(half); {
	case c > 0, c == 0 && whole.Bit(0) == 1:
		if x.Sign() < 0 {
			return whole.Sub(whole, big.NewInt(1))
		}
		return whole.Add(whole, big.NewInt(1))
	}
	return whole
}

// fillRange is the range of t's payload.
func fillRange(t columnar.Type) (*big.Int, *big.Int) {
	if t.ID == columnar.Uint64 {
		return big.NewInt(0), new(big.Int).SetUint64(math.MaxUint64)
	}
	lo, hi := fillRange64(t)
	return big.NewInt(lo), big.NewInt(hi)
}

// fillRange64 is fillRange of a signed payload.
func fillRange64(t columnar.Type) (int64, int64) {
	switch {
	case t.IsInteger():
		return t.IntRange()
	case t.ID == columnar.Date:
		return -columnar.DateInfinity + 1, columnar.DateInfinity - 1
	}
	return -columnar.TimestampInfinity + 1, columnar.TimestampInfinity - 1
}
