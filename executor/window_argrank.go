package executor

import (
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// argRankPartition fills res for the rows of one partition (in window
// order) of f, a ranking function or lag/lead with its own ORDER BY
// (row_number(ORDER BY y) OVER w). As in DuckDB 1.5, such a function
// works on the current row's frame sorted by that order, ties kept in
// window order: row_number is 1 + the frame's rows before the current
// row, rank 1 + the frame's rows strictly before its argument-order
// peers, cume_dist the rows up to its last peer over the frame's size,
// ntile buckets the row number within the frame, and lag/lead step from
// the current row's place in the sorted frame. A row outside its own
// frame (ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) takes the place it
// would have, as in DuckDB.
//
// The partition is sorted once by the argument order; a Fenwick tree of
// the frame's sorted positions then answers "how many frame rows come
// before position p" and "which is the k-th frame row" in O(log m) while
// the frame slides, so a growing or sliding frame costs O(m log m), not a
// sort per row.
func argRankPartition(f *WindowFunc, rows []int32, ord, args, argOrd []*columnar.Vector, ra *rowArgs, res []columnar.Value) {
	m := len(rows)
	peerStart, peerEnd := peerBounds(f, ord, rows)
	fb := newFrameBounds(f, ord, rows, peerStart, peerEnd, ra)
	sorted := make([]int32, m) // partition positions in argument order
	for i := range sorted {
		sorted[i] = int32(i)
	}
	byArgs := func(a, b int32) int { return compareRows(argOrd, f.ArgOrder, int(rows[a]), int(rows[b])) }
	slices.SortStableFunc(sorted, byArgs)
	at := make([]int32, m) // at[k]: where partition row k is in sorted
	for p, k := range sorted {
		at[k] = int32(p)
	}
	// Argument-order peer groups, by sorted position (rank, cume_dist).
	var lo, hi []int32
	if f.Name == "rank" || f.Name == "percent_rank" || f.Name == "cume_dist" {
		lo, hi = make([]int32, m), make([]int32, m)
		for p := 0; p < m; {
			q := p + 1
			for q < m && byArgs(sorted[p], sorted[q]) == 0 {
				q++
			}
			for r := p; r < q; r++ {
				lo[r], hi[r] = int32(p), int32(q)
			}
			p = q
		}
	}
	arg := func(k int) columnar.Value { return args[0].Value(int(rows[k])) }
	// With IGNORE NULLS lag and lead count only the rows whose argument
	// is not NULL: only those enter the tree.
	counted := func(int) bool { return true }
	if f.IgnoreNulls && (f.Name == "lag" || f.Name == "lead") {
		counted = func(k int) bool { return !arg(k).Null }
	}
	t := newFenwick(m)
	cs, ce := 0, 0 // the frame now in the tree
	move := func(k, d int) {
		if counted(k) {
			t.add(int(at[k]), d)
		}
	}
	for i := range m {
		s, e := fb.bounds(i)
		s = min(s, m) // a frame wholly after the partition's end is empty
		e = max(e, s)
		// Frames usually slide forward; a bound that moves back (a
		// frame offset larger than the last row's) is undone row by row.
		for ; ce < e; ce++ {
			move(ce, 1)
		}
		for ; ce > e; ce-- {
			move(ce-1, -1)
		}
		for ; cs < s; cs++ {
			move(cs, -1)
		}
		for ; cs > s; cs-- {
			move(cs-1, 1)
		}
		n := e - s
		before := t.prefix(int(at[i])) // frame rows before row i
		r := rows[i]
		switch f.Name {
		case "row_number":
			res[r] = columnar.IntValue(f.Type, int64(before+1))
		case "rank":
			res[r] = columnar.IntValue(f.Type, int64(t.prefix(int(lo[at[i]]))+1))
		case "percent_rank":
			pr := 0.0
			if n > 1 {
				pr = float64(t.prefix(int(lo[at[i]]))) / float64(n-1)
			}
			res[r] = columnar.FloatValue(f.Type, pr)
		case "cume_dist":
			cd := 0.0
			if n > 0 {
				cd = float64(t.prefix(int(hi[at[i]]))) / float64(n)
			}
			res[r] = columnar.FloatValue(f.Type, cd)
		case "ntile":
			res[r] = columnar.NullValue(f.Type) // an empty frame has no buckets, as in DuckDB
			if n > 0 {
				res[r] = columnar.IntValue(f.Type, ntile(int64(before), int64(n), f.Offset))
			}
		case "lag", "lead":
			k64, ok := ra.offsetAt(f, r) // window_rowargs.go
			if !ok {
				res[r] = columnar.NullValue(f.Type)
				continue
			}
			lead := (f.Name == "lead") != (k64 < 0) // lag(x, -k) is lead(x, k)
			k := int(min(max(k64, -int64(m)-1), int64(m)+1))
			if k < 0 {
				k = -k
			}
			j := before - k
			if lead {
				j = before + k
				if f.IgnoreNulls && k > 0 && !(counted(i) && i >= s && i < e) {
					// The row itself is not in the tree: the first
					// counted row after it is at before.
					j--
				}
			}
			switch {
			case k == 0 && f.IgnoreNulls:
				res[r] = arg(i)
			case j >= 0 && j < t.total:
				res[r] = arg(int(sorted[t.find(j)]))
			default:
				res[r] = ra.defaultAt(f, r)
			}
		}
	}
}

// fenwick counts which of m positions are present; prefix and find run
// in O(log m).
type fenwick struct {
	tree  []int32 // 1-based binary indexed tree
	total int
	top   int // the highest power of two ≤ m
}

func newFenwick(m int) *fenwick {
	top := 1
	for top*2 <= m {
		top *= 2
	}
	return &fenwick{tree: make([]int32, m+1), top: top}
}

// add adds d (±1) at position p.
func (f *fenwick) add(p, d int) {
	f.total += d
	for i := p + 1; i < len(f.tree); i += i & -i {
		f.tree[i] += int32(d)
	}
}

// prefix counts the positions before p.
func (f *fenwick) prefix(p int) int {
	n := 0
	for i := p; i > 0; i -= i & -i {
		n += int(f.tree[i])
	}
	return n
}

// find returns the position of the j-th present position (0-based),
// j < total.
func (f *fenwick) find(j int) int {
	pos := 0
	for step := f.top; step > 0; step /= 2 {
		if next := pos + step; next < len(f.tree) && int(f.tree[next]) <= j {
			pos = next
			j -= int(f.tree[next])
		}
	}
	return pos
}
