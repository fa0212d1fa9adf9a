package executor

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// Sequences (CREATE SEQUENCE): counters that nextval('s') advances and
// currval('s') reads, as DuckDB's (PostgreSQL's) sequences. A bound
// nextval names its sequence by a constant token argument, as random()
// names its session's engine (random.go): kernels see constants only.

// Sequence is one sequence's state. Its values run from Start by Incr
// within [Min, Max]; past a bound it wraps to the other when Cycle, else
// nextval is an error.
type Sequence struct {
	Name                  string
	Start, Incr, Min, Max int64
	Cycle                 bool

	mu      sync.Mutex
	next    int64 // the counter: nextval's next answer
	used    bool  // nextval has answered: currval has a value
	current int64
}

var (
	sequences      sync.Map // int64 → *Sequence
	sequenceTokens atomic.Int64
)

// NewSequence registers s (Start, Incr, Min, Max and Cycle set) and
// returns its token; DropSequence forgets it.
func NewSequence(s *Sequence) int64 {
	s.next = s.Start
	t := sequenceTokens.Add(1)
	sequences.Store(t, s)
	return t
}

// DropSequence forgets the sequence of token t: a statement bound before
// and run after the drop fails as DuckDB's would not find it.
func DropSequence(t int64) { sequences.Delete(t) }

// SequenceOf is the sequence of token t, false once it was dropped.
func SequenceOf(t int64) (*Sequence, bool) {
	s, ok := sequences.Load(t)
	if !ok {
		return nil, false
	}
	return s.(*Sequence), true
}

// SequenceState is where a sequence stands: Next is nextval's next
// answer; Last its last one, when Used.
type SequenceState struct {
	Next, Last int64
	Used       bool
}

// State reads the sequence's state.
func (s *Sequence) State() SequenceState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return SequenceState{Next: s.next, Last: s.current, Used: s.used}
}

func sequenceOf(consts []*columnar.Value, i int) (*Sequence, error) {
	if s, ok := SequenceOf(tokenOf(consts, i)); ok {
		return s, nil
	}
	return nil, fmt.Errorf("the sequence was dropped")
}

// Next is nextval: the sequence's next value. As DuckDB's, the counter
// moves on first; a value past a bound, or a step that overflows 64 bits,
// is an error unless the sequence cycles, when the counter wraps to the
// other bound.
func (s *Sequence) Next() (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.next
	sum := v + s.Incr
	overflow := (s.Incr > 0) != (sum > v)
	s.next = sum
	switch {
	case s.Cycle && overflow && s.Incr < 0, s.Cycle && !overflow && sum < s.Min:
		s.next = s.Max
	case s.Cycle && (overflow || sum > s.Max):
		s.next = s.Min
	case s.Cycle:
	case v < s.Min || overflow && s.Incr < 0:
		return 0, fmt.Errorf("nextval: reached minimum value of sequence %q (%d)", s.Name, s.Min)
	case v > s.Max || overflow:
		return 0, fmt.Errorf("nextval: reached maximum value of sequence %q (%d)", s.Name, s.Max)
	}
	s.current, s.used = v, true
	return v, nil
}

// Current is currval: the value nextval gave last.
func (s *Sequence) Current() (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.used {
		return 0, fmt.Errorf("currval: sequence is not yet defined in this session")
	}
	return s.current, nil
}

// sequenceFactory builds nextval_seq(token) (next) or currval_seq(token).
func sequenceFactory(next bool) function.Factory {
	return func(_ []columnar.Type, consts []*columnar.Value, _ columnar.Type) (function.Kernel, error) {
		s, err := sequenceOf(consts, 0)
		if err != nil {
			return nil, err
		}
		return func(_ []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
			var err error
			b.ForEach(func(i int) {
				if err != nil {
					return
				}
				if next {
					out.Ints[i], err = s.Next()
				} else {
					out.Ints[i], err = s.Current()
				}
			})

			return err
		}, nil
	}
}

func init() {
	name := param{"sequence_name", function.Varchar}
	function.Register(
		customBind(volatile(scalar("sequence", "nextval", "The sequence's next value (CREATE SEQUENCE)", ex("nextval('seq')"),
			over(columnar.TInt64, sequenceFactory(true), name)))),
		customBind(volatile(scalar("sequence", "currval", "The value the sequence's nextval gave last", ex("currval('seq')"),
			over(columnar.TInt64, sequenceFactory(false), name)))),
		// The binder's forms, naming the sequence by its token.
		volatile(internal(scalar("sequence", "nextval_seq", "nextval of the sequence whose token is the argument", nil,
			over(columnar.TInt64, sequenceFactory(true), param{"token", function.BigInt})))),
		volatile(internal(scalar("sequence", "currval_seq", "currval of the sequence whose token is the argument", nil,
			over(columnar.TInt64, sequenceFactory(false), param{"token", function.BigInt})))),
	)
}
