package planner

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/columnar/columnartest"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/index"
)

// orderedTable is an in-memory table of (id BIGINT, x BIGINT NULL) rows
// that can also scan in x order (as a FULL index would), recording the
// specs it was given.
type orderedTable struct {
	ids     []int64
	xs      []int64
	null    []bool
	ordered bool // implements CanScanOrdered
	specs   []index.ScanSpec
	how     []string // "scan" or "ordered", per spec
}

func (t *orderedTable) Schema() columnar.Schema {
	return columnar.Schema{{Name: "id", Type: columnar.TInt64}, {Name: "x", Type: columnar.TInt64, Nullable: true}}
}

func (t *orderedTable) Scan(_ context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	t.specs, t.how = append(t.specs, spec), append(t.how, "scan")
	rows := make([]int, len(t.ids))
	for i := range rows {
		rows[i] = i
	}
	return t.reader(spec, rows), nil
}

func (t *orderedTable) CanScanOrdered(col int) bool { return t.ordered && col == 1 }

// ScanOrdered sorts stably by x, NULLs last in both directions.
func (t *orderedTable) ScanOrdered(_ context.Context, spec index.ScanSpec, col int, desc bool) (columnar.Reader, error) {
	t.specs, t.how = append(t.specs, spec), append(t.how, "ordered")
	var rows []int
	for i := range t.ids {
		rows = append(rows, i)
	}
	slices.SortStableFunc(rows, func(a, b int) int {
		switch {
		case t.null[a] && t.null[b]:
			return 0
		case t.null[a]:
			return 1
		case t.null[b]:
			return -1
		}
		c := int(t.xs[a] - t.xs[b])
		if desc {
			c = -c
		}
		return c
	})
	if spec.Limit >= 0 && int64(len(rows)) > spec.Limit {
		rows = rows[:spec.Limit]
	}
	return t.reader(spec, rows), nil
}

// reader yields rows (table positions) of spec.Cols, one row per batch so
// that a consumer that stops early is visible.
func (t *orderedTable) reader(spec index.ScanSpec, rows []int) columnar.Reader {
	return &rowsReader{t: t, cols: spec.Cols, rows: rows}
}

type rowsReader struct {
	t    *orderedTable
	cols []int
	rows []int
	pos  int
}

func (r *rowsReader) Schema() columnar.Schema { return nil }
func (r *rowsReader) Close() error            { return nil }
func (r *rowsReader) Next(context.Context) (*columnar.Batch, error) {
	if r.pos >= len(r.rows) {
		return nil, io.EOF
	}
	row := r.rows[r.pos]
	r.pos++
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TInt64}[:len(r.cols)], 1)
	b.Len = 1
	for i, c := range r.cols {
		if c == 0 {
			b.Cols[i].Ints[0] = r.t.ids[row]
		} else if r.t.null[row] {
			b.Cols[i].SetNull(0, 1)
		} else {
			b.Cols[i].Ints[0] = r.t.xs[row]
		}
	}
	return b, nil
}

// topkPlan is SELECT id, x FROM t [WHERE x > 0 AND cheap(x)] ORDER BY x
// [DESC] LIMIT count OFFSET offset, already optimized: a TopK over a
// Project over (a Filter over) a Scan.
func topkPlan(t *orderedTable, desc, filter bool, count, offset int64) *TopK {
	id := Column{ID: 1, Name: "id", Type: columnar.TInt64}
	x := Column{ID: 2, Name: "x", Type: columnar.TInt64}
	var in Node = &Scan{Table: t, Name: "t", TableCols: []int{0, 1}, Cols: []Column{id, x}, Limit: -1}
	if filter {
		// x % 2 = 0: not a scan predicate, so it stays a Filter.
		cond := &Call{Fn: "=", T: columnar.TBool, Args: []Expr{
			&Call{Fn: "%", T: columnar.TInt64, Args: []Expr{&ColRef{Col: x}, &Const{Val: columnar.IntValue(columnar.TInt64, 2)}}},
			&Const{Val: columnar.IntValue(columnar.TInt64, 0)}}}
		in = &Filter{Input: in, Cond: cond}
	}
	px := Column{ID: 3, Name: "x", Type: columnar.TInt64}
	pid := Column{ID: 4, Name: "id", Type: columnar.TInt64}
	proj := &Project{Input: in, Exprs: []Expr{&ColRef{Col: id}, &ColRef{Col: x}}, Out: []Column{pid, px}}
	return &TopK{Input: proj, Keys: []SortKey{{Expr: &ColRef{Col: px}, Desc: desc}}, Count: count, Offset: offset}
}

// runPlan builds and runs n, returning "id:x" per row (x "NULL" if NULL).
func runPlan(t *testing.T, n Node, opts BuildOptions) ([]string, *Built) {
	t.Helper()
	b, err := Build(n, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.Root.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer b.Root.Close()
	var out []string
	for _, row := range columnartest.MustReadAll(t, b.Root) {
		out = append(out, row[0].String()+":"+row[1].String())
	}
	return out, b
}

// tiesTable: x = i % 4 for ids 0..11, NULL for ids 3 and 7 (ties everywhere).
func tiesTable(ordered bool) *orderedTable {
	t := &orderedTable{ordered: ordered}
	for i := range 12 {
		t.ids = append(t.ids, int64(i))
		t.xs = append(t.xs, int64(i%4))
		t.null = append(t.null, i == 3 || i == 7)
	}
	return t
}

func TestSortedLimitMatchesTopK(t *testing.T) {
	cases := []struct {
		desc, filter  bool
		count, offset int64
		want          []string // by hand from x = i%4, ids 3 and 7 NULL
	}{
		// ASC: x=0 (ids 0 4 8), x=1 (1 5 9): ties in id order.
		{false, false, 4, 0, []string{"0:0", "4:0", "8:0", "1:1"}},
		// DESC: x=3 only id 11 (3, 7 are NULL), then x=2 (2 6 10).
		{true, false, 3, 1, []string{"2:2", "6:2", "10:2"}},
		// NULLs come last in both directions: DESC is 11, 2 6 10, 1 5 9,
		// 0 4 8, then 3 and 7.
		{true, false, 12, 9, []string{"8:0", "3:NULL", "7:NULL"}},
		{false, false, 3, 9, []string{"11:3", "3:NULL", "7:NULL"}},
		// x % 2 = 0 stays a Filter: x in {0, 2}.
		{true, true, 4, 0, []string{"2:2", "6:2", "10:2", "0:0"}},
	}
	for _, tc := range cases {
		// The plain plan: a TopK over the scan, every rule off.
		plain := tiesTable(true)
		want, _ := runPlan(t, topkPlan(plain, tc.desc, tc.filter, tc.count, tc.offset), BuildOptions{Threads: 1, NoPrune: true})
		if !slices.Equal(want, tc.want) {
			t.Fatalf("%+v: TopK gave %v, want %v", tc, want, tc.want)
		}
		tb := tiesTable(true)
		got, built := runPlan(t, topkPlan(tb, tc.desc, tc.filter, tc.count, tc.offset), BuildOptions{Threads: 1})
		if !slices.Equal(got, want) {
			t.Fatalf("%+v: sorted limit gave %v, TopK %v", tc, got, want)
		}
		if len(tb.how) != 1 || tb.how[0] != "ordered" {
			t.Fatalf("%+v: scans %v, want one ordered scan", tc, tb.how)
		}
		wantLimit := tc.count + tc.offset
		if tc.filter {
			wantLimit = -1 // the Filter above decides which rows count
		}
		if tb.specs[0].Limit != wantLimit {
			t.Fatalf("%+v: ordered scan limit %d, want %d", tc, tb.specs[0].Limit, wantLimit)
		}
		ex := built.Explain(false)
		if !strings.HasPrefix(ex, "Limit") || !strings.Contains(ex, "(sorted_limit)") || strings.Contains(ex, "TopK") {
			t.Fatalf("%+v: plan\n%s", tc, ex)
		}
	}
}

func TestSortedLimitSwitchedOff(t *testing.T) {
	for _, opts := range []BuildOptions{
		{Threads: 1, ScanRulesOff: index.RuleSet(0).With(index.SortedLimit)},
		{Threads: 1, NoPrune: true},
	} {
		tb := tiesTable(true)
		got, built := runPlan(t, topkPlan(tb, true, false, 2, 0), opts)
		if !slices.Equal(got, []string{"11:3", "2:2"}) || tb.how[0] != "scan" {
			t.Fatalf("%+v: %v via %v", opts, got, tb.how)
		}
		if !strings.HasPrefix(built.Explain(false), "TopK") {
			t.Fatalf("%+v: plan\n%s", opts, built.Explain(false))
		}
	}
	// A table that cannot scan ordered keeps the TopK.
	tb := tiesTable(false)
	if _, built := runPlan(t, topkPlan(tb, true, false, 2, 0), BuildOptions{Threads: 1}); !strings.HasPrefix(built.Explain(false), "TopK") {
		t.Fatalf("plan\n%s", built.Explain(false))
	}
}

func TestTopKBoundWiring(t *testing.T) {
	tb := tiesTable(false)
	got, built := runPlan(t, topkPlan(tb, true, false, 2, 1), BuildOptions{Threads: 1})
	if !slices.Equal(got, []string{"2:2", "6:2"}) {
		t.Fatalf("got %v", got)
	}
	b := tb.specs[0].TopK
	if b == nil || b.Col != 1 || !b.Desc {
		t.Fatalf("scan spec TopK %+v", b)
	}
	// The k-th (3rd) best x DESC is 2: the TopK published it.
	if v, ok := b.Bound(); !ok || v.I != 2 {
		t.Fatalf("published bound %v %v, want 2", v, ok)
	}
	op := built.Tree().(*executor.TopK)
	if op.Bound != b {
		t.Fatal("the TopK does not publish into the scan's bound")
	}
	// Every scanned row reaches the TopK (a Project between): the scan may
	// seed the bound from statistics for the 2+1 rows kept. Through a
	// Filter it may not.
	if b.K != 3 {
		t.Fatalf("bound K = %d, want 3", b.K)
	}
	filtered := tiesTable(false)
	runPlan(t, topkPlan(filtered, true, true, 2, 1), BuildOptions{Threads: 1})
	if fb := filtered.specs[0].TopK; fb == nil || fb.K != 0 {
		t.Fatalf("bound through a Filter: %+v, want one with K 0", fb)
	}
	// A Filter that only drops rows whose key is NULL keeps K: NULL keys
	// sort last and never reach the k best (ORDER BY price DESC … WHERE
	// price IS NOT NULL). One that drops NULLs of another column does not.
	for _, c := range []struct {
		col  string
		want int64
	}{{"x", 3}, {"id", 0}} {
		nn := tiesTable(false)
		p := topkPlan(nn, true, false, 2, 1)
		proj := p.Input.(*Project)
		scan := proj.Input.(*Scan)
		ref := scan.Cols[1]
		if c.col == "id" {
			ref = scan.Cols[0]
		}
		proj.Input = &Filter{Input: scan, Cond: &Call{Fn: "is_not_null", T: columnar.TBool, Args: []Expr{&ColRef{Col: ref}}}}
		runPlan(t, p, BuildOptions{Threads: 1})
		if fb := nn.specs[0].TopK; fb == nil || fb.K != c.want {
			t.Errorf("bound through %s IS NOT NULL: %+v, want K %d", c.col, fb, c.want)
		}
	}
	if ex := built.Explain(false); !strings.Contains(ex, "topk=x DESC (topk_pruning)") {
		t.Fatalf("plan\n%s", ex)
	}
	// Switched off, NULLS FIRST, or an expression key: no bound.
	off := tiesTable(false)
	runPlan(t, topkPlan(off, true, false, 2, 0), BuildOptions{Threads: 1, ScanRulesOff: index.RuleSet(0).With(index.TopKPruning)})
	if off.specs[0].TopK != nil {
		t.Fatal("bound with topk_pruning off")
	}
	nf := tiesTable(false)
	p := topkPlan(nf, true, false, 2, 0)
	p.Keys[0].NullsFirst = true
	runPlan(t, p, BuildOptions{Threads: 1})
	if nf.specs[0].TopK != nil {
		t.Fatal("bound for a NULLS FIRST key")
	}
	ex := tiesTable(false)
	p = topkPlan(ex, true, false, 2, 0)
	p.Keys[0].Expr = &Call{Fn: "-", T: columnar.TInt64, Args: []Expr{p.Keys[0].Expr}}
	if _, _, ok := topKColumn(p); ok {
		t.Fatal("an expression key was taken for a column")
	}
}

func TestScanCountersText(t *testing.T) {
	s := &index.ScanStats{UnitName: "blocks", UnitsTotal: 40, UnitsSkipped: 39, UnitsAllTrue: 1, RowsRead: 256,
		BytesRead: 2048, BytesDecompressed: 4096, PagesTotal: 10, PagesSkipped: 7}
	s.SkippedBy[index.BlockPruning] = 30
	s.SkippedBy[index.TopKPruning] = 9
	s.SkippedBy[index.LateMaterialization] = 3
	want := "[blocks: 40 total, 39 skipped (block_pruning 30, topk_pruning 9), 1 all-match, late_materialization 3 with other columns left compressed; pages: 7 of 10 skipped; read 256 rows, 2.0 KiB on disk, 4.0 KiB decompressed]"
	if got := scanCounters(s, nil); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// An outer TopK over an inner one (ORDER BY … LIMIT in a subquery) orders
// by another key: only the inner TopK may publish into the scan's bound.
func TestNestedTopKBound(t *testing.T) {
	tb := tiesTable(false)
	inner := topkPlan(tb, true, false, 5, 0)
	id := inner.Input.Schema()[0]
	outer := &TopK{Input: inner, Keys: []SortKey{{Expr: &ColRef{Col: id}}}, Count: 2}
	got, built := runPlan(t, outer, BuildOptions{Threads: 1})
	// Inner: 11:3, then 2 6 10 (x=2), then 1 (x=1); outer: ids 1 and 2.
	if !slices.Equal(got, []string{"1:1", "2:2"}) {
		t.Fatalf("got %v", got)
	}
	out := built.Tree().(*executor.TopK)
	in := out.Input.(*executor.TopK)
	if out.Bound != nil || in.Bound == nil || in.Bound != tb.specs[0].TopK {
		t.Fatalf("outer bound %p, inner %p, scan %p", out.Bound, in.Bound, tb.specs[0].TopK)
	}
}
