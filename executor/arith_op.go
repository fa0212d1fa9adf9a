package executor

// arithOp is an arithmetic operator.
type arithOp uint8

const (
	opAdd arithOp = iota
	opSub
	opMul
	opDiv    // float division
	opIntDiv // integer division, truncating (float division for floats)
	opMod
)
