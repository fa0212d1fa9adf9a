package executor

import (
	"math"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// windowAcc accumulates a window frame for an aggregate, first_value or
// last_value (which the caller feeds one row at a time after a reset).
type windowAcc struct {
	name  string
	n     int64 // non-NULL values (all rows for count_star)
	isum  int64
	fsum  float64
	best  columnar.Value
	has   bool
	first bool
	vals  []columnar.Value // var_*, stddev_*: the frame's non-NULL values
}

func newWindowAcc(f *WindowFunc) *windowAcc { return &windowAcc{name: f.Name} }

func (a *windowAcc) reset() { *a = windowAcc{name: a.name, vals: a.vals[:0]} }

func (a *windowAcc) add(v columnar.Value) {
	switch a.name {
	case "first_value":
		if !a.first {
			a.best, a.first, a.has = v, true, true
		}
		return
	case "last_value":
		a.best, a.has = v, true
		return
	case "count_star":
		a.n++
		return
	}
	if v.Null {
		return
	}
	a.n++
	switch a.name {
	case "sum", "avg":
		if v.Type.Phys() == columnar.PhysFloat || v.Type.Phys() == columnar.PhysUint {
			a.fsum += v.AsFloat()
		} else {
			a.isum += v.I
			a.fsum += v.AsFloat()
		}
	case "min":
		if !a.has || columnar.Compare(v, a.best) < 0 {
			a.best, a.has = v, true
		}
	case "max":
		if !a.has || columnar.Compare(v, a.best) > 0 {
			a.best, a.has = v, true
		}
	case "var_samp", "var_pop", "stddev_samp", "stddev_pop":
		a.vals = append(a.vals, v)
	}
}

func (a *windowAcc) result(t columnar.Type) columnar.Value {
	switch a.name {
	case "count", "count_star":
		return columnar.IntValue(t, a.n)
	case "sum":
		if a.n == 0 {
			return columnar.NullValue(t)
		}
		if t.Phys() == columnar.PhysFloat {
			return columnar.FloatValue(t, a.fsum)
		}
		return columnar.IntValue(t, a.isum)
	case "avg":
		if a.n == 0 {
			return columnar.NullValue(t)
		}
		return columnar.FloatValue(t, a.fsum/float64(a.n))
	case "var_samp", "var_pop", "stddev_samp", "stddev_pop":
		v, ok := variance(a.vals, a.name == "var_samp" || a.name == "stddev_samp")
		if !ok {
			return columnar.NullValue(t)
		}
		if strings.HasPrefix(a.name, "stddev") {
			v = math.Sqrt(v)
		}
		return columnar.FloatValue(t, v)
	}
	if !a.has {
		return columnar.NullValue(t)
	}
	return a.best
}
