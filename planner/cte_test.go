package planner

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// cteRef is a reference to c bound over its own scan of t (columns id, x
// under IDs base and base+1), as the binder binds each reference anew.
func cteRef(c *CTE, t *orderedTable, base ColID) *CTERef {
	cols := []Column{{ID: base, Name: "id", Type: columnar.TInt64}, {ID: base + 1, Name: "x", Type: columnar.TInt64}}
	return &CTERef{CTE: c, Input: &Scan{Table: t, Name: "t", TableCols: []int{0, 1}, Cols: cols, Limit: -1}}
}

func unionAll(l, r Node, base ColID) *SetOp {
	return &SetOp{Left: l, Right: r, Kind: SetUnion, All: true, Out: []Column{
		{ID: base, Name: "id", Type: columnar.TInt64}, {ID: base + 1, Name: "x", Type: columnar.TInt64}}}
}

// cteRun is what runIDs saw.
type cteRun struct {
	sum, rows, nulls int64 // sum of column 0, rows, NULLs in column 1
	explain          string
}

// runIDs optimizes, builds and runs n.
func runIDs(t *testing.T, n Node) cteRun {
	t.Helper()
	n, _ = Optimize(n, Options{})
	built, err := Build(n, BuildOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	var r cteRun
	ctx := context.Background()
	if err := built.Root.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer built.Root.Close()
	for {
		b, err := built.Root.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for k := range b.Live() {
			r.sum += b.Cols[0].Ints[b.Row(k)]
			if b.Cols[1].IsNull(b.Row(k)) {
				r.nulls++
			}
			r.rows++
		}
	}
	r.explain = built.Explain(false)
	return r
}

func cteTable() *orderedTable {
	return &orderedTable{ids: []int64{1, 2, 3, 4, 5}, xs: []int64{10, 20, 0, 40, 50}, null: []bool{false, false, true, false, false}}
}

func TestCTEMaterializedOnceForTwoUses(t *testing.T) {
	tab := cteTable()
	c := &CTE{Name: "r"}
	r := runIDs(t, unionAll(cteRef(c, tab, 1), cteRef(c, tab, 3), 5))
	// Two copies of ids 1..5: 2 * 15.
	if r.sum != 30 || r.rows != 10 {
		t.Fatalf("sum %d rows %d, want 30 and 10", r.sum, r.rows)
	}
	if len(tab.specs) != 1 {
		t.Errorf("table scanned %d times, want once", len(tab.specs))
	}
	if got := strings.Count(r.explain, "CTE r (materialized, 2 uses)"); got != 1 {
		t.Errorf("EXPLAIN shows the CTE %d times, want once:\n%s", got, r.explain)
	}
	if got := strings.Count(r.explain, "CTE scan r"); got != 2 {
		t.Errorf("EXPLAIN shows %d CTE scans, want 2:\n%s", got, r.explain)
	}
}

func TestCTEModes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mode  CTEMode
		uses  int
		scans int // times the table is read
		mat   bool
	}{
		{"auto once: inlined", CTEAuto, 1, 1, false},
		{"auto twice: materialized", CTEAuto, 2, 1, true},
		{"auto three times: materialized", CTEAuto, 3, 1, true},
		{"not materialized twice: inlined", CTENotMaterialized, 2, 2, false},
		{"materialized once", CTEMaterialized, 1, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := cteTable()
			c := &CTE{Name: "r", Mode: tc.mode}
			var n Node = cteRef(c, tab, 1)
			for k := 1; k < tc.uses; k++ {
				n = unionAll(n, cteRef(c, tab, ColID(10*k)), ColID(10*k+5))
			}
			r := runIDs(t, n)
			if r.sum != int64(15*tc.uses) || r.rows != int64(5*tc.uses) {
				t.Fatalf("sum %d rows %d, want %d and %d", r.sum, r.rows, 15*tc.uses, 5*tc.uses)
			}
			if len(tab.specs) != tc.scans {
				t.Errorf("table scanned %d times, want %d", len(tab.specs), tc.scans)
			}
			if got := strings.Contains(r.explain, "CTE r (materialized"); got != tc.mat {
				t.Errorf("materialized = %v, want %v:\n%s", got, tc.mat, r.explain)
			}
		})
	}
}

// TestCTENestedCountedOnce: WITH a AS (…), b AS (SELECT … FROM a) and b
// used twice. b is bound twice, each binding with its own reference to a;
// once b is materialized a has one use left and is inlined.
func TestCTENestedCountedOnce(t *testing.T) {
	tab := cteTable()
	a, b := &CTE{Name: "a"}, &CTE{Name: "b"}
	bRef := func(base ColID) Node { return &CTERef{CTE: b, Input: cteRef(a, tab, base)} }
	r := runIDs(t, unionAll(bRef(1), bRef(3), 5))
	if r.sum != 30 || r.rows != 10 {
		t.Fatalf("sum %d rows %d, want 30 and 10", r.sum, r.rows)
	}
	if len(tab.specs) != 1 {
		t.Errorf("table scanned %d times, want once", len(tab.specs))
	}
	if !strings.Contains(r.explain, "CTE b (materialized, 2 uses)") || strings.Contains(r.explain, "CTE a") || strings.Contains(r.explain, "CTE scan a") {
		t.Errorf("want only b materialized:\n%s", r.explain)
	}
}

// TestCTEStoreReplaysAcrossBatches: more rows than one batch (and NULLs),
// read by two references: every row comes back, in order, to both.
func TestCTEStoreReplaysAcrossBatches(t *testing.T) {
	const n = 2500 // three batches of the store, the last one partial
	tab := &orderedTable{}
	for i := range n {
		tab.ids = append(tab.ids, int64(i))
		tab.xs = append(tab.xs, int64(i))
		tab.null = append(tab.null, i%7 == 3)
	}
	c := &CTE{Name: "big"}
	r := runIDs(t, unionAll(cteRef(c, tab, 1), cteRef(c, tab, 3), 5))
	// Rows i%7 == 3 below 2500: 357 of them, read twice.
	if r.nulls != 2*357 {
		t.Errorf("%d NULLs, want %d", r.nulls, 2*357)
	}
	if want := int64(2 * n * (n - 1) / 2); r.sum != want || r.rows != 2*n {
		t.Fatalf("sum %d rows %d, want %d and %d", r.sum, r.rows, want, 2*n)
	}
	if len(tab.specs) != 1 {
		t.Errorf("table scanned %d times, want once", len(tab.specs))
	}
}
