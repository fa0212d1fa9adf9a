package executor

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
)

// Reductions of one group (an ungrouped aggregate, or a grouped one whose
// only group so far is 0, so that every gid is 0) skip the per-row group
// indirection: the loops below keep several independent accumulators so
// that consecutive additions do not wait for each other, and read NULLs
// from the validity words (a full word is 64 rows added without a test,
// an empty one 64 rows skipped) instead of building a selection vector.

// updateFlat handles the kinds it knows for a single group; false leaves
// the batch to the general path (nothing has been changed then).
func (s *aggState) updateFlat(b *columnar.Batch, arg *columnar.Vector) bool {
	if len(s.count) != 1 || s.distinct != nil || b.Sel != nil || b.Len == 0 {
		return false
	}
	n := b.Len
	valid := arg.Valid
	switch s.spec.Kind {
	case AggCount:
		s.count[0] += int64(countValid(valid, n))
		return true
	case AggSum, AggAvg:
		switch {
		case s.accPhys() == columnar.PhysFloat && arg.Type.Phys() == columnar.PhysFloat:
			sum, comp, c := sumFloatsWords(arg.Floats[:n], valid)
			twoSum(&s.floats[0], &s.comp[0], sum)
			s.comp[0] += comp
			s.count[0] += int64(c)
			return true
		case s.accPhys() == columnar.PhysFloat && arg.Type.Phys() == columnar.PhysInt && s.floats == nil:
			sum, c, ok := sumIntsWords(arg.Ints[:n], valid)
			if !ok {
				return false
			}
			r := s.isum[0] + sum
			if (s.isum[0]^r)&(sum^r) < 0 {
				return false // the general path spills the int sum
			}
			s.isum[0] = r
			s.count[0] += int64(c)
			return true
		case s.accPhys() == columnar.PhysInt && arg.Type.Phys() == columnar.PhysInt:
			sum, c, ok := sumIntsWords(arg.Ints[:n], valid)
			r := s.ints[0] + sum
			if !ok || (s.ints[0]^r)&(sum^r) < 0 {
				return false // the general path reports the overflow
			}
			s.ints[0] = r
			s.count[0] += int64(c)
			return true
		}
	case AggMin, AggMax:
		if arg.Type.Phys() == columnar.PhysFloat {
			isMin := s.spec.Kind == AggMin
			v, c := minMaxFloatsWords(arg.Floats[:n], valid, isMin)
			if c == 0 {
				return true
			}
			if cmp := columnar.CompareFloat(v, s.floats[0]); s.count[0] == 0 || cmp != 0 && (cmp < 0) == isMin {
				s.floats[0] = v
			}
			s.count[0] += int64(c)
			return true
		}
		if arg.Type.Phys() == columnar.PhysBytes && !s.minMaxWide() {
			isMin := s.spec.Kind == AggMin
			v, c := minMaxBytesWords(arg.Bytes[:n], valid, isMin)
			if c == 0 {
				return true
			}
			if cmp := columnar.CompareBytes(v, s.bytes[0]); s.count[0] == 0 || cmp != 0 && (cmp < 0) == isMin {
				s.bytes[0] = s.copyBytes(v)
			}
			s.count[0] += int64(c)
			return true
		}
		if arg.Type.Phys() != columnar.PhysInt {
			return false
		}
		v, c := minMaxIntsWords(arg.Ints[:n], valid, s.spec.Kind == AggMin)
		if c == 0 {
			return true
		}
		if s.count[0] == 0 || (s.spec.Kind == AggMin && v < s.ints[0]) || (s.spec.Kind == AggMax && v > s.ints[0]) {
			s.ints[0] = v
		}
		s.count[0] += int64(c)
		return true
	}
	return false
}

// word returns validity word w of a batch of n rows, with the bits past n
// cleared; a nil bitmap is all valid.
func word(valid columnar.Bitmap, w, n int) uint64 {
	m := ^uint64(0)
	if rest := n - 64*w; rest < 64 {
		m = 1<<uint(rest) - 1
	}
	if valid == nil {
		return m
	}
	return valid[w] & m
}

func countValid(valid columnar.Bitmap, n int) int {
	if valid == nil {
		return n
	}
	c := 0
	for w := 0; 64*w < n; w++ {
		c += bits.OnesCount64(word(valid, w, n))
	}
	return c
}

// twoSum adds x to the pair (s, c) without rounding loss: c collects the
// exact error of s+x (Knuth's TwoSum, branch-free, so four such chains run
// side by side). Once the sum is infinite or NaN, c turns NaN; floatSum
// then ignores it.
func twoSum(s, c *float64, x float64) {
	t := *s + x
	bp := t - *s
	*c += (*s - (t - bp)) + (x - bp)
	*s = t
}

// sumDense4 adds xs to four TwoSum chains held in locals, one chain
// finished before the next begins so that the temporaries reuse registers:
// through the arrays (or with all four chains' temporaries live at once)
// the accumulators were stored and reloaded on every step, putting a
// store-to-load delay into each chain.
func sumDense4(xs []float64, s, c *[4]float64) {
	xs = xs[sumDense4Vec(xs, s, c):] // the same chains in vector lanes (sumfloat_amd64.s)
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	c0, c1, c2, c3 := c[0], c[1], c[2], c[3]
	for len(xs) >= 4 {
		x := xs[0]
		t := s0 + x
		b := t - s0
		c0 += (s0 - (t - b)) + (x - b)
		s0 = t
		x = xs[1]
		t = s1 + x
		b = t - s1
		c1 += (s1 - (t - b)) + (x - b)
		s1 = t
		x = xs[2]
		t = s2 + x
		b = t - s2
		c2 += (s2 - (t - b)) + (x - b)
		s2 = t
		x = xs[3]
		t = s3 + x
		b = t - s3
		c3 += (s3 - (t - b)) + (x - b)
		s3 = t
		xs = xs[4:]
	}
	for _, x := range xs {
		t := s0 + x
		b := t - s0
		c0 += (s0 - (t - b)) + (x - b)
		s0 = t
	}
	s[0], s[1], s[2], s[3] = s0, s1, s2, s3
	c[0], c[1], c[2], c[3] = c0, c1, c2, c3
}

// sumFloatsWords returns the compensated sum (sum + comp) of the valid
// values of in and how many there were.
func sumFloatsWords(in []float64, valid columnar.Bitmap) (sum, comp float64, n int) {
	var s [4]float64
	var c [4]float64
	if valid == nil {
		sumDense4(in, &s, &c)
		n = len(in)
	} else {
		for w := 0; 64*w < len(in); w++ {
			m := word(valid, w, len(in))
			lo := 64 * w
			switch m {
			case 0:
			case ^uint64(0):
				sumDense4(in[lo:lo+64], &s, &c)
				n += 64
			default:
				n += bits.OnesCount64(m)
				for ; m != 0; m &= m - 1 {
					twoSum(&s[0], &c[0], in[lo+bits.TrailingZeros64(m)])
				}
			}
		}
	}
	for k := 1; k < 4; k++ {
		twoSum(&s[0], &c[0], s[k])
		c[0] += c[k]
	}
	return s[0], c[0], n
}

// sumIntsWords returns the sum of the valid values of in, their count, and
// false when some partial sum overflowed int64.
func sumIntsWords(in []int64, valid columnar.Bitmap) (sum int64, n int, ok bool) {
	var s [4]int64
	var bad int64
	if valid == nil {
		bad = sumIntsDense(in, &s)
		n = len(in)
	} else {
		for w := 0; 64*w < len(in); w++ {
			m := word(valid, w, len(in))
			lo := 64 * w
			switch m {
			case 0:
			case ^uint64(0):
				bad |= sumIntsDense(in[lo:lo+64], &s)
				n += 64
			default:
				n += bits.OnesCount64(m)
				s0 := s[0]
				for ; m != 0; m &= m - 1 {
					x := in[lo+bits.TrailingZeros64(m)]
					r := s0 + x
					bad |= (s0 ^ r) & (x ^ r)
					s0 = r
				}
				s[0] = s0
			}
		}
	}
	bad |= sumIntsDense(s[1:], &s) // fold the lanes into s[0]
	return s[0], n, bad >= 0
}

// sumIntsDense adds xs into the four lanes of s, one value in four per
// lane, and returns a word whose sign bit is set when some addition
// overflowed. The lanes live in registers for the loop (a closure over s
// stored and reloaded them on every element, 2.7 ns per value).
func sumIntsDense(xs []int64, s *[4]int64) (bad int64) {
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	for len(xs) >= 4 {
		x0, x1, x2, x3 := xs[0], xs[1], xs[2], xs[3]
		r0, r1, r2, r3 := s0+x0, s1+x1, s2+x2, s3+x3
		bad |= (s0^r0)&(x0^r0) | (s1^r1)&(x1^r1) | (s2^r2)&(x2^r2) | (s3^r3)&(x3^r3)
		s0, s1, s2, s3 = r0, r1, r2, r3
		xs = xs[4:]
	}
	for _, x := range xs {
		r := s0 + x
		bad |= (s0 ^ r) & (x ^ r)
		s0 = r
	}
	s[0], s[1], s[2], s[3] = s0, s1, s2, s3
	return bad
}

// minMaxIntsWords returns the least (isMin) or greatest valid value of in
// and how many values were valid.
func minMaxIntsWords(in []int64, valid columnar.Bitmap, isMin bool) (v int64, n int) {
	first := true
	take := func(x int64) {
		if first || (isMin && x < v) || (!isMin && x > v) {
			v, first = x, false
		}
	}
	if valid == nil {
		if len(in) == 0 {
			return 0, 0
		}
		m := [4]int64{in[0], in[0], in[0], in[0]}
		i := 0
		for ; i+4 <= len(in); i += 4 {
			if isMin {
				m[0], m[1], m[2], m[3] = min(m[0], in[i]), min(m[1], in[i+1]), min(m[2], in[i+2]), min(m[3], in[i+3])
			} else {
				m[0], m[1], m[2], m[3] = max(m[0], in[i]), max(m[1], in[i+1]), max(m[2], in[i+2]), max(m[3], in[i+3])
			}
		}
		for ; i < len(in); i++ {
			take(in[i])
		}
		for _, x := range m {
			take(x)
		}
		return v, len(in)
	}
	for w := 0; 64*w < len(in); w++ {
		m := word(valid, w, len(in))
		n += bits.OnesCount64(m)
		for lo := 64 * w; m != 0; m &= m - 1 {
			take(in[lo+bits.TrailingZeros64(m)])
		}
	}
	return v, n
}

// minMaxFloatsWords is minMaxIntsWords for floats, ordered as CompareFloat
// orders them (NaN the greatest; of equal values the first seen): the
// dense stretches run four running extremes compared with < or >, which
// NaNs never win; a NaN seen, or an extreme of zero (-0 and 0 are equal,
// and which lane saw one first is not which row did), sends the batch
// through the per-row comparison instead.
func minMaxFloatsWords(in []float64, valid columnar.Bitmap, isMin bool) (v float64, n int) {
	exact := func() (v float64, n int) {
		first := true
		take := func(x float64) {
			if c := columnar.CompareFloat(x, v); first || c != 0 && (c < 0) == isMin {
				v, first = x, false
			}
			n++
		}
		for w := 0; 64*w < len(in); w++ {
			m := word(valid, w, len(in))
			for lo := 64 * w; m != 0; m &= m - 1 {
				take(in[lo+bits.TrailingZeros64(m)])
			}
		}
		return v, n
	}
	init := math.Inf(1)
	if !isMin {
		init = math.Inf(-1)
	}
	m := [4]float64{init, init, init, init}
	nan := false
	for w := 0; 64*w < len(in); w++ {
		bm := word(valid, w, len(in))
		lo := 64 * w
		hi := min(lo+64, len(in))
		if bm == ^uint64(0) || valid == nil {
			nan = minMaxDense(in[lo:hi], isMin, &m) || nan
			n += hi - lo
			continue
		}
		n += bits.OnesCount64(bm)
		for ; bm != 0; bm &= bm - 1 {
			x := in[lo+bits.TrailingZeros64(bm)]
			nan = nan || x != x
			if isMin && x < m[0] || !isMin && x > m[0] {
				m[0] = x
			}
		}
	}
	if n == 0 {
		return 0, 0
	}
	v = m[0]
	for _, x := range m[1:] {
		if isMin && x < v || !isMin && x > v {
			v = x
		}
	}
	if nan || v == 0 {
		return exact()
	}
	return v, n
}

// minMaxDense folds xs into the four running extremes m and reports
// whether some value was NaN.
func minMaxDense(xs []float64, isMin bool, m *[4]float64) (nan bool) {
	m0, m1, m2, m3 := m[0], m[1], m[2], m[3]
	i := 0
	if isMin {
		for ; i+4 <= len(xs); i += 4 {
			x0, x1, x2, x3 := xs[i], xs[i+1], xs[i+2], xs[i+3]
			nan = nan || x0 != x0 || x1 != x1 || x2 != x2 || x3 != x3
			if x0 < m0 {
				m0 = x0
			}
			if x1 < m1 {
				m1 = x1
			}
			if x2 < m2 {
				m2 = x2
			}
			if x3 < m3 {
				m3 = x3
			}
		}
	} else {
		for ; i+4 <= len(xs); i += 4 {
			x0, x1, x2, x3 := xs[i], xs[i+1], xs[i+2], xs[i+3]
			nan = nan || x0 != x0 || x1 != x1 || x2 != x2 || x3 != x3
			if x0 > m0 {
				m0 = x0
			}
			if x1 > m1 {
				m1 = x1
			}
			if x2 > m2 {
				m2 = x2
			}
			if x3 > m3 {
				m3 = x3
			}
		}
	}
	for ; i < len(xs); i++ {
		x := xs[i]
		nan = nan || x != x
		if isMin && x < m0 || !isMin && x > m0 {
			m0 = x
		}
	}
	m[0], m[1], m[2], m[3] = m0, m1, m2, m3
	return nan
}

// MIN/MAX of one group of strings (updateFlat): most values differ
// from the running extreme within their first eight bytes, so each is
// compared by those bytes as one big-endian integer (prefixKey), and only
// values that tie on it are compared whole. The general path called a
// closure and bytes.Compare for every row: 16% of min(title), max(title)
// over the events .b2z.

// minMaxBytesWords returns the least (isMin) or greatest non-NULL value of
// in as bytes order them, aliasing in, and how many non-NULL values there
// are.
func minMaxBytesWords(in [][]byte, valid columnar.Bitmap, isMin bool) (v []byte, n int) {
	var vk uint64
	first := true
	take := func(x []byte) {
		k := prefixKey(x)
		switch {
		case first:
		case k != vk:
			if (k < vk) != isMin {
				return
			}
		default:
			if c := bytes.Compare(x, v); c == 0 || (c < 0) != isMin {
				return
			}
		}
		v, vk, first = x, k, false
	}
	if valid == nil {
		for _, x := range in {
			take(x)
		}
		return v, len(in)
	}
	for w := 0; 64*w < len(in); w++ {
		m := word(valid, w, len(in))
		n += bits.OnesCount64(m)
		for lo := 64 * w; m != 0; m &= m - 1 {
			take(in[lo+bits.TrailingZeros64(m)])
		}
	}
	return v, n
}

// prefixKey is x's first eight bytes as a big-endian integer, zero-padded:
// prefixKey(a) < prefixKey(b) implies bytes.Compare(a, b) < 0 (a shorter
// value's padding is never above the bytes it stands for), and equal keys
// decide nothing.
func prefixKey(x []byte) uint64 {
	if len(x) >= 8 {
		return binary.BigEndian.Uint64(x)
	}
	var b [8]byte
	copy(b[:], x)
	return binary.BigEndian.Uint64(b[:])
}
