package executor

import "bytes"

// cmpOp is a comparison operator.
type cmpOp uint8

func bytesCmp(op cmpOp, x, c []byte) bool {
	switch op {
	case opEq:
		return bytes.Equal(x, c)
	case opNe:
		return !bytes.Equal(x, c)
	}
	r := bytes.Compare(x, c)
	switch op {
	case opLt:
		return r < 0
	case opLe:
		return r <= 0
	case opGt:
		return r > 0
	}
	return r >= 0
}

const (
	opEq cmpOp = iota
	opNe
	opLt
	opLe
	opGt
	opGe
)
