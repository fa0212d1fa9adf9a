package parquet

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// bytesKeeper is keeper for strings compared with one constant, or two
// for BETWEEN, each prepared as a columnar.BytesKey: most rows are
// decided by their first 8 bytes as a number, without the byte
// comparison's call (LIKE 'p%' reaches the scan as BETWEEN p AND p⁺ and
// is tested on every row). nil for other operators.
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
		hi := columnar.NewBytesKey(vals[1])
		return func(x []byte) bool { return k.Compare(x) >= 0 && hi.Compare(x) <= 0 }
	}
	return nil
}
