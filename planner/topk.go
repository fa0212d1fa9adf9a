package planner

import (
	"context"
	"fmt"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/index"
)

// Two physical choices for a TopK whose single key is a column of the scan
// under it (through Filters and pass-through Projects; for topk_pruning,
// the first of several keys), both made at Build
// because they depend on the scan rules switched off (SET sorted_limit =
// off, SET topk_pruning = off):
//
//   - sorted_limit: the table scans in key order itself (OrderedScanner,
//     a CTable FULL index), so the TopK becomes a Limit over that ordered
//     scan, which stops after Count+Offset rows: no sort, no full scan.
//   - topk_pruning: the TopK publishes its k-th key into an
//     index.TopKBound the scan shares, and the scan skips units whose
//     min/max cannot beat it, visiting the most promising units first.
//
// Both require NULLS LAST (the default in both directions), the order
// OrderedScanner promises and the one TopKBound reasons about.

// topKColumn finds the scan column the single key of n orders by: the
// scan, the table column, and the key's type. ok is false when the key is
// an expression, a NULLS FIRST key, or the input is not Filter/Project
// nodes over a Scan.
func topKColumn(n *TopK) (scan *Scan, col int, ok bool) {
	if len(n.Keys) != 1 {
		return nil, 0, false
	}
	return topKFirstColumn(n)
}

// topKFirstColumn is topKColumn for the first of n's keys, whatever keys
// follow it (they only break its ties).
func topKFirstColumn(n *TopK) (scan *Scan, col int, ok bool) {
	if len(n.Keys) == 0 || n.Keys[0].NullsFirst {
		return nil, 0, false
	}
	ref, isRef := n.Keys[0].Expr.(*ColRef)
	if !isRef {
		return nil, 0, false
	}
	return scanColumn(n.Input, ref)
}

// rowsReach reports whether every row scan yields with a non-NULL value
// in table column col reaches the top of in: only Projects lie between,
// and Filters that drop rows whose col is NULL (ORDER BY price DESC …
// WHERE price IS NOT NULL) and nothing else. Any other Filter drops rows
// that may hold the best keys, so the scan's statistics no longer bound
// the top-k's; NULL keys never do (the bound is made for NULLS LAST
// keys only, topKFirstColumn).
func rowsReach(in Node, scan *Scan, col int) bool {
	for in != Node(scan) {
		switch x := in.(type) {
		case *Project:
			in = x.Input
		case *Filter:
			if !dropsNullKeysOnly(x, scan, col) {
				return false
			}
			in = x.Input
		default:
			return false
		}
	}
	return true
}

// dropsNullKeysOnly reports whether every conjunct of f is `c IS NOT
// NULL` for a column c that is scan's table column col.
func dropsNullKeysOnly(f *Filter, scan *Scan, col int) bool {
	for _, c := range SplitAnd(f.Cond) {
		call, ok := c.(*Call)
		if !ok || call.Fn != "is_not_null" || len(call.Args) != 1 {
			return false
		}
		ref, ok := call.Args[0].(*ColRef)
		if !ok {
			return false
		}
		s, c, ok := scanColumn(f.Input, ref)
		if !ok || s != scan || c != col {
			return false
		}
	}
	return true
}

// scanColumn follows ref down through Filters and Projects that pass it
// on unchanged to the table column of an unlimited Scan; ok is false for
// anything else.
func scanColumn(in Node, ref *ColRef) (scan *Scan, col int, ok bool) {
	id, typ := ref.Col.ID, ref.Col.Type
	for {
		switch x := in.(type) {
		case *Filter:
			in = x.Input
		case *Project:
			found := false
			for i, c := range x.Out {
				if c.ID != id {
					continue
				}
				r, isRef := x.Exprs[i].(*ColRef)
				if !isRef || r.Col.Type != typ {
					return nil, 0, false
				}
				id, found = r.Col.ID, true
				break
			}
			if !found {
				return nil, 0, false
			}
			in = x.Input
		case *Scan:
			for i, c := range x.Cols {
				if c.ID == id && c.Type == typ && x.Limit < 0 {
					return x, x.TableCols[i], true
				}
			}
			return nil, 0, false
		default:
			return nil, 0, false
		}
	}
}

// ruleOn reports whether the scan rule r may run in this build.
func (bd *builder) ruleOn(r index.ScanRule) bool {
	return !bd.opts.NoPrune && !bd.opts.ScanRulesOff.Has(r)
}

// sortedLimit builds n as a Limit over an ordered scan when the table can
// produce the key's order itself, or returns nil.
func (bd *builder) sortedLimit(n *TopK) (executor.Operator, error) {
	if !bd.ruleOn(index.SortedLimit) {
		return nil, nil
	}
	scan, col, ok := topKColumn(n)
	if !ok {
		return nil, nil
	}
	os, ok := scan.Table.(OrderedScanner)
	if !ok || !os.CanScanOrdered(col) {
		return nil, nil
	}
	desc := n.Keys[0].Desc
	// With a Filter left between (a predicate the scan cannot apply
	// exactly), the scan may not stop after Count+Offset rows: the Limit
	// above stops pulling instead, and the ordered scan streams lazily.
	limit := n.Count + n.Offset
	for in := n.Input; ; {
		if _, ok := in.(*Filter); ok {
			limit = -1
		}
		kids := in.Children()
		if len(kids) == 0 {
			break
		}
		in = kids[0]
	}
	spec := bd.scanSpec(scan)
	spec.Limit = limit
	types := make([]columnar.Type, len(scan.Cols))
	for i, c := range scan.Cols {
		types[i] = c.Type
	}
	dir := "ASC"
	if desc {
		dir = "DESC"
	}
	src := &executor.Scan{
		Start: func(ctx context.Context) (columnar.Reader, error) {
			*spec.Stats = index.ScanStats{}
			return os.ScanOrdered(ctx, spec, col, desc)
		},
		Out: types,
		Describe: sync.OnceValue(func() string {
			return scanString(scan, spec) + fmt.Sprintf(" order=%s %s (%s)", scanSchema(scan.Table)[col].Name, dir, index.SortedLimit)
		}),
	}
	bd.built.scans[src] = spec.Stats
	in, err := bd.chain(n.Input, bd.wrap(src))
	if err != nil {
		return nil, err
	}
	return bd.wrap(&executor.Limit{Input: in, Count: n.Count, Offset: n.Offset}), nil
}

// topKBound makes the bound n's TopK operators publish into and the scan
// under it reads, recording it for buildScan/workerChains (by scan) and for
// the serial TopK (by n); nil when top-k pruning does not apply.
func (bd *builder) topKBound(n *TopK) *index.TopKBound {
	if !bd.ruleOn(index.TopKPruning) || n.Count+n.Offset <= 0 {
		return nil
	}
	// Further keys only break ties on the first: the bound is the first
	// key of the k-th row, and ties with it may still enter (Ties).
	scan, col, ok := topKFirstColumn(n)
	if !ok {
		return nil
	}
	b := &index.TopKBound{Col: col, Desc: n.Keys[0].Desc, Ties: len(n.Keys) > 1}
	if rowsReach(n.Input, scan, col) {
		b.K = n.Count + n.Offset
	}
	if bd.bounds == nil {
		bd.bounds, bd.topks = map[*Scan]*index.TopKBound{}, map[*TopK]*index.TopKBound{}
	}
	bd.bounds[scan], bd.topks[n] = b, b
	return b
}
