package planner

// bit_and(x), bit_or(x), bit_xor(x) over integers: the bitwise AND, OR or
// XOR of a group's non-NULL values, x's type (executor/aggstate_bits.go).
// Numbered among the holistic kinds, so that each runs as one final
// aggregate; the numbers match the executor's AggBitAnd….
const (
	AggBitAnd AggFunc = 57 + iota
	AggBitOr
	AggBitXor
)

func init() {
	holisticNames[AggBitAnd] = "bit_and"
	holisticNames[AggBitOr] = "bit_or"
	holisticNames[AggBitXor] = "bit_xor"
}
