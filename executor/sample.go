package executor

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// SampleMethod is how Sample picks rows (planner.SampleMethod's values).
type SampleMethod uint8

const (
	SampleReservoir SampleMethod = iota
	SampleSystem
	SampleBernoulli
)

// Sample is USING SAMPLE / TABLESAMPLE, DuckDB's three methods:
//   - bernoulli keeps each row with probability Size/100;
//   - system keeps each input batch whole with probability Size/100 (DuckDB
//     keeps vectors of 2,048 rows; a batch is b2sql's vector);
//   - reservoir keeps exactly min(Size, total) rows (Percent: round(total ×
//     Size / 100)), each set of that many rows equally likely, sent in
//     input order once the input is read; it holds what it keeps under
//     the query's memory manager.
//
// Seeded, the choices come from a generator started from Seed, so the same
// input in the same order gives the same rows (the planner reads a seeded
// sample's input on one thread).
type Sample struct {
	Input   Operator
	Method  SampleMethod
	Percent bool
	Size    float64
	Seed    int64
	Seeded  bool

	mem   *memory.Manager
	res   *memory.Reservation
	rng   *rand.Rand
	out   columnar.Batch
	sel   []int
	store *chunkedStore      // reservoir of a percentage: every row, then perm
	perm  []int32            // reservoir of a percentage: the kept rows, in order
	kept  [][]columnar.Value // reservoir of rows: the rows kept so far
	pos   int
	batch *columnar.Batch // reservoir output
}

func (s *Sample) Types() []columnar.Type { return s.Input.Types() }
func (s *Sample) Children() []Operator   { return []Operator{s.Input} }
func (s *Sample) String() string {
	method := [...]string{"reservoir", "system", "bernoulli"}[s.Method]
	size := fmt.Sprintf("%g rows", s.Size)
	if s.Percent {
		size = fmt.Sprintf("%g%%", s.Size)
	}
	return "Sample " + method + " " + size
}

// SetMemory makes the operator account the rows it holds to m.
func (s *Sample) SetMemory(m *memory.Manager) { s.mem = m }

func (s *Sample) Open(ctx context.Context) error {
	if err := s.Input.Open(ctx); err != nil {
		return err
	}
	seed := uint64(s.Seed)
	if !s.Seeded {
		seed = rand.Uint64()
	}
	s.rng = rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	s.store, s.perm, s.kept, s.pos = nil, nil, nil, 0
	if s.Method != SampleReservoir {
		return nil
	}
	s.res = s.mem.Reserve("sample", false)
	s.batch = columnar.NewBatch(s.Input.Types(), columnar.MaxBatch)
	if s.Percent {
		return s.fillPercent(ctx)
	}
	return s.fillRows(ctx)
}

// fillPercent reads every row, then picks round(total × Size / 100).
func (s *Sample) fillPercent(ctx context.Context) error {
	s.store = newChunkedStore(s.Input.Types(), 0)
	for {
		b, err := s.Input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := s.res.Grow(chunkBytes(b, b.Cols)); err != nil {
			return err
		}
		s.store.appendRows(b, b.Cols)
	}
	n := s.store.n
	k := int(math.Round(float64(n) * s.Size / 100))
	s.perm = s.choose(n, min(k, n))
	return nil
}

// fillRows keeps a uniform sample of Size rows as they come (Vitter's
// algorithm R).
func (s *Sample) fillRows(ctx context.Context) error {
	want := int64(s.Size)
	seen := int64(0)
	for {
		b, err := s.Input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		for k := 0; k < b.Live(); k++ {
			slot := seen
			if seen >= want {
				slot = s.rng.Int64N(seen + 1)
			}
			seen++
			if slot >= want {
				continue
			}
			row := make([]columnar.Value, len(b.Cols))
			size := int64(0)
			for c, v := range b.Cols {
				row[c] = valueAt(v, b.Row(k))
				size += 16 + int64(len(row[c].S))
			}
			if slot == int64(len(s.kept)) {
				if err := s.res.Grow(size); err != nil {
					return err
				}
				s.kept = append(s.kept, row)
			} else {
				s.kept[slot] = row
			}
		}
	}
	return nil
}

// valueAt is v's value at row r (row 0 of a constant vector).
func valueAt(v *columnar.Vector, r int) columnar.Value {
	if v.Const {
		r = 0
	}
	return v.Value(r)
}

// choose returns k of the row numbers [0, n), chosen uniformly, sorted.
func (s *Sample) choose(n, k int) []int32 {
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	for i := range k { // partial Fisher–Yates
		j := i + s.rng.IntN(n-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	perm = perm[:k]
	slices.Sort(perm)
	return perm
}

func (s *Sample) Next(ctx context.Context) (*columnar.Batch, error) {
	switch {
	case s.Method == SampleReservoir && s.Percent:
		if s.pos >= len(s.perm) {
			return nil, io.EOF
		}
		to := min(s.pos+columnar.MaxBatch, len(s.perm))
		s.store.gather(s.batch, s.perm, s.pos, to)
		s.pos = to
		return s.batch, nil
	case s.Method == SampleReservoir:
		if s.pos >= len(s.kept) {
			return nil, io.EOF
		}
		to := min(s.pos+columnar.MaxBatch, len(s.kept))
		n := to - s.pos
		for c, v := range s.batch.Cols {
			v.Reset(n)
			for r := range n {
				v.SetValue(r, n, s.kept[s.pos+r][c])
			}
		}
		s.batch.Len, s.batch.Sel = n, nil
		s.pos = to
		return s.batch, nil
	}
	p := s.Size / 100
	for {
		b, err := s.Input.Next(ctx)
		if err != nil {
			return nil, err
		}
		if s.Method == SampleSystem {
			if s.rng.Float64() < p {
				return b, nil
			}
			continue
		}
		s.sel = s.sel[:0]
		for k := 0; k < b.Live(); k++ {
			if s.rng.Float64() < p {
				s.sel = append(s.sel, b.Row(k))
			}
		}
		if len(s.sel) == 0 {
			continue
		}
		s.out.Cols, s.out.Len, s.out.Sel = b.Cols, b.Len, s.sel
		return &s.out, nil
	}
}

func (s *Sample) Close() error {
	s.store, s.perm, s.kept = nil, nil, nil
	s.res.Free()
	s.res = nil
	return s.Input.Close()
}
