package executor

import (
	"bytes"

	"github.com/b2sql/b2sql/columnar"
)

// MIN and MAX of a 128-bit type (HUGEINT, UHUGEINT, DECIMAL(19..38)) keep
// each group's extreme as its 16-byte key in a fixed slot (keys16),
// overwritten in place: as strings, every new extreme was copied into the
// state's arena, which only grows, so that max(d38 - 1) over 10M rising
// values held 200 MB. The keys order as the numbers do (columnar/int128.go).

// minMaxWide reports whether s is such a MIN or MAX.
func (s *aggState) minMaxWide() bool {
	return (s.spec.Kind == AggMin || s.spec.Kind == AggMax) && s.in.Wide()
}

// updateMinMaxWide folds the rows sel (every row of n when nil) of arg.
func (s *aggState) updateMinMaxWide(arg *columnar.Vector, gids []int32, sel []int, n int) {
	isMin := s.spec.Kind == AggMin
	keys, counts := s.keys16, s.count
	row := func(i int) {
		g, x := gids[i], arg.Bytes[i]
		if counts[g] == 0 {
			copy(keys[g][:], x)
		} else if c := bytes.Compare(x, keys[g][:]); c != 0 && (c < 0) == isMin {
			copy(keys[g][:], x)
		}
		counts[g]++
	}
	if sel == nil {
		for i := range n {
			row(i)
		}
		return
	}
	for _, i := range sel {
		row(i)
	}
}

// minMaxWideResult writes group g's extreme to row k of out, its 16 bytes
// appended to slab (one allocation per output batch).
func (s *aggState) minMaxWideResult(out *columnar.Vector, g, k int, slab *[]byte) {
	start := len(*slab)
	*slab = append(*slab, s.keys16[g][:]...)
	out.Bytes[k] = (*slab)[start:len(*slab):len(*slab)]
}
