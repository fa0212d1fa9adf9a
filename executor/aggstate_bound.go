package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// publish offers the running MIN or MAX of an aggregate without groups to
// b (AggSpec.Bound), once per new value: the scan below skips the units
// that cannot beat it. Every value seen is a valid bound, whatever the
// other partial aggregates hold; b keeps the best.
func (s *aggState) publish(b *index.TopKBound) {
	if len(s.count) != 1 || s.count[0] == 0 {
		return
	}
	v := columnar.Value{Type: s.in}
	switch s.in.Phys() {
	case columnar.PhysInt:
		if s.pubOK && s.pub.I == s.ints[0] {
			return
		}
		v.I = s.ints[0]
	case columnar.PhysUint:
		if s.pubOK && uint64(s.pub.I) == s.uints[0] {
			return
		}
		v.I = int64(s.uints[0])
	case columnar.PhysFloat:
		if s.pubOK && math.Float64bits(s.pub.F) == math.Float64bits(s.floats[0]) {
			return
		}
		v.F = s.floats[0]
	case columnar.PhysBytes:
		cur := s.bytes0()
		if s.pubOK && s.pub.S == string(cur) { // compared without a copy
			return
		}
		v.S = string(cur)
	default:
		return
	}
	s.pub, s.pubOK = v, true
	b.Publish(v)
}

// bytes0 is the only group's MIN or MAX of a string or 128-bit type.
func (s *aggState) bytes0() []byte {
	if s.minMaxWide() {
		return s.keys16[0][:]
	}
	return s.bytes[0]
}
