package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// distinctKey identifies a value for DISTINCT: NaNs are one value, and
// -0 equals 0, as in GROUP BY.
type distinctKey struct {
	i int64
	f uint64
	s string
}

func keyOf(v columnar.Value) distinctKey {
	switch v.Type.Phys() {
	case columnar.PhysFloat:
		f := v.F
		if f == 0 {
			f = 0
		}
		if math.IsNaN(f) {
			f = math.NaN()
		}
		return distinctKey{f: math.Float64bits(f)}
	case columnar.PhysBytes:
		return distinctKey{s: v.S}
	case columnar.PhysNested:
		// A list, struct or map by its JSON text (strings quoted, NULL
		// apart from 'NULL'); i tells it from a string of that text.
		return distinctKey{i: 1, s: string(v.AppendJSON(nil))}
	}
	return distinctKey{i: v.I}
}
