package tpch

import "math/bits"

// rng is SplitMix64: fixed forever (unlike math/rand's derived methods), so
// the generated data never changes under a new Go release.
type rng struct{ s uint64 }

const seed = 0x74706368_62327371 // "tpchb2sq"

// streamRNG returns the stream of chunk k of table t.
func streamRNG(t int, k int64) *rng {
	r := &rng{s: seed ^ uint64(t)*0x9e3779b97f4a7c15 ^ uint64(k)*0xd1342543de82ef95}
	r.next()
	return r
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a uniform int64 in [0, n) (multiply-shift; bias below 2^-32
// for the ranges used here).
func (r *rng) intn(n int64) int64 {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int64(hi)
}

// between returns a uniform int64 in [lo, hi].
func (r *rng) between(lo, hi int64) int64 { return lo + r.intn(hi-lo+1) }
