package executor

import (
	"context"
	"errors"
	"fmt"
	"github.com/b2sql/b2sql/executor/executortest"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// countingSource is a source that counts its Opens.
type countingSource struct {
	source
	opens atomic.Int64
}

func (s *countingSource) Open(ctx context.Context) error { s.opens.Add(1); return s.source.Open(ctx) }

// cteRows returns n rows (i, "s<i>" or NULL every 5th, i/2 or NULL every
// 3rd) and their rendering as drain prints them.
func cteRows(n int) ([][]columnar.Value, []string) {
	var rows [][]columnar.Value
	var want []string
	for i := range n {
		s, f := str(fmt.Sprintf("s%d", i)), f64(float64(i)/2)
		if i%5 == 4 {
			s = null(columnar.TVarchar)
		}
		if i%3 == 0 {
			f = null(columnar.TFloat64)
		}
		row := []columnar.Value{i64(int64(i)), s, f}
		rows = append(rows, row)
		want = append(want, row[0].String()+"|"+row[1].String()+"|"+row[2].String())
	}
	return rows, want
}

var cteTypes = []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TFloat64}

// TestCTEScanReplays: two readers, each opened twice, see every row in
// order (more rows than one replay batch, NULLs in two columns) while the
// input runs once.
func TestCTEScanReplays(t *testing.T) {
	rows, want := cteRows(2100)
	runSizes(t, func(t *testing.T, n int) {
		src := &countingSource{source: source{types: cteTypes, rows: rows, n: n}}
		c := &CTE{Input: src, Name: "x", Uses: 2}
		for _, s := range []*CTEScan{{CTE: c}, {CTE: c}} {
			for range 2 {
				if got := drain(t, s); !equalStrings(got, want) {
					t.Fatalf("got %d rows, want %d (first %v)", len(got), len(want), got[:min(3, len(got))])
				}
			}
		}
		if o := src.opens.Load(); o != 1 {
			t.Errorf("input opened %d times, want once", o)
		}
	})
}

func TestCTEScanEmpty(t *testing.T) {
	c := &CTE{Input: &source{types: cteTypes, n: 7}, Name: "e"}
	if got := drain(t, &CTEScan{CTE: c}); len(got) != 0 {
		t.Fatalf("got %v, want no rows", got)
	}
}

// TestCTEConcurrentReaders: readers opened at once from several goroutines
// (parallel pipelines) wait for the one computation and all see it.
func TestCTEConcurrentReaders(t *testing.T) {
	rows, want := cteRows(3000)
	src := &countingSource{source: source{types: cteTypes, rows: rows, n: 7}}
	c := &CTE{Input: src, Name: "x", Uses: 8}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &CTEScan{CTE: c}
			ctx := context.Background()
			if err := s.Open(ctx); err != nil {
				errs[g] = err
				return
			}
			k := 0
			for {
				b, err := s.Next(ctx)
				if err == io.EOF {
					break
				}
				if err != nil {
					errs[g] = err
					return
				}
				for r := range b.Live() {
					i := b.Row(r)
					got := b.Cols[0].Value(i).String() + "|" + b.Cols[1].Value(i).String() + "|" + b.Cols[2].Value(i).String()
					if k >= len(want) || got != want[k] {
						errs[g] = fmt.Errorf("row %d: %q", k, got)
						return
					}
					k++
				}
			}
			if k != len(want) {
				errs[g] = fmt.Errorf("%d rows, want %d", k, len(want))
			}
		}()
	}
	wg.Wait()
	for g, err := range errs {
		if err != nil {
			t.Errorf("reader %d: %v", g, err)
		}
	}
	if o := src.opens.Load(); o != 1 {
		t.Errorf("input opened %d times, want once", o)
	}
}

// endless yields one-row batches until its context is cancelled.
type endless struct{ source }

func (e *endless) Next(ctx context.Context) (*columnar.Batch, error) {
	b := columnar.NewBatch(e.types, 1)
	b.Len = 1
	return b, nil
}

// TestCTECancel: cancelling the query stops the computation; every reader
// then reports the cancellation.
func TestCTECancel(t *testing.T) {
	c := &CTE{Input: &endless{source{types: []columnar.Type{columnar.TInt64}}}, Name: "forever"}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := (&CTEScan{CTE: c}).Open(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("first reader: %v, want the deadline", err)
	}
	if err := (&CTEScan{CTE: c}).Open(context.Background()); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second reader: %v, want the deadline", err)
	}
}

// TestCTESpills: under a limit of a few batches the rows go to a spill
// file, in order; two readers, each opened twice, see every row; Release
// removes the file and frees the reservation.
func TestCTESpills(t *testing.T) {
	rows, want := cteRows(5000)
	runSizes(t, func(t *testing.T, n int) {
		tmp := t.TempDir()
		m := memory.NewManager(int64(max(n, 16))*3/2*64, tmp, 0)
		src := &countingSource{source: source{types: cteTypes, rows: rows, n: n}}
		c := &CTE{Input: src, Name: "big", Uses: 2}
		c.SetMemory(m)
		for _, s := range []*CTEScan{{CTE: c}, {CTE: c}} {
			for range 2 {
				if got := drain(t, s); !equalStrings(got, want) {
					t.Fatalf("got %d rows, want %d (first %v)", len(got), len(want), got[:min(3, len(got))])
				}
			}
		}
		if o := src.opens.Load(); o != 1 {
			t.Errorf("input opened %d times, want once", o)
		}
		if _, spilled := c.MemoryUse(); spilled == 0 {
			t.Fatal("the CTE did not spill")
		}
		c.Release()
		if e, _ := os.ReadDir(tmp); len(e) != 0 {
			t.Fatalf("spill files left: %v", e)
		}
		if m.Used() != 0 {
			t.Fatalf("%d bytes still reserved after Release", m.Used())
		}
	})
}

// TestCTEOutOfMemory: without a temp directory, rows over the limit fail
// the query with an error naming the materialization; Release frees it.
func TestCTEOutOfMemory(t *testing.T) {
	rows, _ := cteRows(5000)
	m := memory.NewManager(20_000, "", 0)
	c := &CTE{Input: &source{types: cteTypes, rows: rows, n: 7}, Name: "big"}
	c.SetMemory(m)
	var oom *memory.OutOfMemory
	if err := (&CTEScan{CTE: c}).Open(context.Background()); !errors.As(err, &oom) || oom.Operator != "CTE materialization" {
		t.Fatalf("got %v, want out of memory in the CTE", err)
	}
	c.Release()
	if m.Used() != 0 {
		t.Fatalf("%d bytes still reserved after Release", m.Used())
	}
}

// TestCTECancelMidSpill: cancelling while the CTE writes its file stops it
// with the context's error, no file and no goroutine left.
func TestCTECancelMidSpill(t *testing.T) {
	before := runtime.NumGoroutine()
	tmp := t.TempDir()
	rows, _ := cteRows(20000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &CTE{Input: &cancelAfter{Operator: &source{types: cteTypes, rows: rows, n: 64}, after: 200, cancel: cancel}, Name: "big"}
	m := memory.NewManager(10_000, tmp, 0)
	c.SetMemory(m)
	if err := (&CTEScan{CTE: c}).Open(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if _, spilled := c.MemoryUse(); spilled != 0 {
		t.Fatalf("a file of %d bytes was finished", spilled)
	}
	c.Release()
	executortest.Released(t, tmp, nil, before)
}
