package executor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/b2sql/b2sql/executor/executortest"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

type sortRow struct {
	id    int64
	title string
	null  bool
}

// sortRows makes n rows with many ties on title (and NULL titles), so that
// stability and NULL placement show.
func sortRows(n int) ([]sortRow, *source) {
	rows := make([]sortRow, n)
	src := &source{types: []columnar.Type{columnar.TInt64, columnar.TVarchar}}
	for i := range rows {
		r := sortRow{id: int64((i * 7919) % n), title: fmt.Sprintf("t%03d%s", (i*31)%97, strings.Repeat("z", i%5)), null: i%13 == 0}
		rows[i] = r
		t := str(r.title)
		if r.null {
			t = null(columnar.TVarchar)
		}
		src.rows = append(src.rows, []columnar.Value{i64(r.id), t})
	}
	return rows, src
}

// wantSorted orders the rows by title (NULLS LAST, DESC when desc), then
// id DESC, ties in input order, with Go's stable sort.
func wantSorted(rows []sortRow, desc bool) []string {
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b sortRow) int {
		if a.null != b.null {
			if a.null {
				return 1
			}
			return -1
		}
		if !a.null {
			c := strings.Compare(a.title, b.title)
			if desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return -cmp.Compare(a.id, b.id)
	})
	out := make([]string, len(rows))
	for i, r := range rows {
		t := r.title
		if r.null {
			t = "NULL"
		}
		out[i] = fmt.Sprintf("%d|%s", r.id, t)
	}
	return out
}

func sortKeys(desc bool) []SortKey {
	return []SortKey{{Expr: ColumnExpr(1, columnar.TVarchar), Desc: desc}, {Expr: ColumnExpr(0, columnar.TInt64), Desc: true}}
}

// A limit far below the input makes the sort spill many runs and merge
// them in several rounds; the answer is Go's stable sort of the rows.
func TestSortSpills(t *testing.T) {
	old := mergeFanIn
	mergeFanIn = 3
	defer func() { mergeFanIn = old }()
	rows, _ := sortRows(10000)
	for _, desc := range []bool{false, true} {
		want := wantSorted(rows, desc)
		runSizes(t, func(t *testing.T, n int) {
			tmp := t.TempDir()
			// Room for one and a half batches of the size at hand: every size spills.
			m := memory.NewManager(int64(max(n, 16))*3/2*150, tmp, 0)
			_, src := sortRows(10000)
			src.n = n
			s := &Sort{Input: src, Keys: sortKeys(desc)}
			s.SetMemory(m)
			got := drain(t, s)
			if !equalStrings(got, want) {
				t.Fatalf("desc=%v: rows differ; first got %v, want %v", desc, got[:5], want[:5])
			}
			if s.res.SpilledBytes() == 0 {
				t.Fatal("the sort did not spill")
			}
			executortest.Released(t, tmp, m, -1)
		})
	}
}

// A top-k whose k rows do not fit under the limit cuts its buffer back and
// writes it out as runs, merged for the first k rows: the answer is the
// stable sort's rows Offset..Offset+Count.
func TestTopKSpills(t *testing.T) {
	old := mergeFanIn
	mergeFanIn = 3
	defer func() { mergeFanIn = old }()
	rows, _ := sortRows(10000)
	for _, desc := range []bool{false, true} {
		want := wantSorted(rows, desc)[100:3100]
		runSizes(t, func(t *testing.T, n int) {
			tmp := t.TempDir()
			// Under what the k rows take (about 50 bytes each, entries
			// included), over what a batch of the largest size takes.
			m := memory.NewManager(min(max(int64(max(n, 16))*3/2*150, 60_000), 100_000), tmp, 0)
			_, src := sortRows(10000)
			src.n = n
			k := &TopK{Input: src, Keys: sortKeys(desc), Count: 3000, Offset: 100}
			k.SetMemory(m)
			got := drain(t, k)
			if !equalStrings(got, want) {
				t.Fatalf("desc=%v: got %d rows, want %d; first got %v, want %v", desc, len(got), len(want), got[:min(5, len(got))], want[:5])
			}
			if k.res.SpilledBytes() == 0 {
				t.Fatal("the top-k did not spill")
			}
			executortest.Released(t, tmp, m, -1)
		})
	}
}

// Without a temp directory a sort over the limit fails, naming itself and
// the figures.
func TestSortOutOfMemory(t *testing.T) {
	_, src := sortRows(3000)
	src.n = 100
	s := &Sort{Input: src, Keys: sortKeys(false)}
	m := memory.NewManager(50_000, "", 0)
	s.SetMemory(m)
	err := s.Open(context.Background())
	s.Close()
	var oom *memory.OutOfMemory
	if !errors.As(err, &oom) || oom.Operator != "sort" || !strings.Contains(err.Error(), "memory_limit is 48.8 KiB; set memory_limit or temp_directory") {
		t.Fatalf("got %v", err)
	}
	if m.Used() != 0 {
		t.Fatalf("%d bytes reserved after Close", m.Used())
	}
}

// cancelAfter cancels its context once it has emitted after batches.
type cancelAfter struct {
	Operator
	after  int
	cancel func()
}

func (c *cancelAfter) Next(ctx context.Context) (*columnar.Batch, error) {
	if c.after--; c.after == 0 {
		c.cancel()
	}
	return c.Operator.Next(ctx)
}

// Cancelling while the sort spills stops it with the context's error and
// leaves no file and no goroutine.
func TestSortCancelMidSpill(t *testing.T) {
	before := runtime.NumGoroutine()
	tmp := t.TempDir()
	_, src := sortRows(20000)
	src.n = 64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &Sort{Input: &cancelAfter{Operator: src, after: 200, cancel: cancel}, Keys: sortKeys(false)}
	m := memory.NewManager(30_000, tmp, 0)
	s.SetMemory(m)
	err := s.Open(ctx)
	if err == nil {
		_, err = s.Next(ctx)
	}
	s.Close()
	executortest.Cancelled(t, err)
	if s.res.SpilledBytes() == 0 {
		t.Fatal("cancelled before any spill: the test checks nothing")
	}
	executortest.Released(t, tmp, nil, before)
}

// sortPerm orders like the stable sort on compareRows, across the merge
// of several runs, and stops when cancelled.
func TestSortPermRuns(t *testing.T) {
	// Short strings (the prefix decides them), strings past the 16-byte
	// prefix that share it in stretches, and strings with a NULL (no prefix).
	for _, shape := range []string{"short", "long", "nulls"} {
		t.Run(shape, func(t *testing.T) { testSortPermRuns(t, shape) })
	}
}

func testSortPermRuns(t *testing.T, shape string) {
	n := 3*sortRun + 123
	v := columnar.NewVector(columnar.TVarchar, n)
	w := columnar.NewVector(columnar.TInt64, n)
	for i := range n {
		v.Bytes[i] = []byte(fmt.Sprintf("k%05d", (i*7)%1000))[:1+i%6]
		if shape != "short" {
			v.Bytes[i] = []byte(fmt.Sprintf("a shared prefix %d k%05d", i%3, (i*7)%1000))[:17+i%8]
		}
		w.Ints[i] = int64(i % 3)
	}
	if shape == "nulls" {
		v.SetNull(5, n)
	}
	st := newChunkedStore([]columnar.Type{columnar.TVarchar, columnar.TInt64}, 0)
	st.appendRows(&columnar.Batch{Len: n}, []*columnar.Vector{v, w})
	keys := []int{0, 1}
	for _, spec := range [][]SortKey{{{}, {Desc: true}}, {{Desc: true}, {}}} {
		got, err := sortPerm(context.Background(), st, keys, spec)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int {
			if an, bn := v.IsNull(int(a)), v.IsNull(int(b)); an || bn {
				return cmp.Compare(b2i(an), b2i(bn)) // NULLS LAST either way
			}
			c := strings.Compare(string(v.Bytes[a]), string(v.Bytes[b]))
			if spec[0].Desc {
				c = -c
			}
			if c != 0 {
				return c
			}
			d := cmp.Compare(w.Ints[a], w.Ints[b])
			if spec[1].Desc {
				d = -d
			}
			return d
		})
		if !slices.Equal(got, want) {
			t.Fatalf("spec %v: permutations differ", spec)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sortPerm(ctx, st, keys, []SortKey{{}, {}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

var _ = io.EOF
