package planner

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/index"
)

// Runtime join filters (the join_filter scan rule): a hash join whose
// probe rows that match no build key never reach the output hands its
// build keys to the scan under its probe side (executor.JoinFilter). The
// scan gets the keys' range as a BETWEEN predicate when it opens (after the
// build is complete), so the table's own pruning (Parquet row groups and
// page index, CTable SUMMARY blocks) skips what misses it, and a
// JoinFilterOp right above the scan drops the rows whose key is not in the
// build's bitmap or bloom filter. A table that applies an index.InSet
// predicate Exact (Parquet) gets the membership test too, as a row filter
// evaluated before its other columns are decoded; the JoinFilterOp then
// passes rows through (JoinFilter.InScan). The key must reach the join unchanged
// from the scan: through Filters, Projects of the column, and the sides of
// joins that pass the column's rows through or drop them.

// filtersProbe reports whether a join of kind k drops the probe rows that
// match no build key (so filtering them away early changes nothing):
// never for the kinds that keep or NULL-extend unmatched probe rows.
func filtersProbe(k executor.JoinKind) bool {
	switch k {
	case executor.JoinInner, executor.JoinSemi, executor.JoinRight, executor.JoinRightSemi, executor.JoinRightAnti:
		return true
	}
	return false
}

// joinFilterOn reports whether the join_filter rule may run.
func (bd *builder) joinFilterOn() bool {
	return index.ScanSpec{NoPrune: bd.opts.NoPrune, Off: bd.opts.ScanRulesOff}.On(index.JoinFilter)
}

// planJoinFilters makes the join filters of join n as built (Left probes,
// Right is built) with executor kind kind, one per integer key whose probe
// side is a scan column, and registers each for its scan; the HashJoin
// fills them (HashJoin.Filters). Scans built afterwards take their
// filters (takeJoinFilters); dropJoinFilters forgets the ones no scan took.
func (bd *builder) planJoinFilters(n *Join, kind executor.JoinKind) []*executor.JoinFilter {
	if !bd.joinFilterOn() || !filtersProbe(kind) {
		return nil
	}
	var out []*executor.JoinFilter
	for i, k := range n.EquiKeys {
		l, ok := k.L.(*ColRef)
		if !ok || l.Col.Type.Phys() != columnar.PhysInt || k.R.Type().Phys() != columnar.PhysInt {
			continue
		}
		for j, id := range equalCols(n.Left, l.Col) {
			scan, pos, ok := traceScan(n.Left, id)
			if j > 0 {
				scan, pos, ok = traceEqual(n.Left, id)
			}
			if !ok {
				continue
			}
			f := &executor.JoinFilter{Key: i, Desc: scan.Cols[pos].Name + " from " + buildName(n.Right, k.R)}
			if bd.joinFilters == nil {
				bd.joinFilters = map[*Scan][]scanJoinFilter{}
			}
			bd.joinFilters[scan] = append(bd.joinFilters[scan], scanJoinFilter{pos: pos, f: f})
			out = append(out, f)
		}
	}
	return out
}

// dropJoinFilters unregisters the filters of fs that no scan took (the
// probe side was built some other way) and returns the others, which the
// join must fill.
func (bd *builder) dropJoinFilters(fs []*executor.JoinFilter) []*executor.JoinFilter {
	if len(fs) == 0 {
		return nil
	}
	untaken := map[*executor.JoinFilter]bool{}
	for s, list := range bd.joinFilters {
		kept := list[:0]
		for _, sf := range list {
			if slices.Contains(fs, sf.f) {
				untaken[sf.f] = true
			} else {
				kept = append(kept, sf)
			}
		}
		if len(kept) == 0 {
			delete(bd.joinFilters, s)
		} else {
			bd.joinFilters[s] = kept
		}
	}
	var taken []*executor.JoinFilter
	for _, f := range fs {
		if !untaken[f] {
			taken = append(taken, f)
		}
	}
	return taken
}

// takeJoinFilters returns (and unregisters) the filters for scan n.
func (bd *builder) takeJoinFilters(n *Scan) []scanJoinFilter {
	fs := bd.joinFilters[n]
	delete(bd.joinFilters, n)
	return fs
}

// traceScan follows column id down from n to the scan that produces it,
// through nodes that output the column's values unchanged and never add
// rows with a value the scan did not produce: Filter, Project of the bare
// column, the left side of joins that do not NULL-extend it, either side
// of inner joins, and aggregates grouping by the bare column (dropping the
// input rows of a key drops exactly that key's groups).
func traceScan(n Node, id ColID) (*Scan, int, bool) {
	s, pos, _, ok := traceScanAgg(n, id)
	return s, pos, ok
}

// traceScanAgg is traceScan, also reporting whether the path passes an
// aggregate.
func traceScanAgg(n Node, id ColID) (scan *Scan, pos int, viaAgg, ok bool) {
	for {
		switch x := n.(type) {
		case *Scan:
			for i, c := range x.Cols {
				if c.ID == id {
					return x, i, viaAgg, true
				}
			}
			return nil, 0, false, false
		case *Filter:
			n = x.Input
		case *Project:
			found := false
			for i, c := range x.Out {
				if c.ID == id {
					r, ok := x.Exprs[i].(*ColRef)
					if !ok {
						return nil, 0, false, false
					}
					id, found = r.Col.ID, true
					break
				}
			}
			if !found {
				return nil, 0, false, false
			}
			n = x.Input
		case *Aggregate:
			found := false
			for i, c := range x.Out[:len(x.Groups)] {
				if c.ID == id {
					r, ok := x.Groups[i].(*ColRef)
					if !ok {
						return nil, 0, false, false
					}
					id, found = r.Col.ID, true
					break
				}
			}
			if !found {
				return nil, 0, false, false
			}
			n, viaAgg = x.Input, true
		case *Join:
			switch {
			case x.Kind != JoinRight && x.Kind != JoinFull && hasColumn(x.Left, id):
				n = x.Left
			case (x.Kind == JoinInner || x.Kind == JoinCross) && hasColumn(x.Right, id):
				n = x.Right
			default:
				return nil, 0, false, false
			}
		default:
			return nil, 0, false, false
		}
	}
}

func hasColumn(n Node, id ColID) bool {
	for _, c := range n.Schema() {
		if c.ID == id {
			return true
		}
	}
	return false
}

// buildName names where a build key comes from, for EXPLAIN: the table
// of the scan producing it, else the key expression.
func buildName(n Node, key Expr) string {
	if r, ok := key.(*ColRef); ok {
		if s, _, ok := traceScan(n, r.Col.ID); ok {
			return s.Name
		}
	}
	return key.String()
}

// scanFilters are the join filters of one scan, applied when it starts.
type scanFilters struct {
	list    []scanJoinFilter
	scan    *Scan
	analyze bool
}

// describe is the scan's EXPLAIN suffix, e.g. " join filter: l_orderkey
// from orders".
func (sf *scanFilters) describe() string {
	s := ""
	for _, f := range sf.list {
		s += " join filter: " + f.f.Desc
	}
	return s
}

// wrap puts a JoinFilterOp per filter above the scan operator op.
func (sf *scanFilters) wrap(bd *builder, op executor.Operator) executor.Operator {
	for _, f := range sf.list {
		op = bd.wrap(&executor.JoinFilterOp{Input: op, Col: f.pos, Filter: f.f})
	}
	return op
}

// scanPreds returns the predicates of the ready filters the table can
// use: the BETWEEN range of the keys where it may skip data (the range
// misses part of the column, by the table's statistics when it has them),
// then the membership test (index.InSet) where the table applies it to
// rows (Exact). Ranges come first: a row filter tests the cheap range
// before the set.
func (sf *scanFilters) scanPreds() []index.Pred {
	fp, ok := sf.scan.Table.(FilterPusher)
	if !ok {
		return nil
	}
	var out, sets []index.Pred
	for _, f := range sf.list {
		if !f.f.Ready() {
			continue
		}
		col := sf.scan.TableCols[f.pos]
		if set := (index.Pred{Col: col, Op: index.InSet, Set: &index.KeySet{Has: f.f.MayContain}}); fp.SupportsFilter(set) == index.Exact {
			set.Set = f.f.KeySet() // the op above passes rows through from now on
			sets = append(sets, set)
		}
		lo, hi, ok := f.f.Range()
		if !ok {
			continue
		}
		t := sf.scan.Cols[f.pos].Type
		p := index.Pred{Col: col, Op: index.Between, Vals: []columnar.Value{columnar.IntValue(t, lo), columnar.IntValue(t, hi)}}
		if fp.SupportsFilter(p) == index.Unsupported {
			continue
		}
		if sp, ok := sf.scan.Table.(StatsProvider); ok {
			if st, ok := sp.ColumnStats(col); ok && st.Verdict(p) == index.All {
				continue // every row is in range: nothing to skip
			}
		}
		out = append(out, p)
	}
	return append(out, sets...)
}

// unitRules are the rules whose skipping a range predicate can cause.
var unitRules = [...]index.ScanRule{index.BlockPruning, index.PageIndex, index.BloomFilter, index.IndexLookup}

// startFiltered runs start (the table's Scan or ScanUnits) with spec plus
// the filters' predicates (scanPreds). Under EXPLAIN ANALYZE it first
// plans the scan without them (counters discarded) to move the units and
// pages they skipped from the rules that did the skipping to join_filter.
func startFiltered[T any](ctx context.Context, sf *scanFilters, spec index.ScanSpec, start func(index.ScanSpec) (T, error)) (T, error) {
	preds := sf.scanPreds()
	if len(preds) == 0 {
		return start(spec)
	}
	var base index.ScanStats
	us, attribute := sf.scan.Table.(UnitScanner)
	attribute = attribute && sf.analyze && spec.Stats != nil
	if attribute {
		b := spec
		b.Stats, b.TopK, b.Extremes = &base, nil, nil
		if _, err := us.ScanUnits(ctx, b); err != nil {
			attribute = false
		}
	}
	spec.Filter = append(append([]index.Pred(nil), spec.Filter...), preds...)
	out, err := start(spec)
	if err != nil || !attribute {
		return out, err
	}
	st := spec.Stats
	for _, r := range unitRules {
		if d := atomic.LoadInt64(&st.SkippedBy[r]) - base.SkippedBy[r]; d > 0 {
			atomic.AddInt64(&st.SkippedBy[r], -d)
			atomic.AddInt64(&st.SkippedBy[index.JoinFilter], d)
		}
	}
	return out, nil
}
