package executor

import "math"

// log2(x): math.Log2 is exact on powers of two, where ln(x)/ln(2) is not.
func init() {
	moreFuncs["log2"] = struct {
		f      rowFunc
		strict bool
	}{fnMath1(math.Log2), true}
}
