package executor

import "github.com/b2sql/b2sql/columnar"

// pow10 holds 10^0 … 10^18, the scale factors of int64 decimals.
var pow10 = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// rescaleInts sets dst[i] to src[i] (a scaled integer with scale from)
// rescaled to scale to, rounding half away from zero when digits are
// dropped, for the live rows of b. It reports false when some row does
// not fit DECIMAL(prec, to) (dst is then garbage); rows under a NULL may
// hold garbage and cause a false too, which only sends the caller to its
// exact per-row path.
func rescaleInts(src, dst []int64, b *columnar.Batch, from, to, prec int) bool {
	if prec < 1 || prec > 18 || from > 18 || to > 18 {
		return false
	}
	lim := pow10[prec] - 1 // largest magnitude DECIMAL(prec, ·) holds
	ok := true
	if to >= from {
		mul := pow10[to-from]
		bound := lim / mul // |src| ≤ bound ⇔ |src·mul| ≤ lim
		if b.Sel == nil {
			src, dst := src[:b.Len], dst[:b.Len]
			for i, v := range src {
				ok = ok && v >= -bound && v <= bound
				dst[i] = v * mul
			}
			return ok
		}
		for _, i := range b.Sel {
			v := src[i]
			ok = ok && v >= -bound && v <= bound
			dst[i] = v * mul
		}
		return ok
	}
	div := pow10[from-to]
	down := func(v int64) int64 {
		q, r := v/div, v%div
		if 2*absInt(r) >= div {
			if v < 0 {
				q--
			} else {
				q++
			}
		}
		ok = ok && q >= -lim && q <= lim
		return q
	}
	if b.Sel == nil {
		src, dst := src[:b.Len], dst[:b.Len]
		for i, v := range src {
			dst[i] = down(v)
		}
		return ok
	}
	for _, i := range b.Sel {
		dst[i] = down(src[i])
	}
	return ok
}
