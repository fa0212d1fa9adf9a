package parquet

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// bytesKeeper is keeper for strings compared with one constant, or two
// for BETWEEN, each prepared as a columnar.BytesKey: most rows are
// decided by their first 8 bytes as a number, without the byte
// comparison's call. LIKE 'p%' reaches the scan as BETWEEN p AND p⁺
// (planner.likeRange) and is tested on every row: as "starts with p, or
// is p⁺", one masked 8-byte comparison for a prefix under 8 bytes. nil
// for other operators.
func bytesKeeper(op index.Op, vals [][]byte) func(x []byte) bool {
	if len(vals) == 0 {
		return nil
	}
	k := columnar.NewBytesKey(vals[0])
	switch op {
	case index.Eq:
		return func(x []byte) bool { return k.Compare(x) == 0 }
	case index.Lt:
		return func(x []byte) bool { return k.Compare(x) < 0 }
	case index.Le:
		return func(x []byte) bool { return k.Compare(x) <= 0 }
	case index.Gt:
		return func(x []byte) bool { return k.Compare(x) > 0 }
	case index.Ge:
		return func(x []byte) bool { return k.Compare(x) >= 0 }
	case index.Between:
		if succ, ok := columnar.PrefixSuccessor(vals[0]); ok && string(succ) == string(vals[1]) {
			return func(x []byte) bool { return k.IsPrefixOf(x) || string(x) == string(succ) }
		}
		hi := columnar.NewBytesKey(vals[1])
		return func(x []byte) bool { return k.Compare(x) >= 0 && hi.Compare(x) <= 0 }
	}
	return nil
}

// predBytes returns p's constants as bytes when p compares a string
// column with non-NULL string constants (mark's bytes case).
func predBytes(p index.Pred) ([][]byte, bool) {
	vals := make([][]byte, len(p.Vals))
	for k, x := range p.Vals {
		if x.Null || x.Type.Phys() != columnar.PhysBytes {
			return nil, false
		}
		vals[k] = []byte(x.S)
	}
	return vals, true
}
