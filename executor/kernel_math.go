package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// unaryNumKernel applies fi/ff to integer/float values.
func unaryNumKernel(t columnar.Type, fi func(int64) (int64, error), ff func(float64) float64) kernel {
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x := args[0]
		switch t.Phys() {
		case columnar.PhysFloat:
			b.ForEach(func(i int) { out.Floats[i] = ff(x.Floats[idx(x, i)]) })
			return nil
		case columnar.PhysInt:
			return forRows(b, func(i int) error {
				if !out.Valid.Get(i) {
					return nil
				}
				v, err := fi(x.Ints[idx(x, i)])
				out.Ints[i] = v
				return err
			})
		case columnar.PhysUint:
			b.ForEach(func(i int) { out.Uints[i] = x.Uints[idx(x, i)] })
			return nil
		}
		return errorf("not a number: %s", t)
	}
}

func absKernel(t columnar.Type) kernel {
	lo, _ := t.IntRange()
	return unaryNumKernel(t, func(v int64) (int64, error) {
		if v < 0 {
			if v == lo {
				return 0, errorf("overflow in absolute value of %s (%d)", t, v)
			}
			return -v, nil
		}
		return v, nil
	}, math.Abs)
}

func identityInt(v int64) (int64, error) { return v, nil }

// decimalRound rounds a scaled decimal to whole units, down (floor) or
// up (ceil), in integers: exact at 18 digits, where a float64 is not.
func decimalRound(t columnar.Type, up bool) func(int64) (int64, error) {
	if t.ID != columnar.Decimal || t.Scale == 0 {
		return identityInt
	}
	p := int64(1)
	for range t.Scale {
		p *= 10
	}
	return func(v int64) (int64, error) {
		q, r := v/p, v%p // truncated toward zero
		switch {
		case up && r > 0:
			q++
		case !up && r < 0:
			q--
		}
		return q * p, nil
	}
}

func floorKernel(t columnar.Type) kernel {
	return unaryNumKernel(t, decimalRound(t, false), math.Floor)
}
func ceilKernel(t columnar.Type) kernel {
	return unaryNumKernel(t, decimalRound(t, true), math.Ceil)
}

// roundHalfAway rounds x to d decimal places, halves away from zero.
func roundHalfAway(x float64, d int64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	if d > 300 {
		return x
	}
	if d < -308 {
		return 0 // every double rounds to 0 at 10^309 and beyond (DuckDB: round(x, -1000) = 0)
	}
	p := math.Pow10(int(d))
	if d < 0 {
		p = 1 / math.Pow10(int(-d))
	}
	r := math.Round(x * p)
	if math.IsInf(x*p, 0) {
		return x
	}
	return r / p
}

// roundKernel is round(x[, d]).
func roundKernel(t columnar.Type, hasDigits bool) kernel {
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x := args[0]
		digits := func(i int) int64 {
			if !hasDigits {
				return 0
			}
			return args[1].Ints[idx(args[1], i)]
		}
		switch t.Phys() {
		case columnar.PhysFloat:
			b.ForEach(func(i int) { out.Floats[i] = roundHalfAway(x.Floats[idx(x, i)], digits(i)) })
		case columnar.PhysInt:
			scale := int64(0)
			if t.ID == columnar.Decimal {
				scale = int64(t.Scale)
			}
			b.ForEach(func(i int) {
				v := x.Ints[idx(x, i)]
				drop := scale - digits(i)
				if drop <= 0 {
					out.Ints[i] = v
					return
				}
				if drop > 18 {
					out.Ints[i] = 0
					return
				}
				p := int64(math.Pow10(int(drop)))
				q, r := v/p, v%p
				if 2*absInt(r) >= p {
					if v < 0 {
						q--
					} else {
						q++
					}
				}
				out.Ints[i] = q * p
			})

		case columnar.PhysUint:
			b.ForEach(func(i int) { out.Uints[i] = x.Uints[idx(x, i)] })
		}
		return nil
	}
}

func absInt(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
