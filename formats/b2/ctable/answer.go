package ctable

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// Aggregates answered from a FULL index (planner.IndexAnswerer): when every
// predicate of the filter is a comparison on one FULL-indexed column, the
// sorted values give the entry ranges that match, exactly. Each entry is a
// physical row; it is a live, matching row unless it is capacity padding
// (position ≥ nphys) or deleted (_valid_rows bit clear), and NULLs cannot
// hide among the values because only columns without a NULL representation
// (mask or sentinel) are answered. So:
//
//   - with no padding and no deleted rows, count(*) is the length of the
//     ranges and MIN/MAX the first and last value: nothing but two binary
//     searches is read;
//   - otherwise the positions of the entries are read and checked against
//     _valid_rows, as long as at most lookupMaxFraction of the rows match
//     (beyond that the scan is cheaper, as for lookups);
//   - SUM/AVG read the matching values themselves, under the same bound.
//
// Column blocks are never read. Any doubt (an unusable index, a damaged
// sidecar, an int sum that would overflow) declines, and the query runs as
// a scan, which reports errors in place.

// AnswerFromIndex implements planner.IndexAnswerer.
func (t *Table) AnswerFromIndex(filter []index.Pred, aggs []index.AggRequest) ([]columnar.Value, bool) {
	if len(filter) == 0 || t.nphys == 0 {
		return nil, false
	}
	c := filter[0].Col
	fi := t.usableFull(c)
	if fi == nil || t.cols[c].part != 0 {
		return nil, false
	}
	if err := t.loadFull(c, fi); err != nil || !t.nullFree(c) {
		return nil, false
	}
	cur := newFullCursor(fi, nil)
	ranges, ok := t.matchRanges(cur, filter, c)
	if !ok {
		return nil, false
	}
	for _, a := range aggs {
		switch {
		case a.Kind == index.AggCountRows:
		case a.Kind == index.AggCountCol:
			if a.Col < 0 || a.Col >= len(t.cols) || !t.nullFree(a.Col) {
				return nil, false
			}
		case a.Col != c:
			return nil, false
		}
	}
	m := &matches{t: t, cur: cur, ranges: ranges}
	plain := t.live == t.nphys && fi.n == t.nphys
	needValues := false
	for _, a := range aggs {
		needValues = needValues || a.Kind == index.AggSumCol || a.Kind == index.AggAvgCol
	}
	if (!plain || needValues) && float64(count(ranges)) > lookupMaxFraction*float64(t.nphys) {
		return nil, false
	}
	if !plain {
		if err := m.liveEntries(); err != nil {
			return nil, false
		}
	}
	out := make([]columnar.Value, len(aggs))
	for i, a := range aggs {
		v, ok := m.answer(a, t.schema[c].Type)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// nullFree reports whether column c can hold no NULL: no mask, no sentinel.
func (t *Table) nullFree(c int) bool {
	src := t.srcs[t.cols[c].src]
	if src.spec.Flavour != flFixed || src.open(t.st, t.nphys) != nil {
		return false
	}
	return src.mask == nil && src.sent == nil && !src.sentNaN
}

// matchRanges returns the entry ranges of the FULL index on column c that
// satisfy every predicate of filter, or false when some predicate is on
// another column or is not a comparison the sorted values decide.
func (t *Table) matchRanges(cur *fullCursor, filter []index.Pred, c int) ([][2]int64, bool) {
	lo, hi := int64(0), cur.fi.n
	var in [][2]int64
	hasIn := false
	for _, p := range filter {
		if p.Col != c || p.Op == index.Or {
			return nil, false
		}
		ivs, ok := predIntervals(p, t.schema[c].Type)
		if !ok {
			return nil, false
		}
		var rs [][2]int64
		for _, iv := range ivs {
			l, h, err := cur.entries(iv)
			if err != nil {
				return nil, false
			}
			rs = append(rs, [2]int64{l, h})
		}
		if p.Op == index.In {
			if hasIn {
				return nil, false // two IN lists: their intersection is not a range
			}
			in, hasIn = rs, true
			continue
		}
		lo, hi = max(lo, rs[0][0]), min(hi, rs[0][1])
	}
	if !hasIn {
		in = [][2]int64{{0, cur.fi.n}}
	}
	var out [][2]int64
	for _, r := range in {
		if l, h := max(r[0], lo), min(r[1], hi); l < h {
			out = append(out, [2]int64{l, h})
		}
	}
	return out, true
}

// matches walks the matching entries: every entry of ranges, or, once
// liveEntries ran, only those in live.
type matches struct {
	t      *Table
	cur    *fullCursor
	ranges [][2]int64
	live   []int64 // entries whose row is live; nil: every entry of ranges
	sparse bool
}

// liveEntries keeps the entries whose position is a live physical row.
func (m *matches) liveEntries() error {
	m.sparse = true
	var valid []byte
	vblk := int64(-1)
	for _, r := range m.ranges {
		pos, err := m.cur.positions(nil, r[0], r[1])
		if err != nil {
			return err
		}
		for k, p := range pos {
			if p < 0 || p >= m.t.nphys {
				continue
			}
			if b := p / m.t.blockRows; b != vblk {
				lo := b * m.t.blockRows
				n := int(min(m.t.blockRows, m.t.nphys-lo))
				valid = grow(valid, n)
				if err := m.t.valid.ReadItems1D(nil, valid, lo, n); err != nil {
					return err
				}
				vblk = b
			}
			if valid[p-vblk*m.t.blockRows] != 0 {
				m.live = append(m.live, r[0]+int64(k))
			}
		}
	}
	return nil
}

func (m *matches) count() int64 {
	if m.sparse {
		return int64(len(m.live))
	}
	return count(m.ranges)
}

// each calls fn with the value of every matching entry, in index order.
func (m *matches) each(fn func(columnar.Value)) bool {
	one := func(e int64) bool {
		if _, err := m.cur.block(e / m.cur.fi.blockLen); err != nil {
			return false
		}
		fn(m.cur.value(e))
		return true
	}
	if m.sparse {
		for _, e := range m.live {
			if !one(e) {
				return false
			}
		}
		return true
	}
	for _, r := range m.ranges {
		for e := r[0]; e < r[1]; e++ {
			if !one(e) {
				return false
			}
		}
	}
	return true
}

// edge returns the value of the first (last) matching entry.
func (m *matches) edge(last bool) (columnar.Value, bool) {
	var e int64
	switch {
	case m.sparse:
		e = m.live[0]
		if last {
			e = m.live[len(m.live)-1]
		}
	case last:
		e = m.ranges[len(m.ranges)-1][1] - 1
	default:
		e = m.ranges[0][0]
	}
	if _, err := m.cur.block(e / m.cur.fi.blockLen); err != nil {
		return columnar.Value{}, false
	}
	return m.cur.value(e), true
}

func (m *matches) answer(a index.AggRequest, colType columnar.Type) (columnar.Value, bool) {
	n := m.count()
	switch a.Kind {
	case index.AggCountRows, index.AggCountCol:
		return columnar.IntValue(a.Type, n), true
	}
	if n == 0 {
		return columnar.NullValue(a.Type), true
	}
	switch a.Kind {
	case index.AggMinCol, index.AggMaxCol:
		v, ok := m.edge(a.Kind == index.AggMaxCol)
		if !ok || v.Null || v.Type.Phys() != a.Type.Phys() {
			return columnar.Value{}, false
		}
		v.Type = a.Type
		return v, true
	}
	switch colType.ID {
	case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Int64:
		// Exact in 128 bits: SUM(BIGINT) is HUGEINT, as in DuckDB.
		var sum columnar.Int128
		bad := false
		if !m.each(func(v columnar.Value) {
			var ok bool
			sum, ok = sum.Add(columnar.Int128Of(v.I))
			bad = bad || !ok
		}) || bad {
			return columnar.Value{}, false
		}
		switch {
		case a.Kind == index.AggAvgCol && a.Type.Phys() == columnar.PhysFloat:
			return columnar.FloatValue(a.Type, columnar.AvgFloat(sum, n, 0, colType.ID == columnar.Int16)), true
		case a.Kind == index.AggSumCol && a.Type.ID == columnar.Hugeint:
			return columnar.WideValue(a.Type, sum), true
		case a.Kind == index.AggSumCol && a.Type.Phys() == columnar.PhysInt && a.Type.ID != columnar.Decimal && sum.IsInt64():
			return columnar.IntValue(a.Type, int64(sum.Lo)), true
		case a.Kind == index.AggSumCol && a.Type.Phys() == columnar.PhysFloat:
			return columnar.FloatValue(a.Type, sum.Float()), true
		}
	case columnar.Float32, columnar.Float64:
		if a.Type.Phys() != columnar.PhysFloat {
			return columnar.Value{}, false
		}
		var sum, comp float64
		if !m.each(func(v columnar.Value) { neumaier(&sum, &comp, v.F) }) {
			return columnar.Value{}, false
		}
		if !math.IsInf(sum, 0) && !math.IsNaN(sum) {
			sum += comp
		}
		if a.Kind == index.AggAvgCol {
			sum /= float64(n)
		}
		return columnar.FloatValue(a.Type, sum), true
	}
	return columnar.Value{}, false
}

// neumaier adds x to *sum, keeping the rounding error in *comp (the same
// compensated sum the executor's SUM uses, so answers agree with a scan's).
func neumaier(sum, comp *float64, x float64) {
	t := *sum + x
	if math.Abs(*sum) >= math.Abs(x) {
		*comp += (*sum - t) + x
	} else {
		*comp += (x - t) + *sum
	}
	*sum = t
}
