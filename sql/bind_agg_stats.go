package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// The statistics aggregates (planner/stats_aggs.go), typed as DuckDB
// types them, in GROUP BY and OVER a window alike:
//
//	skewness, kurtosis, kurtosis_pop,   numbers as DOUBLE → DOUBLE
//	product, sem, fsum (kahan_sum,
//	sumkahan), favg
//	entropy(x)                          any type → DOUBLE
//	mad(x)                              FLOAT → FLOAT, DECIMAL → DECIMAL,
//	                                    other numbers as DOUBLE → DOUBLE,
//	                                    DATE, TIME, TIMESTAMP[_S|_MS|_NS|TZ]
//	                                    → INTERVAL (the units as TIMESTAMP)
//
// geomean(x) (geometric_mean) is DuckDB's macro exp(avg(ln(x))) and is
// bound as that (statMacro).

// statAggNames are the statistics by SQL name, for the window binder.
var statAggNames = map[string]string{
	"skewness": "skewness", "kurtosis": "kurtosis", "kurtosis_pop": "kurtosis_pop", "product": "product",
	"sem": "sem", "fsum": "fsum", "kahan_sum": "fsum", "sumkahan": "fsum", "favg": "favg",
	"entropy": "entropy", "mad": "mad",
}

// statArg converts the argument x of statistic name (its canonical name)
// and returns the result type; src locates errors.
func (b *binder) statArg(name string, x planner.Expr, src callexpr.Expr, c ectx) (planner.Expr, columnar.Type, error) {
	t := x.Type()
	switch name {
	case "entropy":
		return x, columnar.TFloat64, nil
	case "mad":
		switch {
		case t.ID == columnar.Float32 || t.IsDecimal():
			return x, t, nil
		case t.IsTimestampUnit():
			x = &planner.Cast{Arg: x, To: columnar.TTimestamp}
			return x, columnar.TInterval, nil
		case t.ID == columnar.Date || t.ID == columnar.Time || t.ID == columnar.Timestamp || t.ID == columnar.TimestampTZ:
			return x, columnar.TInterval, nil
		}
	}
	if !isNum(t) && t.ID != columnar.Null {
		return nil, columnar.Type{}, b.typeErr(src, c, "%s(%s) is not supported", name, t)
	}
	x, err := b.coerce(x, columnar.TFloat64, src, c)
	return x, columnar.TFloat64, err
}

// statChecked wraps the result of skewness, kurtosis and kurtosis_pop in
// stat_check: DuckDB reports an error where their value is not finite
// (an overflow of the power sums).
func statChecked(name string, x planner.Expr) planner.Expr {
	switch name {
	case "skewness", "kurtosis", "kurtosis_pop":
		return &planner.Call{Fn: "stat_check", T: columnar.TFloat64,
			Args: []planner.Expr{x, &planner.Const{Val: columnar.StringValue(name)}}}
	}
	return x
}

// isAggMacro reports whether name is a macro over aggregates (geomean,
// weighted_avg), which makes a query aggregating as an aggregate call does.
func isAggMacro(name string) bool {
	switch name {
	case "geomean", "geometric_mean", "weighted_avg", "wavg":
		return true
	}
	return false
}

// statMacro returns the definition of an aggregate macro, as DuckDB
// defines it, for a call with the right number of arguments; nil for other
// names:
//
//	geomean(x)         exp(avg(ln(x)))
//	weighted_avg(x, w) sum(x * w) / sum(CASE WHEN x IS NULL THEN 0 ELSE w END)
//
// The quotient of two sums is a DOUBLE, nan or ±inf for a zero total
// weight, as in DuckDB.
func statMacro(name string, args []callexpr.Expr, at ast.Span) callexpr.Expr {
	switch {
	case (name == "geomean" || name == "geometric_mean") && len(args) == 1:
		return fn("exp", at, false, fn("avg", at, false, fn("ln", at, false, args[0])))
	case (name == "weighted_avg" || name == "wavg") && len(args) == 2:
		x, w := args[0], args[1]
		weight := &callexpr.CaseExpr{At: at, Whens: []*callexpr.When{{Cond: &callexpr.IsExpr{Operator: callexpr.IsNullStr, Expr: x}, Val: callexpr.NewIntVal([]byte("0"), at)}}, Else: w}
		num := fn("sum", at, false, &callexpr.BinaryExpr{Operator: callexpr.MultStr, Left: x, Right: w})
		return &callexpr.BinaryExpr{Operator: callexpr.DivStr, Left: num, Right: fn("sum", at, false, weight)}
	}
	return nil
}

// bindWindowStat binds a statistic OVER a window (executor/window_acc.go),
// under its canonical name.
func (b *binder) bindWindowStat(f *planner.WindowFunc, args []callexpr.Expr, bindArgs func(lo, hi int) ([]planner.Expr, error), c ectx) error {
	xs, err := bindArgs(1, 1)
	if err != nil {
		return err
	}
	name := statAggNames[f.Name]
	x, t, err := b.statArg(name, xs[0], args[0], c)
	if err != nil {
		return err
	}
	f.Name, f.Args, f.Type = name, []planner.Expr{x}, t
	return nil
}
