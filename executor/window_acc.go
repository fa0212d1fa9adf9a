package executor

import (
	"math"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// windowAcc accumulates a window frame for an aggregate, first_value or
// last_value (which the caller feeds one row at a time after a reset).
type windowAcc struct {
	name  string
	skipN bool           // IGNORE NULLS: first_value, last_value and nth_value skip NULL values
	param columnar.Value // quantile_cont's fraction, string_agg's separator
	nth   int64          // nth_value's position in the frame (1-based)
	rows  int64          // nth_value: the frame rows added so far
	n     int64          // non-NULL values (all rows for count_star)
	isum  int64
	fsum  float64
	best  columnar.Value
	bestV columnar.Value // arg_max, arg_min: the val of best's row
	has   bool
	first bool
	vals  []columnar.Value // var_*, stddev_*, median, quantile_cont, string_agg: the frame's non-NULL values; list: all
	// seen holds the values already added, for an aggregate with DISTINCT
	// (nil without): a repeated value is skipped.
	seen map[distinctKey]struct{}
	// cached is the last result of a holistic aggregate, valid while
	// cachedN == n: a frame that did not grow keeps its result (an
	// unbounded frame is then sorted once per partition, not per row).
	cached  columnar.Value
	cachedN int64
	st      statState // skewness, kurtosis, product, sem, fsum, favg (aggstate_stats.go)
	co      coMoments // covar_*, corr, regr_* (aggstate_pair.go)
}

func newWindowAcc(f *WindowFunc) *windowAcc {
	a := &windowAcc{name: f.Name, skipN: f.IgnoreNulls, param: f.Param, nth: f.Offset, cachedN: -1}
	if f.Distinct {
		a.seen = map[distinctKey]struct{}{}
	}
	return a
}

func (a *windowAcc) reset() {
	seen := a.seen
	clear(seen)
	*a = windowAcc{name: a.name, skipN: a.skipN, param: a.param, nth: a.nth, vals: a.vals[:0], seen: seen, cachedN: -1}
}

// add adds one frame row: v is the (first) argument, val the second
// (arg_max and arg_min's val; zero for other functions).
func (a *windowAcc) add(v, val columnar.Value) {
	if a.skipN && v.Null {
		return
	}
	switch a.name {
	case "arg_max", "arg_min":
		// Rows with a NULL val or arg are skipped (DuckDB 1.x); on a tie
		// the earlier frame row stays, as in GROUP BY's state.
		if val.Null || v.Null {
			return
		}
		if a.has {
			c := columnar.Compare(val, a.bestV)
			if c == 0 || (c < 0) != (a.name == "arg_min") {
				return
			}
		}
		a.best, a.bestV, a.has = v, val, true
		return
	case "first_value":
		if !a.first {
			a.best, a.first, a.has = v, true, true
		}
		return
	case "last_value":
		a.best, a.has = v, true
		return
	case "nth_value":
		// The nth row of the frame, NULL or not.
		if a.rows++; a.rows == a.nth {
			a.best, a.has = v, true
		}
		return
	case "count_star":
		a.n++
		return
	case "list":
		// Every frame value, NULLs included, in the order fed; with
		// DISTINCT the first of each (NULL one value), as DuckDB lists.
		if a.seen != nil {
			k := keyOf(v)
			if v.Null {
				k = distinctKey{i: 2, s: "NULL"} // apart from every value's key
			}
			if _, dup := a.seen[k]; dup {
				return
			}
			a.seen[k] = struct{}{}
		}
		a.vals = append(a.vals, v)
		a.n++
		return
	}
	if v.Null || pairKinds[a.name] != 0 && val.Null {
		return
	}
	if a.seen != nil {
		k := keyOf(v)
		if _, dup := a.seen[k]; dup {
			return
		}
		a.seen[k] = struct{}{}
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
	case "var_samp", "var_pop", "stddev_samp", "stddev_pop", "median", "quantile_cont", "string_agg", "quantile_disc", "mode",
		"entropy", "mad":
		a.vals = append(a.vals, v)
	default:
		if k := statKinds[a.name]; k != 0 {
			a.st.add(k, v.F) // a DOUBLE (bind_agg_stats.go)
		} else if k := pairKinds[a.name]; k != 0 {
			a.co.add(v.F, val.F)
		}
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
	case "list":
		if a.n == 0 {
			return columnar.NullValue(t)
		}
		return columnar.Value{Type: t, Elems: slices.Clone(a.vals)}
	case "entropy":
		if a.cachedN != a.n {
			a.cached, a.cachedN = columnar.FloatValue(t, frameEntropy(a.vals)), a.n // aggstate_entropy.go
		}
		return a.cached
	case "median", "quantile_cont", "string_agg", "quantile_disc", "mode", "mad":
		if a.n == 0 {
			return columnar.NullValue(t)
		}
		if a.cachedN != a.n {
			a.cached, a.cachedN = a.holistic(t), a.n
		}
		return a.cached
	}
	if k := statKinds[a.name]; k != 0 {
		return floatResult(t)(a.st.result(k))
	}
	if k := pairKinds[a.name]; k != 0 {
		if k == AggRegrCount {
			return columnar.IntValue(t, int64(a.co.n))
		}
		return floatResult(t)(a.co.result(k))
	}
	if !a.has {
		return columnar.NullValue(t)
	}
	return a.best
}

// holistic computes median, quantile_cont or string_agg over the frame's
// values (at least one), in frame order for string_agg.
func (a *windowAcc) holistic(t columnar.Type) columnar.Value {
	if a.name == "quantile_disc" || a.name == "mode" {
		return frameValueAgg(a.name, a.vals, a.param.F) // aggstate_window.go
	}
	if a.name == "mad" {
		return madOf(a.vals[0].Type, t, a.vals) // aggstate_mad.go
	}
	if a.name == "string_agg" {
		parts := make([]string, len(a.vals))
		for i, v := range a.vals {
			parts[i] = v.S
		}
		return columnar.StringValue(strings.Join(parts, a.param.S))
	}
	xs := make([]float64, len(a.vals))
	for i, v := range a.vals {
		xs[i] = v.AsFloat()
	}
	slices.SortFunc(xs, columnar.CompareFloat)
	q := 0.5
	if a.name == "quantile_cont" {
		q = a.param.F
	}
	// Linear interpolation between the two values around q·(n-1), as
	// quantile_cont in GROUP BY (aggstate_holistic.go).
	pos := q * float64(len(xs)-1)
	lo, hi := int(math.Floor(pos)), int(math.Ceil(pos))
	return columnar.FloatValue(t, xs[lo]+(pos-float64(lo))*(xs[hi]-xs[lo]))
}

// floatResult turns a statistic and whether it is defined into a value
// of type t (NULL where it is not).
func floatResult(t columnar.Type) func(float64, bool) columnar.Value {
	return func(x float64, ok bool) columnar.Value {
		if !ok {
			return columnar.NullValue(t)
		}
		return columnar.FloatValue(t, x)
	}
}
