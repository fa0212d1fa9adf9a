package executor

import (
	"context"
	"errors"
	"github.com/b2sql/b2sql/executor/executortest"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// stepOp is a recursive step for tests: each row x of its input becomes
// (x + add) % mod, for x < below.
type stepOp struct {
	in              Operator
	add, mod, below int64
	out             *columnar.Batch
}

func (s *stepOp) Types() []columnar.Type         { return []columnar.Type{columnar.TInt64} }
func (s *stepOp) Children() []Operator           { return []Operator{s.in} }
func (s *stepOp) String() string                 { return "step" }
func (s *stepOp) Open(ctx context.Context) error { return s.in.Open(ctx) }
func (s *stepOp) Close() error                   { return s.in.Close() }

func (s *stepOp) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		b, err := s.in.Next(ctx)
		if err != nil {
			return nil, err
		}
		s.out = columnar.NewBatch(s.Types(), b.Len)
		k := 0
		b.ForEach(func(i int) {
			if x := b.Cols[0].Ints[i]; x < s.below {
				s.out.Cols[0].Ints[k] = (x + s.add) % s.mod
				k++
			}
		})

		if k > 0 {
			s.out.Len = k
			return s.out, nil
		}
	}
}

func recursiveOp(n int, distinct bool, add, mod, below int64) *RecursiveCTE {
	types := []columnar.Type{columnar.TInt64}
	var base [][]columnar.Value
	for x := range 1000 {
		base = append(base, []columnar.Value{i64(int64(x))})
	}
	work := &WorkTable{Types: types}
	return &RecursiveCTE{Base: &source{types: types, rows: base, n: n}, Step: &stepOp{in: &WorkScan{Work: work}, add: add, mod: mod, below: below},
		Work: work, Distinct: distinct}
}

// Under a limit of a few batches the rows and the work table of a
// recursive CTE go to spill files; the rows are those of the formula.
func TestRecursiveSpills(t *testing.T) {
	var all []string // UNION ALL: 0 … 59999, each once
	for x := range 60000 {
		all = append(all, strconv.Itoa(x))
	}
	slices.Sort(all)
	runSizes(t, func(t *testing.T, n int) {
		for _, distinct := range []bool{false, true} {
			tmp := t.TempDir()
			m := memory.NewManager(1<<20, tmp, 0)
			// UNION ALL: x+1000 while x < 59000; UNION: (x+700) % 60000
			// until no new row, which reaches every x below 60000.
			r := recursiveOp(n, false, 1000, 1<<62, 59000)
			if distinct {
				r = recursiveOp(n, true, 700, 60000, 1<<62)
			}
			r.SetMemory(m)
			spillCheck(t, r, m, tmp, all)
		}
	})
}

// UNION's key table spills past the limit, leaving the answer of the
// formula (every x below 60000); without a temp directory it is an error
// naming it. Cancelling mid-recursion leaves no file and no goroutine.
func TestRecursiveKeysAndCancel(t *testing.T) {
	var all []string
	for x := range 60000 {
		all = append(all, strconv.Itoa(x))
	}
	slices.Sort(all)
	runSizes(t, func(t *testing.T, n int) {
		tmp := t.TempDir()
		m := memory.NewManager(512<<10, tmp, 0)
		r := recursiveOp(n, true, 700, 60000, 1<<62)
		r.SetMemory(m)
		spillCheck(t, r, m, tmp, all)
		if r.keysRes.SpilledBytes() == 0 {
			t.Fatal("the key table did not spill")
		}
	})
	m := memory.NewManager(64<<10, "", 0)
	r := recursiveOp(1024, true, 700, 60000, 1<<62)
	r.SetMemory(m)
	var oom *memory.OutOfMemory
	if err := drainErr(r); !errors.As(err, &oom) || oom.Operator != "recursive CTE" && oom.Operator != "recursive CTE (UNION) keys" {
		t.Fatalf("got %v", err)
	}
	tmp := t.TempDir()
	m = memory.NewManager(64<<10, tmp, 0)
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	r = recursiveOp(1024, false, 1000, 1<<62, 1<<40)
	r.Step.(*stepOp).in = &cancelAfter{Operator: r.Step.(*stepOp).in, after: 100, cancel: cancel}
	r.SetMemory(m)
	if err := r.Open(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	r.Close()
	if _, spilled := r.MemoryUse(); spilled == 0 {
		t.Fatal("cancelled before any spill: the test checks nothing")
	}
	executortest.Released(t, tmp, m, before)
}

// Once UNION's keys are on disk, a round reads only the seen batches that
// could hold its candidates: here 50000 rows are seen before the keys
// spill, then 200 rounds each add one row (x -> x+1, until 50199 wraps
// to 0, seen). Reading every seen row each round, as a scan of the seen
// files did, is 200 rounds of about 25 batches (5000); looking up one
// candidate reads at most a batch per run of its partition. The rows are the
// formula's: 0 … 50199.
func TestRecursiveKeysReadWhatTheyNeed(t *testing.T) {
	const seen, rounds = 50000, 200
	var want []string
	for x := range seen + rounds {
		want = append(want, strconv.Itoa(x))
	}
	slices.Sort(want)
	types := []columnar.Type{columnar.TInt64}
	var base [][]columnar.Value
	for x := range seen {
		base = append(base, []columnar.Value{i64(int64(x))})
	}
	runSizes(t, func(t *testing.T, n int) {
		tmp := t.TempDir()
		m := memory.NewManager(256<<10, tmp, 0)
		work := &WorkTable{Types: types}
		r := &RecursiveCTE{Base: &source{types: types, rows: base, n: n}, Work: work, Distinct: true,
			Step: &stepOp{in: &WorkScan{Work: work}, add: 1, mod: seen + rounds, below: 1 << 62}}
		r.SetMemory(m)
		spillCheck(t, r, m, tmp, want)
		if r.keysRes.SpilledBytes() == 0 {
			t.Fatal("the key table did not spill")
		}
		// Round 1 looks up 50000 candidates (every batch); the others
		// one each, in a partition of a few runs (about 3.7 batches a
		// round in all, 750).
		if r.seenRead == 0 || r.seenRead > 6*rounds {
			t.Fatalf("read %d seen batches in %d rounds", r.seenRead, rounds)
		}
	})
}
