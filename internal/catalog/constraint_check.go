package catalog

import (
	"cmp"
	"fmt"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql"
)

// Check returns the first rule row i of v breaks, as "le=100",
// "max_length=8" or "NOT NULL", or "" when the value is allowed.
func (r *ColumnConstraints) Check(v *columnar.Vector, i int) string {
	if v.IsNull(i) {
		if !r.Nullable {
			return "NOT NULL"
		}
		return ""
	}
	if r.MaxLength > 0 && (v.Type.IsString() || v.Type.ID == columnar.Blob) {
		n := len(v.Bytes[i])
		if v.Type.IsString() {
			n = utf8.RuneCount(v.Bytes[i])
		}
		if n > r.MaxLength {
			return fmt.Sprintf("max_length=%d", r.MaxLength)
		}
	}
	for _, b := range r.Checks {
		if !allows(b, v, i) {
			return b.Op + "=" + b.Val.String()
		}
	}
	return ""
}

// allows compares row i of a numeric vector with bound b (a NaN meets
// no bound, so cmp.Compare never sees one); values of other types are
// not constrained (python-blosc2 puts bounds on numbers).
func allows(b sql.Check, v *columnar.Vector, i int) bool {
	var c int // sign of value - bound
	switch v.Type.Phys() {
	case columnar.PhysInt:
		x := v.Ints[i]
		if v.Type.ID == columnar.Decimal {
			c = cmp.Compare(float64(x)/pow10f(int(v.Type.Scale)), b.Val.AsFloat())
		} else if b.Val.Type.IsInteger() {
			c = cmp.Compare(x, b.Val.I)
		} else {
			c = cmp.Compare(float64(x), b.Val.AsFloat())
		}
	case columnar.PhysUint:
		x := v.Uints[i]
		switch {
		case b.Val.Type.IsInteger() && b.Val.I < 0:
			c = 1
		case b.Val.Type.IsInteger():
			c = cmp.Compare(x, uint64(b.Val.I))
		default:
			c = cmp.Compare(float64(x), b.Val.AsFloat())
		}
	case columnar.PhysFloat:
		x := v.Floats[i]
		if x != x { // NaN satisfies no bound
			return false
		}
		c = cmp.Compare(x, b.Val.AsFloat())
	case columnar.PhysBool:
		x := int64(0)
		if v.Bools[i] {
			x = 1
		}
		c = cmp.Compare(float64(x), b.Val.AsFloat())
	default:
		return true
	}
	switch b.Op {
	case "ge":
		return c >= 0
	case "gt":
		return c > 0
	case "le":
		return c <= 0
	case "lt":
		return c < 0
	}
	return true
}

func pow10f(n int) float64 {
	f := 1.0
	for range n {
		f *= 10
	}
	return f
}
