package executor

import (
	"encoding/binary"
	"encoding/hex"
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

// uuidExpr is gen_random_uuid()/uuid(): a new random (version 4) UUID in
// its 36-character text form for every row (b2sql has no UUID type).
type uuidExpr struct{ out columnar.Vector }

func (e *uuidExpr) Type() columnar.Type { return columnar.TVarchar }

func (e *uuidExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	e.out.Type = columnar.TVarchar
	e.out.Reset(b.Len)
	forEach(b, func(i int) {
		var u [16]byte
		binary.LittleEndian.PutUint64(u[:8], rand.Uint64())
		binary.LittleEndian.PutUint64(u[8:], rand.Uint64())
		u[6] = u[6]&0x0f | 0x40 // version 4
		u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
		h := hex.EncodeToString(u[:])
		e.out.Bytes[i] = []byte(h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:])
	})
	return &e.out, nil
}
