package ctable

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// FULL-index lookups (index.IndexLookup): a filter predicate `=`, IN, a
// range or BETWEEN on a column with a usable FULL index is answered by two
// binary searches in the sorted values (navigation array, then one block),
// giving the positions of every row that can match. The scan then reads
// only the blocks holding them, and only those rows are live in its
// batches; the filter stays above the scan (Inexact), so NULLs stored as
// fill values or sentinels among the positions are dropped there.
//
// A lookup reads 8 bytes of positions per matching entry and sorts them,
// then decodes the blocks holding them; the plain scan decodes every block
// (SUMMARY pruning aside). The cost of the lookup grows with the matches,
// that of the scan does not, so the lookup is used while at most
// lookupMaxFraction of the rows match. The threshold comes from
// BenchmarkLookupCrossover (20M rows, k a random permutation so that m
// matching rows touch about min(m, 2442) of the 2442 blocks of 8192 rows;
// reading 3 columns, one thread, CPU time per query):
//
//	matching rows   blocks read   lookup    scan
//	            1             1     7.6 ms   373 ms
//	          100           100      20 ms   385 ms
//	        1 000         1 000     167 ms   429 ms
//	        3 000         2 230     367 ms   493 ms
//	       10 000         2 442     423 ms   500 ms
//	  400 000 (2%)        2 442     485 ms   527 ms
//	1 000 000 (5%)        2 442     666 ms   564 ms
//	2 000 000 (10%)       2 442     784 ms   529 ms
//
// Even with every block touched the lookup is no slower up to 2% of the
// rows (the scan's filter then sees only the matching rows); at 5% the
// positions cost more than they save.
var lookupMaxFraction = 0.02

// lookupPlan is the outcome of a lookup: the physical rows that may match.
type lookupPlan struct {
	col  string
	rows []int64 // ascending, < nphys
}

// usableFull returns the FULL index that answers lookups on schema column
// c, or nil.
func (t *Table) usableFull(c int) *fullIndex {
	if c < 0 || c >= len(t.cols) {
		return nil
	}
	src := t.srcs[t.cols[c].src]
	if src.spec.Flavour != flFixed || src.spec.Kind == "string" || src.spec.Kind == "bytes" ||
		src.spec.Kind == "complex64" || src.spec.Kind == "complex128" {
		return nil
	}
	fi := t.full[src.spec.Name]
	if fi == nil || fi.why != "" {
		return nil
	}
	return fi
}

// usableRank returns the FULL index of ranks (rankindex.go) that answers
// lookups on utf8 column c, or nil.
func (t *Table) usableRank(c int) *fullIndex {
	if c < 0 || c >= len(t.cols) {
		return nil
	}
	src := t.srcs[t.cols[c].src]
	if src.spec.Flavour != flUTF8 {
		return nil
	}
	fi := t.full[src.spec.Name]
	if fi == nil || fi.rank == nil || fi.why != "" {
		return nil
	}
	return fi
}

// loadFull opens column c and its FULL index; a damaged index returns an
// error meant for a note (the query still runs without it).
func (t *Table) loadFull(c int, fi *fullIndex) error {
	src := t.srcs[t.cols[c].src]
	if err := src.open(t.st, t.nphys); err != nil {
		return err
	}
	return fi.load(t.st, src, t.schema[c].Type)
}

// planLookup narrows pl to the rows a FULL index says may match, when
// spec allows it and the most selective indexed predicate is selective
// enough. It adds notes for EXPLAIN and counts skipped blocks.
func (t *Table) planLookup(spec index.ScanSpec, pl *scanPlan) error {
	if !spec.On(index.IndexLookup) || t.nphys == 0 {
		return nil
	}
	// Per indexed column, the entry ranges its predicates leave: range
	// predicates (a BETWEEN arrives as >= and <=) intersect into one
	// range, an IN keeps its values' ranges inside it.
	type choice struct {
		fi      *fullIndex
		cur     *fullCursor
		lo, hi  int64
		in      [][2]int64
		hasIn   bool
		ranges  [][2]int64
		entries int64
	}
	byCol := map[int]*choice{}
	var cols []int
	for _, p := range spec.Filter {
		if p.Op == index.Or {
			continue
		}
		c := p.Col
		fi := t.usableFull(c)
		if fi == nil {
			fi = t.usableRank(c)
		}
		if fi == nil {
			continue // a stale index is noted by plan (its block summary)
		}
		ivs, ok := predIntervals(p, t.schema[c].Type)
		if !ok {
			continue
		}
		ch := byCol[c]
		if ch == nil {
			if err := t.loadFull(c, fi); err != nil {
				var stale errRankStale
				if errors.As(err, &stale) {
					pl.notes = appendNote(pl.notes, fmt.Sprintf("full index %s %v", fi.col, err))
				} else {
					pl.notes = appendNote(pl.notes, fmt.Sprintf("full index %s unreadable: %v", fi.col, err))
				}
				continue
			}
			ch = &choice{fi: fi, cur: newFullCursor(fi, nil), hi: fi.n}
			byCol[c] = ch
			cols = append(cols, c)
		}
		if fi.rank != nil {
			ivs = fi.rank.intervals(ivs)
		}
		var rs [][2]int64
		for _, iv := range ivs {
			lo, hi, err := ch.cur.entries(iv)
			if err != nil {
				pl.notes = appendNote(pl.notes, fmt.Sprintf("full index %s unreadable: %v", fi.col, err))
				delete(byCol, c)
				rs = nil
				break
			}
			rs = append(rs, [2]int64{lo, hi})
		}
		switch {
		case byCol[c] == nil:
		case p.Op == index.In:
			if !ch.hasIn || count(rs) < count(ch.in) {
				ch.in, ch.hasIn = rs, true // the smaller IN list decides
			}
		default:
			ch.lo, ch.hi = max(ch.lo, rs[0][0]), min(ch.hi, rs[0][1])
		}
	}
	var best *choice
	for _, c := range cols {
		ch := byCol[c]
		if ch == nil {
			continue
		}
		ch.ranges = [][2]int64{{ch.lo, ch.hi}}
		if ch.hasIn {
			ch.ranges = nil
			for _, r := range ch.in {
				ch.ranges = append(ch.ranges, [2]int64{max(r[0], ch.lo), min(r[1], ch.hi)})
			}
		}
		ch.ranges = slices.DeleteFunc(ch.ranges, func(r [2]int64) bool { return r[1] <= r[0] })
		ch.entries = count(ch.ranges)
		if best == nil || ch.entries < best.entries {
			best = ch
		}
	}
	if best == nil {
		return nil
	}
	if float64(best.entries) > lookupMaxFraction*float64(t.nphys) {
		return nil // not selective: the scan reads the same blocks cheaper
	}
	var rows []int64
	for _, r := range best.ranges {
		var err error
		if rows, err = best.cur.positions(rows, r[0], r[1]); err != nil {
			pl.notes = appendNote(pl.notes, fmt.Sprintf("full index %s unreadable: %v", best.fi.col, err))
			return nil
		}
	}
	// Drop capacity padding and rows past the physical extent; positions
	// are unique, so sorting is all that is left.
	rows = slices.DeleteFunc(rows, func(r int64) bool { return r < 0 || r >= t.nphys })
	slices.Sort(rows)
	// Decide every block: a block without a position is skipped.
	hit := make([]bool, len(pl.verdicts))
	for _, r := range rows {
		hit[r/pl.grain] = true
	}
	for b, v := range pl.verdicts {
		if v != index.None && !hit[b] {
			pl.verdicts[b] = index.None
			pl.skipped++
			pl.lookupSkipped++
		}
	}
	pl.lookup = &lookupPlan{col: best.fi.col, rows: rows}
	return nil
}

// count sums the lengths of entry ranges.
func count(rs [][2]int64) int64 {
	n := int64(0)
	for _, r := range rs {
		n += max(0, r[1]-r[0])
	}
	return n
}

// appendNote adds s unless it is already there.
func appendNote(notes []string, s string) []string {
	if slices.Contains(notes, s) {
		return notes
	}
	return append(notes, s)
}

// countLookup moves the blocks the lookup skipped from
// SkippedBy[BlockPruning] (the scan counts every skipped block there) to
// SkippedBy[IndexLookup].
func (pl *scanPlan) countLookup(st *index.ScanStats) {
	if st != nil && pl.lookupSkipped > 0 {
		n := int64(pl.lookupSkipped)
		atomic.AddInt64(&st.SkippedBy[index.BlockPruning], -n)
		atomic.AddInt64(&st.SkippedBy[index.IndexLookup], n)
	}
}

// restrict clears the _valid_rows bytes of physical rows [lo, lo+len(valid))
// that the lookup did not find, so that the scan treats them as deleted.
func (pl *scanPlan) restrict(lo int64, valid []byte) {
	if pl.lookup == nil {
		return
	}
	rows := pl.lookup.rows
	j := sort.Search(len(rows), func(k int) bool { return rows[k] >= lo })
	next := int64(-1)
	if j < len(rows) {
		next = rows[j]
	}
	for i := range valid {
		if lo+int64(i) == next {
			j++
			next = -1
			if j < len(rows) {
				next = rows[j]
			}
			continue
		}
		valid[i] = 0
	}
}

// lookupNote describes a lookup for DescribeScan.
func (pl *scanPlan) lookupNote() string {
	if pl.lookup == nil {
		return ""
	}
	return fmt.Sprintf("full index lookup on %s: %d rows", pl.lookup.col, len(pl.lookup.rows))
}

// valueIn reports whether the non-NULL value v satisfies the comparison p
// (DuckDB semantics through columnar.Compare: NaN equals NaN and is above
// every number). p must not be IS [NOT] NULL or OR.
func valueIn(p index.Pred, v columnar.Value) bool {
	cmp := func(i int) int { return columnar.Compare(v, p.Vals[i]) }
	switch p.Op {
	case index.Eq:
		return cmp(0) == 0
	case index.Ne:
		return cmp(0) != 0
	case index.Lt:
		return cmp(0) < 0
	case index.Le:
		return cmp(0) <= 0
	case index.Gt:
		return cmp(0) > 0
	case index.Ge:
		return cmp(0) >= 0
	case index.Between:
		return cmp(0) >= 0 && cmp(1) <= 0
	case index.In:
		for i := range p.Vals {
			if cmp(i) == 0 {
				return true
			}
		}
	case index.InSet:
		return v.Type.Phys() == columnar.PhysInt && p.Set.Has(v.I)
	}
	return false
}
