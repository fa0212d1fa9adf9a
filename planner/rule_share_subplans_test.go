package planner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// countedTable is an orderedTable that claims rows as its row count, so
// that the join estimates know it.
type countedTable struct {
	*orderedTable
	rows int64
}

func (t *countedTable) RowCount() int64 { return t.rows }

// shareSide is one occurrence of the join the tests share, bound with IDs
// from base: t AS a JOIN t AS b ON a.id*k = b.x (and extra, when not nil,
// over a.id and b.x), under a projection of (a.id, b.x), or (b.x, a.id) when
// swap.
func shareSide(tab Table, base ColID, k int64, swap bool, extra func(aid, bx *ColRef) Expr) Node {
	side := func(b ColID) (*Scan, *ColRef, *ColRef) {
		cols := []Column{{ID: b, Name: "id", Type: columnar.TInt64}, {ID: b + 1, Name: "x", Type: columnar.TInt64}}
		return &Scan{Table: tab, Name: "t", TableCols: []int{0, 1}, Cols: cols, Limit: -1}, &ColRef{Col: cols[0]}, &ColRef{Col: cols[1]}
	}
	a, aid, _ := side(base)
	b, _, bx := side(base + 2)
	times := &Call{Fn: "*", Args: []Expr{aid, &Const{Val: columnar.IntValue(columnar.TInt64, k)}}, T: columnar.TInt64}
	cond := Expr(&Call{Fn: "=", Args: []Expr{times, bx}, T: columnar.TBool})
	if extra != nil {
		cond = &Call{Fn: "and", Args: []Expr{cond, extra(aid, bx)}, T: columnar.TBool}
	}
	f := &Filter{Input: &Join{Left: a, Right: b, Kind: JoinCross}, Cond: cond}
	exprs := []Expr{aid, bx}
	if swap {
		exprs = []Expr{bx, aid}
	}
	out := []Column{{ID: base + 4, Name: "p", Type: columnar.TInt64}, {ID: base + 5, Name: "q", Type: columnar.TInt64}}
	return &Project{Input: f, Exprs: exprs, Out: out}
}

// TestShareSubplans: t holds ids 1..5 and xs 10, 20, NULL, 40, 50, so
// a.id*10 = b.x pairs ids 1, 2, 4, 5 with xs 10, 20, 40, 50. Two equal
// joins under different projections are computed once (two scans of t,
// not four) and keep only the two columns the projections read; joins that
// differ in a constant, call a volatile function or are estimated too large
// are computed twice. Every case gives the answer worked out by hand.
func TestShareSubplans(t *testing.T) {
	// random() >= 0 OR a.id = b.x: TRUE, but volatile, and it reads both
	// sides, so it stays in the join.
	rnd := func(aid, bx *ColRef) Expr {
		r := &Call{Fn: "random", T: columnar.TFloat64}
		ge := &Call{Fn: ">=", Args: []Expr{r, &Const{Val: columnar.FloatValue(columnar.TFloat64, 0)}}, T: columnar.TBool}
		eq := &Call{Fn: "=", Args: []Expr{aid, bx}, T: columnar.TBool}
		return &Call{Fn: "or", Args: []Expr{ge, eq}, T: columnar.TBool}
	}
	for _, tc := range []struct {
		name       string
		rows       int64 // the row count t claims
		k2         int64 // the second join's factor
		extra      func(aid, bx *ColRef) Expr
		sum, count int64
		scans      int
	}{
		// Column 0: ids 1+2+4+5 from the first side, xs 10+20+40+50
		// from the swapped second side.
		{"equal joins: shared", 5, 10, nil, 12 + 120, 8, 2},
		// a.id*20 = b.x: ids 1, 2 with xs 20, 40.
		{"another constant: not shared", 5, 20, nil, 12 + 60, 6, 4},
		{"volatile call: not shared", 5, 10, rnd, 12 + 120, 8, 4},
		{"too many rows: not shared", 2 * shareMaxRows, 10, nil, 12 + 120, 8, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := &countedTable{orderedTable: cteTable(), rows: tc.rows}
			u := unionAll(shareSide(tab, 1, 10, false, tc.extra), shareSide(tab, 11, tc.k2, true, tc.extra), 21)
			r := runIDs(t, u)
			if r.sum != tc.sum || r.rows != tc.count || r.nulls != 0 {
				t.Fatalf("sum %d rows %d nulls %d, want %d, %d and 0", r.sum, r.rows, r.nulls, tc.sum, tc.count)
			}
			if len(tab.specs) != tc.scans {
				t.Errorf("t scanned %d times, want %d", len(tab.specs), tc.scans)
			}
			shared := strings.Contains(r.explain, "CTE shared (materialized, 2 uses)")
			if shared != (tc.scans == 2) {
				t.Errorf("shared = %v, want %v:\n%s", shared, tc.scans == 2, r.explain)
			}
			if !shared {
				return
			}
			// a reads id, b reads x (in either order).
			var read []string
			for _, s := range tab.specs {
				read = append(read, fmt.Sprint(s.Cols))
			}
			if slices.Sort(read); strings.Join(read, " ") != "[0] [1]" {
				t.Errorf("scans read columns %v, want [0] and [1]", read)
			}
			opt, _ := Optimize(u, Options{})
			var widths []int
			var walk func(n Node)
			walk = func(n Node) {
				if s, ok := n.(*CTEScan); ok {
					widths = append(widths, len(s.Out), len(s.CTE.Plan.Schema()))
				}
				for _, k := range n.Children() {
					walk(k)
				}
			}
			walk(opt)
			// a.id and b.x: the columns the two projections read.
			if len(widths) != 4 || widths[0] != 2 || widths[1] != 2 || widths[2] != 2 || widths[3] != 2 {
				t.Errorf("CTE scan and plan widths %v, want 2 each", widths)
			}
		})
	}
}

// TestSameTreeOutsideColumn: a subtree whose filter reads a column from
// outside it (as a lateral one would) is never equal to another, even
// one reading the same outer column.
func TestSameTreeOutsideColumn(t *testing.T) {
	tab := &countedTable{orderedTable: cteTable(), rows: 5}
	outer := &ColRef{Col: Column{ID: 99, Name: "o", Type: columnar.TInt64}}
	side := func(base ColID) Node {
		return shareSide(tab, base, 10, false, func(id, _ *ColRef) Expr {
			return &Call{Fn: "=", Args: []Expr{id, outer}, T: columnar.TBool}
		})
	}
	if sameTree(side(1), side(11), map[ColID]ColID{}) {
		t.Error("subtrees reading an outside column compare equal")
	}
	if !sameTree(shareSide(tab, 1, 10, false, nil), shareSide(tab, 11, 10, false, nil), map[ColID]ColID{}) {
		t.Error("equal subtrees compare unequal")
	}
}
