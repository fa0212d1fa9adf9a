package planner

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

// Probe-first join filters (executor/hashjoin_probefirst.go): a join whose
// build side computes an aggregate over a scan (a decorrelated subquery:
// the per-key average of a fact table) reads its small probe side first,
// and the probe keys filter that scan, so the aggregate covers only the
// keys some probe row asks for.

// probeFirstMaxRows is the largest probe side (estimated) worth reading
// first: it is held in memory (up to executor's limit, past which the
// join gives up the filter), and the join leaves the parallel pipeline.
// Generous, as the estimates are coarse: TPC-H Q17's probe side, lineitem
// joined to 0.1% of part, is estimated at 1.2M rows for 6000 real ones.
const probeFirstMaxRows = 2_000_000

// probeFirstKind reports whether unmatched build rows of n never reach
// the output nor change it, so the build side may be restricted to the
// probe keys: not for RIGHT and FULL joins, nor for NOT IN (NULL-aware)
// joins, where a NULL build key changes every answer.
func probeFirstKind(n *Join) bool {
	switch n.Kind {
	case JoinInner, JoinLeft, JoinSemi, JoinSingle:
		return true
	case JoinAnti, JoinMark:
		return !n.NullAware
	}
	return false
}

// probeFirstKeys returns the keys of n whose build column comes from a
// scan through an aggregate, where a filter saves the most, and that scan
// is estimated to have more rows than the probe side: the probe's keys
// can then rule out part of it. A probe side as large as the scan (TPC-H
// Q10's customers against the orders of one quarter pre-aggregated by
// customer, planner rule_eager_agg.go) would filter little and cost the
// probe side its own join filter from the build keys.
func probeFirstKeys(n *Join) []int {
	var out []int
	probe, okp := estimate(n.Left)
	for i, k := range n.EquiKeys {
		l, okl := k.L.(*ColRef)
		r, okr := k.R.(*ColRef)
		if !okl || !okr || l.Col.Type.Phys() != columnar.PhysInt || r.Col.Type.Phys() != columnar.PhysInt {
			continue
		}
		scan, _, viaAgg, ok := traceScanAgg(n.Right, r.Col.ID)
		if !ok || !viaAgg {
			continue
		}
		if s, oks := estimate(scan); okp && oks && s.rows <= probe.rows {
			continue
		}
		out = append(out, i)
	}
	return out
}

// probeFirst reports whether join n (as built: Left probes) reads its
// probe side first: its kind allows it, the probe side is estimated small
// and some build key reaches a scan through an aggregate.
func probeFirst(n *Join) bool {
	if !probeFirstKind(n) || buildsLeft(n) || len(probeFirstKeys(n)) == 0 {
		return false
	}
	e, ok := estimate(n.Left)
	return ok && e.rows <= probeFirstMaxRows
}

// planProbeFilters makes and registers the probe-first filters of n (one
// per key probeFirstKeys returns), for the scans under n.Right.
func (bd *builder) planProbeFilters(n *Join) []*executor.JoinFilter {
	if !bd.joinFilterOn() || !probeFirst(n) {
		return nil
	}
	var out []*executor.JoinFilter
	for _, i := range probeFirstKeys(n) {
		l, r := n.EquiKeys[i].L.(*ColRef), n.EquiKeys[i].R.(*ColRef)
		scan, pos, _, ok := traceScanAgg(n.Right, r.Col.ID)
		if !ok {
			continue
		}
		f := &executor.JoinFilter{Key: i, Desc: scan.Cols[pos].Name + " from " + buildName(n.Left, l)}
		if bd.joinFilters == nil {
			bd.joinFilters = map[*Scan][]scanJoinFilter{}
		}
		bd.joinFilters[scan] = append(bd.joinFilters[scan], scanJoinFilter{pos: pos, f: f})
		out = append(out, f)
	}
	return out
}
