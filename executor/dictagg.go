package executor

import (
	"bytes"
	"slices"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// codeMinMax is the per-aggregate scratch of MIN/MAX over a coded
// argument: the rank of each code in its dictionary's sort order (computed
// once per dictionary), the best code of each group within one batch, and
// the one-row-per-group batch handed to the aggregate state.
type codeMinMax struct {
	d       *dict.Dict
	rank    []int32
	best    []int32 // by group: best code in this batch, -1 = none
	touched []int32 // groups with a best code in this batch
	gids    []int32
	vals    columnar.Vector
}

// ranks returns code -> position of its value in sorted order for d.
func (m *codeMinMax) ranks(d *dict.Dict) []int32 {
	if d == m.d {
		return m.rank
	}
	n := d.Len()
	order := make([]int32, n)
	for c := range order {
		order[c] = int32(c)
	}
	slices.SortFunc(order, func(a, b int32) int { return bytes.Compare(d.Value(a), d.Value(b)) })
	if cap(m.rank) < n {
		m.rank = make([]int32, n)
	}
	m.rank = m.rank[:n]
	for pos, c := range order {
		m.rank[c] = int32(pos)
	}
	m.d = d
	return m.rank
}

// minMaxCodes folds a coded argument into aggregate i (MIN or MAX): rows
// compare integer ranks, and the state compares strings once per group
// per batch instead of once per row.
func (h *HashAgg) minMaxCodes(i int, b *columnar.Batch, arg *columnar.Vector) error {
	m := &h.minMax[i]
	d, codes, _ := dict.Of(arg)
	rank := m.ranks(d)
	isMin := h.Aggs[i].Kind == AggMin
	for len(m.best) < h.ngroups {
		m.best = append(m.best, -1)
	}
	m.touched = m.touched[:0]
	gids := h.gids
	b.ForEach(func(r int) {
		if arg.Valid != nil && !arg.Valid.Get(r) {
			return
		}
		g, c := gids[r], codes[r]
		switch bc := m.best[g]; {
		case bc < 0:
			m.best[g] = c
			m.touched = append(m.touched, g)
		case isMin && rank[c] < rank[bc], !isMin && rank[c] > rank[bc]:
			m.best[g] = c
		}
	})

	n := len(m.touched)
	if n == 0 {
		return nil
	}
	m.vals.Type = arg.Type
	m.vals.Reset(n)
	m.gids = append(m.gids[:0], m.touched...)
	for k, g := range m.touched {
		m.vals.Bytes[k] = d.Value(m.best[g])
		m.best[g] = -1
	}
	return h.states[i].update(&columnar.Batch{Len: n}, &m.vals, m.gids)
}
