package sql

import (
	"slices"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// TIMESTAMP_S, TIMESTAMP_MS and TIMESTAMP_NS (columnar/timestamp_unit.go)
// meet DATE and TIMESTAMP in the finer of the two units, as DuckDB's
// implicit casts rank them: DATE < TIMESTAMP_S < TIMESTAMP_MS < TIMESTAMP
// < TIMESTAMP_NS. They do not meet TIMESTAMPTZ or TIME implicitly.
// Functions and arithmetic read them as TIMESTAMP (asTimestamp).

// timestampRank orders DATE and the local timestamp types by the unit
// their common type takes; 0 for other types.
func timestampRank(t columnar.Type) int {
	switch t.ID {
	case columnar.Date:
		return 1
	case columnar.TimestampS:
		return 2
	case columnar.TimestampMS:
		return 3
	case columnar.Timestamp:
		return 4
	case columnar.TimestampNS:
		return 5
	}
	return 0
}

// unitSuper is the common type of a timestamp unit type and another type.
func unitSuper(a, b columnar.Type) (columnar.Type, bool) {
	ra, rb := timestampRank(a), timestampRank(b)
	if ra == 0 || rb == 0 {
		return columnar.Type{}, false
	}
	if ra >= rb {
		return a, true
	}
	return b, true
}

// canCastUnit reports whether CAST(from AS to) is defined when either is a
// timestamp unit type: from and to text, DATE, TIMESTAMP and TIMESTAMPTZ,
// to TIME, and between units only toward a finer one or from
// TIMESTAMP_NS to TIMESTAMP (DuckDB has no other).
func canCastUnit(from, to columnar.Type) bool {
	switch {
	case from.ID == columnar.Varchar || to.ID == columnar.Varchar:
		return true
	case from.IsTimestampUnit() && to.IsTimestampUnit():
		return timestampRank(from) < timestampRank(to)
	case from.IsTimestampUnit():
		switch to.ID {
		case columnar.Date, columnar.Timestamp, columnar.TimestampTZ, columnar.Time:
			return true
		}
	case to.IsTimestampUnit():
		switch from.ID {
		case columnar.Date, columnar.Timestamp, columnar.TimestampTZ:
			return true
		}
	}
	return false
}

// asTimestamp reads a TIMESTAMP_S/MS/NS argument as TIMESTAMP, as DuckDB's
// implicit cast does for functions and arithmetic that have no overload of
// their own (TIMESTAMP_NS loses its sub-microsecond digits there, as in
// DuckDB); other expressions are returned as they are.
func asTimestamp(x planner.Expr) planner.Expr {
	if !x.Type().IsTimestampUnit() {
		return x
	}
	return planner.FoldExpr(&planner.Cast{Arg: x, To: columnar.TTimestamp})
}

// timestampUnitArgs reads the TIMESTAMP_S/MS/NS arguments of a function
// with typing rules of its own as TIMESTAMP, except where DuckDB has an
// overload that keeps the unit: epoch_ns and strftime of a TIMESTAMP_NS
// (its nanoseconds).
func timestampUnitArgs(name string, xs []planner.Expr) []planner.Expr {
	var out []planner.Expr
	for i, x := range xs {
		t := x.Type()
		if !t.IsTimestampUnit() || keepsUnit(name, t) {
			continue
		}
		if out == nil {
			out = slices.Clone(xs)
		}
		out[i] = asTimestamp(x)
	}
	if out == nil {
		return xs
	}
	return out
}

// keepsUnit reports whether function name has a DuckDB overload for
// arguments of the timestamp unit type t (the executor's kernels read the
// payload in its unit, executor/rows_date.go).
func keepsUnit(name string, t columnar.Type) bool {
	return t.ID == columnar.TimestampNS && (name == "epoch_ns" || name == "strftime")
}
