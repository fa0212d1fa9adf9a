package executor

import (
	crand "crypto/rand"
	"encoding/binary"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// random() and setseed(x) as DuckDB has them (common/random_engine.cpp,
// core_functions/scalar/random): each session owns a RandomEngine, a
// pcg32 generator seeded at random; setseed(x) reseeds it with
// uint32((x + 1)·(2^32-1)/2); each random() call site, when the executor
// builds it, draws a 64-bit seed from the session's engine and produces
// its own sequence from a pcg32 of that seed: ldexp(next 64 bits, -64)
// per row. After setseed the next statement's random() values are
// DuckDB's, value for value (one call site, one thread).

// pcg32 is pcg_random.hpp's pcg32 (setseq_xsh_rr_64_32 on the default
// stream): a 64-bit LCG state, 32-bit xorshift-rotate outputs, each from
// the state before the step.
type pcg32 struct{ state uint64 }

const (
	pcgMult = 6364136223846793005
	pcgInc  = 1442695040888963407
)

// seed restarts the generator from s, as pcg32::seed(s).
func (p *pcg32) seed(s uint64) { p.state = (s+pcgInc)*pcgMult + pcgInc }

func (p *pcg32) next() uint32 {
	old := p.state
	p.state = old*pcgMult + pcgInc
	x := uint32(((old >> 18) ^ old) >> 27)
	return bits.RotateLeft32(x, -int(old>>59))
}

// next64 is RandomEngine::NextRandomInteger64: two outputs, high first.
func (p *pcg32) next64() uint64 { return uint64(p.next())<<32 | uint64(p.next()) }

// float is RandomEngine::NextRandom: a double in [0, 1].
func (p *pcg32) float() float64 { return math.Ldexp(float64(p.next64()), -64) }

// RandomEngine is a session's random state. Safe for concurrent use.
type RandomEngine struct {
	mu  sync.Mutex
	pcg pcg32
}

// newRandomEngine returns an engine seeded from the system's randomness.
func newRandomEngine() *RandomEngine {
	var b [8]byte
	_, _ = crand.Read(b[:])
	e := &RandomEngine{}
	e.pcg.seed(binary.LittleEndian.Uint64(b[:]))
	return e
}

// SetSeed is setseed(x) for x in [-1, 1].
func (e *RandomEngine) SetSeed(x float64) error {
	if x < -1 || x > 1 || math.IsNaN(x) {
		return errorf("setseed accepts seed values between -1.0 and 1.0, inclusive (got %v)", x)
	}
	const halfMax = math.MaxUint32 / 2
	e.mu.Lock()
	e.pcg.seed(uint64(uint32((x + 1) * halfMax)))
	e.mu.Unlock()
	return nil
}

// draw is the seed of a new random() call site.
func (e *RandomEngine) draw() uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.pcg.next64()
}

// The sessions' engines by token: a bound random() or setseed() names
// its session's engine by a constant token argument, as kernels see
// constants only. Token 0 is a shared engine for binds without a session.
var (
	randomEngines sync.Map // int64 → *RandomEngine
	randomTokens  atomic.Int64
	sharedRandom  = newRandomEngine()
)

// NewRandomEngine registers a new session engine and returns its token;
// ReleaseRandomEngine forgets it.
func NewRandomEngine() int64 {
	t := randomTokens.Add(1)
	randomEngines.Store(t, newRandomEngine())
	return t
}

// ReleaseRandomEngine forgets the engine of token t.
func ReleaseRandomEngine(t int64) { randomEngines.Delete(t) }

// randomEngineOf is the engine of token t (the shared one for 0 or an
// unknown token).
func randomEngineOf(t int64) *RandomEngine {
	if e, ok := randomEngines.Load(t); ok {
		return e.(*RandomEngine)
	}
	return sharedRandom
}

func tokenOf(consts []*columnar.Value, i int) int64 {
	if i < len(consts) && consts[i] != nil && !consts[i].Null {
		return consts[i].I
	}
	return 0
}

// randomFactory builds a random() call site: its own generator, seeded
// from the session's engine now (DuckDB seeds it when execution starts).
func randomFactory(_ []columnar.Type, consts []*columnar.Value, _ columnar.Type) (function.Kernel, error) {
	var mu sync.Mutex // parallel pipelines may share a built call
	p := pcg32{}
	p.seed(randomEngineOf(tokenOf(consts, 0)).draw())
	return func(_ []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		mu.Lock()
		defer mu.Unlock()
		b.ForEach(func(i int) { out.Floats[i] = p.float() })
		return nil
	}, nil
}

// setseedFactory builds setseed(x, token): it reseeds the session's engine
// for each row's x and answers NULL.
func setseedFactory(_ []columnar.Type, consts []*columnar.Value, _ columnar.Type) (function.Kernel, error) {
	e := randomEngineOf(tokenOf(consts, 1))
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x := args[0]
		var err error
		b.ForEach(func(i int) {
			k := i
			if x.Const {
				k = 0
			}
			if err == nil && !x.IsNull(k) {
				err = e.SetSeed(x.Floats[k])
			}
			out.SetNull(i, b.Len)
		})

		return err
	}, nil
}
