package executor

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
)

// Integer bitwise operators of DuckDB (registered in func_*.go): bit_and
// (a & b), bit_not (~a), shift_left and shift_right (a << n, a >> n) in
// a's type. A left shift that overflows a's type, by a negative count or
// by the type's width or more, or of a negative number is an error; a
// right shift by the width or more gives 0, as in DuckDB.

// intWidth is the number of bits of an integer type.
func intWidth(t columnar.Type) int64 { return int64(t.IntBits()) }

func fnBitAnd(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, a[0].I&a[1].I), nil
}

func fnBitOr(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, a[0].I|a[1].I), nil
}

// fnBitNot complements within the type: an unsigned value stays in range.
func fnBitNot(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x := ^a[0].I
	if w := intWidth(t); t.ID >= columnar.Uint8 && t.ID <= columnar.Uint32 {
		x &= 1<<w - 1
	}
	return columnar.IntValue(t, x), nil
}

func fnShiftLeft(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x, n := a[0].I, a[1].I
	switch {
	case n < 0:
		return columnar.Value{}, fmt.Errorf("cannot left-shift by a negative number (%d)", n)
	case x < 0 && t.ID != columnar.Uint64:
		return columnar.Value{}, fmt.Errorf("cannot left-shift a negative number (%d)", x)
	case n >= intWidth(t):
		return columnar.Value{}, fmt.Errorf("left-shift by %d is out of range for %s", n, t)
	}
	r := x << n
	if _, hi := t.IntRange(); t.ID != columnar.Uint64 && (r>>n != x || r > hi) {
		return columnar.Value{}, fmt.Errorf("overflow in left shift (%d << %d) for %s", x, n, t)
	}
	return columnar.IntValue(t, r), nil
}

func fnShiftRight(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x, n := a[0].I, a[1].I
	switch {
	case n < 0:
		return columnar.Value{}, fmt.Errorf("cannot right-shift by a negative number (%d)", n)
	case n >= intWidth(t):
		return columnar.IntValue(t, 0), nil
	case t.ID == columnar.Uint64:
		return columnar.IntValue(t, int64(uint64(x)>>n)), nil
	}
	return columnar.IntValue(t, x>>n), nil
}
