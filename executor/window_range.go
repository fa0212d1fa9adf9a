package executor

import (
	"sort"

	"github.com/b2sql/b2sql/columnar"
)

// rangeKeys locates RANGE frame bounds given as offsets (RANGE BETWEEN 3
// PRECEDING AND INTERVAL '1 day' FOLLOWING) in one sorted partition.
//
// Every row's key becomes a position on one axis: the value for numbers,
// microseconds for DATE (days × 86 400 000 000) and TIMESTAMP, negated
// under DESC so that positions ascend in row order and "preceding" is
// always "smaller". float64 positions are exact up to 2^53, beyond any
// timestamp in microseconds. The non-NULL rows form one run (NULLs sort
// all first or all last), searched with binary search; a row with a NULL
// key has its NULL peers as its frame, as in DuckDB and PostgreSQL.
type rangeKeys struct {
	pos    []float64 // position of row i of the partition
	null   []bool
	lo, hi int // the non-NULL rows are [lo, hi)
}

func newRangeKeys(v *columnar.Vector, key SortKey, rows []int32) *rangeKeys {
	m := len(rows)
	rk := &rangeKeys{pos: make([]float64, m), null: make([]bool, m), lo: m, hi: m}
	scale := 1.0
	if v.Type.ID == columnar.Date {
		scale = 86_400_000_000
	}
	if key.Desc {
		scale = -scale
	}
	for i, r := range rows {
		x := v.Value(int(r))
		if x.Null {
			rk.null[i] = true
			continue
		}
		if rk.lo == m {
			rk.lo = i
		}
		rk.hi = i + 1
		rk.pos[i] = x.AsFloat() * scale
	}
	if rk.lo == m {
		rk.lo = 0
		rk.hi = 0
	}
	return rk
}

// start returns the first row of the frame of row i whose start lies dist
// from row i's key; peerStart is row i's first peer (for a NULL key).
func (rk *rangeKeys) start(i int, dist float64, peerStart int) int {
	if rk.null[i] {
		return peerStart
	}
	target := rk.pos[i] + dist
	return rk.lo + sort.Search(rk.hi-rk.lo, func(k int) bool { return rk.pos[rk.lo+k] >= target })
}

// end returns one past the last row of the frame of row i whose end lies
// dist from row i's key; peerEnd is one past row i's last peer.
func (rk *rangeKeys) end(i int, dist float64, peerEnd int) int {
	if rk.null[i] {
		return peerEnd
	}
	target := rk.pos[i] + dist
	return rk.lo + sort.Search(rk.hi-rk.lo, func(k int) bool { return rk.pos[rk.lo+k] > target })
}
