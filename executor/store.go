package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// bytesAt returns row j's bytes, decoding a dictionary-coded vector (a
// coded column may reach a store through a pass-through operator).
func bytesAt(v *columnar.Vector, j int) []byte {
	if d, codes, ok := dict.Of(v); ok {
		return d.Value(codes[j])
	}
	return v.Bytes[j]
}
