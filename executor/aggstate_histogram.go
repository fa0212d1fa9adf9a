package executor

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// AggHistogram is histogram(x) (planner/histogram_agg.go): a group's
// distinct non-NULL values counted as mode counts them (values equal as in
// GROUP BY), given as a MAP(x, UBIGINT) in ascending key order; NULL for a
// group without values, as DuckDB.
const AggHistogram AggKind = 56

// histogramResult writes the histograms of groups [from, to).
func (s *aggState) histogramResult(out *columnar.Vector, from, to int) {
	n := to - from
	t := s.in
	mt := out.Type
	for k := range n {
		counts := s.vals.modes[from+k]
		if len(counts) == 0 {
			out.SetNull(k, n)
			continue
		}
		entries := make([]columnar.Value, 0, len(counts))
		for key, c := range counts {
			kv := s.modeKeyValue(t, key, c)
			entries = append(entries, columnar.Value{Type: mt.Elem(), Elems: []columnar.Value{kv, columnar.UintValue(uint64(c.n))}})
		}
		slices.SortFunc(entries, func(a, b columnar.Value) int { return columnar.Compare(a.Elems[0], b.Elems[0]) })
		out.SetValue(k, n, columnar.Value{Type: mt, Elems: entries})
	}
}

// modeKeyValue is the value of type t whose modeKey is key.
func (s *aggState) modeKeyValue(t columnar.Type, key string, c modeCount) columnar.Value {
	switch t.Phys() {
	case columnar.PhysInt, columnar.PhysUint:
		return columnar.IntValue(t, int64(binary.LittleEndian.Uint64([]byte(key))))
	case columnar.PhysFloat:
		return columnar.FloatValue(t, math.Float64frombits(binary.LittleEndian.Uint64([]byte(key))))
	case columnar.PhysBool:
		return columnar.BoolValue(key[0] == 1)
	case columnar.PhysNested:
		return s.vals.modeStore.Value(c.row)
	}
	return columnar.Value{Type: t, S: key}
}
