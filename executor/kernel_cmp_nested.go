package executor

import "github.com/b2sql/b2sql/columnar"

// cmpNested compares nested values row by row as DuckDB does: element by
// element, NULL elements equal to each other and after every value, a
// prefix first ([1, NULL] = [1, NULL], [1, 2] < [1, NULL]).
func cmpNested(op cmpOp, a, c *columnar.Vector, out []bool, b *columnar.Batch, n int) {
	test := func(i int) {
		r := columnar.CompareRows(a, i, c, i)
		switch op {
		case opEq:
			out[i] = r == 0
		case opNe:
			out[i] = r != 0
		case opLt:
			out[i] = r < 0
		case opLe:
			out[i] = r <= 0
		case opGt:
			out[i] = r > 0
		case opGe:
			out[i] = r >= 0
		}
	}
	if n == 1 || b.Sel == nil {
		for i := range n {
			if !a.IsNull(i) && !c.IsNull(i) {
				test(i)
			}
		}
		return
	}
	for _, i := range b.Sel {
		if !a.IsNull(i) && !c.IsNull(i) {
			test(i)
		}
	}
}
