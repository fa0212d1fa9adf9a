package executor

import (
	"math/rand/v2"

	"github.com/b2sql/b2sql/columnar"
)

// randomExpr is random(): a new DOUBLE in [0, 1) for every row, so never a
// constant vector (and never folded at plan time, planner.Volatile).
type randomExpr struct{ out columnar.Vector }

func (e *randomExpr) Type() columnar.Type { return columnar.TFloat64 }

func (e *randomExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	e.out.Type = columnar.TFloat64
	e.out.Reset(b.Len)
	forEach(b, func(i int) { e.out.Floats[i] = rand.Float64() })
	return &e.out, nil
}
