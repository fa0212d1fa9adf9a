package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// holisticAggs are the aggregates that need a group's every value.
var holisticAggs = map[string]planner.AggFunc{
	"median": planner.AggMedian, "quantile_cont": planner.AggQuantileCont,
	"var_samp": planner.AggVarSamp, "variance": planner.AggVarSamp, "var_pop": planner.AggVarPop,
	"stddev_samp": planner.AggStddevSamp, "stddev": planner.AggStddevSamp, "stddev_pop": planner.AggStddevPop,
	"string_agg": planner.AggStringAgg, "group_concat": planner.AggStringAgg, "listagg": planner.AggStringAgg,
	"approx_count_distinct": planner.AggApproxCountDistinct,
	"quantile_disc":         planner.AggQuantileDisc, "quantile": planner.AggQuantileDisc, "mode": planner.AggMode,
	"array_agg": planner.AggList, "list": planner.AggList,
	"skewness": planner.AggSkewness, "kurtosis": planner.AggKurtosis, "kurtosis_pop": planner.AggKurtosisPop,
	"entropy": planner.AggEntropy, "product": planner.AggProduct,
	"sem": planner.AggSem, "fsum": planner.AggFsum, "sumkahan": planner.AggFsum, "kahan_sum": planner.AggFsum,
	"favg": planner.AggFavg, "mad": planner.AggMad, "approx_quantile": planner.AggApproxQuantile,
	"bit_and": planner.AggBitAnd, "bit_or": planner.AggBitOr, "bit_xor": planner.AggBitXor,
	"reservoir_quantile": planner.AggReservoirQuantile, "bitstring_agg": planner.AggBitstringAgg,
}

// bindHolistic binds median(x), quantile_cont(x, q) and string_agg(x [,
// sep]) (group_concat, listagg): q and sep are constants.
func (b *binder) bindHolistic(fn planner.AggFunc, name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx) (planner.Expr, error) {
	if fracs, ok, err := b.fractionList(fn, args, c); err != nil || ok { // bind_agg_quantile.go
		if err != nil {
			return nil, err
		}
		return b.quantileList(fracs, args, at, c, func(q *columnar.Value) (planner.Expr, error) {
			return b.bindHolisticOne(fn, name, e, args, star, at, c, q)
		})
	}
	return b.bindHolisticOne(fn, name, e, args, star, at, c, nil)
}

// bindHolisticOne binds one holistic call; frac, when set, is the fraction
// of quantile_cont/quantile_disc/approx_quantile instead of args[1].
func (b *binder) bindHolisticOne(fn planner.AggFunc, name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx, frac *columnar.Value) (planner.Expr, error) {
	ar := aggArity{lo: 1, hi: 1, bind: 1}
	switch fn {
	case planner.AggQuantileCont, planner.AggQuantileDisc, planner.AggApproxQuantile:
		ar.lo, ar.hi = 2, 2
	case planner.AggStringAgg:
		ar.hi = 2
	case planner.AggReservoirQuantile:
		ar.lo, ar.hi = 2, 3
	case planner.AggBitstringAgg:
		ar.hi = 3
	}
	xs, ac, err := b.aggArgs(name, e, args, star, at, c, ar) // bind_agg_args.go
	if err != nil {
		return nil, err
	}
	x := xs[0]
	call := planner.AggCall{Func: fn, Distinct: e.Distinct}
	constant := func(i int) (columnar.Value, error) {
		if i == 1 && frac != nil {
			return *frac, nil
		}
		y, err := b.bindExpr(args[i], ac)
		if err != nil {
			return columnar.Value{}, err
		}
		k, ok := planner.FoldExpr(y).(*planner.Const)
		if !ok || k.Val.Null {
			return columnar.Value{}, b.typeErr(args[i], c, "%s expects a constant as argument %d", name, i+1)
		}
		if v := k.Val; v.Type.IsFloat() && v.F == 0 {
			v.F = 0 // a fraction of -0 is ascending (a descending one is negative, bind_agg_quantile.go)
			return v, nil
		}
		return k.Val, nil
	}
	// fraction reads argument 2 of approx_quantile and
	// reservoir_quantile: a constant in [0, 1], as a DOUBLE.
	fraction := func() (columnar.Value, error) {
		v, err := constant(1)
		if err != nil {
			return v, err
		}
		if q := v.AsFloat(); !v.Type.IsNumeric() || !(q >= 0 && q <= 1) { // NaN too
			return v, b.typeErr(args[1], c, "%s expects a fraction between 0 and 1", name)
		}
		return columnar.FloatValue(columnar.TFloat64, v.AsFloat()), nil
	}
	switch fn {
	case planner.AggApproxCountDistinct:
		call.Arg, call.Type, call.Distinct = x, columnar.TInt64, false
	case planner.AggApproxQuantile:
		if call.Arg, call.Type, err = b.approxQuantileArg(x, frac != nil, args[0], c); err != nil { // bind_agg_quantile.go
			return nil, err
		}
		if call.Param, err = fraction(); err != nil {
			return nil, err
		}
	case planner.AggEntropy, planner.AggSkewness, planner.AggKurtosis, planner.AggKurtosisPop, planner.AggProduct,
		planner.AggSem, planner.AggFsum, planner.AggFavg, planner.AggMad,
		planner.AggVarSamp, planner.AggVarPop, planner.AggStddevSamp, planner.AggStddevPop:
		sn := statAggNames[name]
		if sn == "" {
			sn = name // the variances: numbers as DOUBLE, like most statistics
		}
		if call.Arg, call.Type, err = b.statArg(sn, x, args[0], c); err != nil { // bind_agg_stats.go
			return nil, err
		}
	case planner.AggBitAnd, planner.AggBitOr, planner.AggBitXor:
		if x.Type().ID == columnar.Null {
			x = &planner.Const{Val: columnar.NullValue(columnar.TInt32)}
		}
		if t := x.Type(); (!t.IsInteger() || t.Wide()) && t.ID != columnar.Bit { // a BIT: executor/aggstate_bitstring.go
			return nil, b.typeErr(args[0], c, "%s(%s) is not supported", name, t)
		}
		call.Arg, call.Type = x, x.Type()
	case planner.AggBitstringAgg:
		if call.Arg, call.Param, err = b.bitstringAggArgs(name, x, args, ac, c); err != nil { // bind_agg_bitstring.go
			return nil, err
		}
		call.Type = columnar.TBit
	case planner.AggList:
		if x.Type().ID == columnar.Null {
			if x, err = b.coerce(x, columnar.TInt32, args[0], c); err != nil {
				return nil, err
			}
		}
		call.Arg, call.Type = x, columnar.ListOf(x.Type())
	case planner.AggReservoirQuantile:
		if call.Arg, err = b.reservoirArg(name, x, args, constant, c); err != nil { // bind_agg_quantile.go
			return nil, err
		}
		if call.Param, err = fraction(); err != nil {
			return nil, err
		}
		call.Type = call.Arg.Type()
	case planner.AggQuantileDisc, planner.AggMode:
		if call.Param, err = b.valueAggParam(fn, name, x, args, constant, c); err != nil {
			return nil, err
		}
		call.Arg, call.Type = x, x.Type()
	case planner.AggStringAgg:
		if call.Arg, err = b.coerce(x, columnar.TVarchar, args[0], c); err != nil {
			return nil, err
		}
		call.Type, call.Param = columnar.TVarchar, columnar.StringValue(",")
		if len(args) == 2 {
			v, err := constant(1)
			if err != nil {
				return nil, err
			}
			if v.Type.ID != columnar.Varchar {
				return nil, b.typeErr(args[1], c, "%s expects a string separator", name)
			}
			call.Param = v
		}
	default:
		disc := false
		if call.Arg, call.Type, disc, err = b.contArg(name, x, args[0], c); err != nil { // bind_agg_quantile.go
			return nil, err
		}
		if disc {
			call.Func, call.Param = planner.AggQuantileDisc, columnar.FloatValue(columnar.TFloat64, 0.5)
		}
		if fn == planner.AggQuantileCont {
			v, err := constant(1)
			if err != nil {
				return nil, err
			}
			q, ok := quantileFraction(v) // bind_agg_quantile.go
			if !ok {
				return nil, b.typeErr(args[1], c, "%s expects a fraction between -1 and 1", name)
			}
			call.Param = columnar.FloatValue(columnar.TFloat64, q)
		}
	}
	d := ""
	if call.Distinct {
		d = "DISTINCT "
	}
	key := fmt.Sprintf("%s(%s%s|%s)", fn, d, call.Arg, call.Param.String())
	a := b.agg
	i := b.aggIndex(key, call)
	if isTimeMicros(call.Arg) {
		// median or quantile_cont of TIMEs: back to a TIME (bind_agg_time.go)
		return timeFromMicros(&planner.ColRef{Col: a.aggCols[i]}), nil
	}
	if t := x.Type(); fn == planner.AggMedian && t.IsTimestampUnit() {
		return &planner.Cast{Arg: &planner.ColRef{Col: a.aggCols[i]}, To: t}, nil // DuckDB: median keeps the unit
	}
	return statChecked(statAggNames[name], &planner.ColRef{Col: a.aggCols[i]}), nil
}
