package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindAgg binds an aggregate call to a reference to its Aggregate output.
func (b *binder) bindAgg(fn planner.AggFunc, name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx) (planner.Expr, error) {
	var arg planner.Expr
	if star && fn == planner.AggCount && len(args) == 0 {
		if err := b.aggPlace(at, c); err != nil { // bind_agg_args.go
			return nil, err
		}
		if e.Distinct {
			return nil, b.errAt(at, ErrSyntax, "COUNT(DISTINCT *) is not valid")
		}
		fn = planner.AggCountStar
	} else {
		xs, _, err := b.aggArgs(name, e, args, star, at, c, aggArity{lo: 1, hi: 1, bind: 1})
		if err != nil {
			return nil, err
		}
		arg = xs[0]
	}
	if fn == planner.AggFirst || fn == planner.AggLast {
		if arg.Type().ID == columnar.Null {
			arg = &planner.Const{Val: columnar.NullValue(columnar.TInt32)} // as DuckDB types first(NULL)
		}
		// DISTINCT keeps the first (last) value's place: it changes nothing.
		return b.addAgg(planner.AggCall{Func: fn, Arg: arg, Type: arg.Type()}), nil
	}
	if fn == planner.AggAvg && arg != nil && arg.Type().ID == columnar.Time {
		return b.timeAvg(arg, e.Distinct), nil // bind_agg_time.go
	}
	if fn == planner.AggAvg && arg != nil && arg.Type().ID == columnar.Interval {
		return b.intervalAvg(arg, e.Distinct), nil // bind_agg_time.go
	}
	if call, ok := argMinMaxOf(fn, arg); ok {
		return b.addAgg(call), nil
	}
	if fn == planner.AggAvg && arg != nil && exactAvg(arg.Type()) {
		return b.exactAvg(arg, e.Distinct), nil // bind_agg_avg.go
	}
	if arg != nil && limbSum(fn, arg.Type()) {
		return b.wideSum(arg, e.Distinct), nil
	}
	if fn == planner.AggSum && arg != nil && exactSum(arg.Type()) {
		// HUGEINT or DECIMAL(38,s) as DuckDB; the executor adds in int64s
		// until a group overflows them (aggstate_widesum.go).
		return b.addAgg(planner.AggCall{Func: fn, Arg: arg, Distinct: e.Distinct, Type: limbSumType(arg.Type())}), nil
	}
	t, arg, err := b.aggType(fn, name, arg, args, c)
	if err != nil {
		return nil, err
	}
	return sumWiden(fn, t, b.addAgg(planner.AggCall{Func: fn, Arg: arg, Distinct: e.Distinct, Type: t})), nil
}

// sumWiden gives a SUM of integers narrower than 64 bits DuckDB's type,
// HUGEINT: it runs in 64 bits (BIGINT), which 2^32 rows cannot overflow,
// and its result is widened; a BIGINT sum stays one the index answers
// (planner/index_answer.go). SUMs of BIGINT, UBIGINT and DECIMALs are
// typed HUGEINT / DECIMAL(38,s) themselves (exactSum; windows:
// windowLimbSum).
func sumWiden(fn planner.AggFunc, t columnar.Type, ref planner.Expr) planner.Expr {
	if fn == planner.AggSum && t.ID == columnar.Int64 {
		return &planner.Cast{Arg: ref, To: columnar.THugeint}
	}
	return ref
}

// windowLimbSum reports whether window aggregate fn of type t runs as sums
// of 32-bit limbs: limbSum's, and SUM of BIGINT, UBIGINT and DECIMAL(≤18),
// exact past 64 bits as in DuckDB.
func windowLimbSum(fn planner.AggFunc, t columnar.Type) bool {
	switch t.ID {
	case columnar.Int64, columnar.Uint64, columnar.Decimal:
		return fn == planner.AggSum
	}
	return limbSum(fn, t)
}

// exactSum reports whether SUM of t is typed HUGEINT or DECIMAL(38,s)
// itself and exact in 128 bits: BIGINT, UBIGINT and DECIMALs of up to 18
// digits (wider ones run as limb sums, limbSum; narrower integers in 64
// bits, sumWiden).
func exactSum(t columnar.Type) bool {
	return t.ID == columnar.Int64 || t.ID == columnar.Uint64 || t.ID == columnar.Decimal
}

// addAgg adds call to the Aggregate node (once: an equal call already
// there is reused) and returns a reference to its output.
func (b *binder) addAgg(call planner.AggCall) planner.Expr {
	fn, arg := call.Func, call.Arg
	argText := ""
	if arg != nil {
		argText = arg.String()
	}
	if call.Distinct {
		argText = "DISTINCT " + argText
	}
	key := fmt.Sprintf("%s(%s)", fn, argText)
	key += b.aggTag // bind_agg_volatile.go
	return &planner.ColRef{Col: b.agg.aggCols[b.aggIndex(key, call)]}
}

// aggIndex returns the index of the Aggregate's call under key, adding
// call when there is none. Under a FILTER the call carries it, and the
// key says so: count(x) and count(x) FILTER (WHERE …) are two calls.
//
// The key also holds the types of the arguments and the result, which
// the text leaves out: the constants of sum(0.1::DOUBLE) and
// sum(0.1::FLOAT) print alike, and must not share a sum.
func (b *binder) aggIndex(key string, call planner.AggCall) int {
	a := b.agg
	if a.filter != nil {
		call.Filter = a.filter
		key += " FILTER (WHERE " + a.filter.String() + ")"
		a.filterUsed = true
	}
	name := key
	for _, x := range []planner.Expr{call.Arg, call.Arg2} {
		if x != nil {
			key += "\x00" + x.Type().String()
		}
	}
	key += "\x00" + call.Type.String()
	if i, ok := a.aggKeys[key]; ok {
		return i
	}
	i := len(a.aggs)
	a.aggKeys[key] = i
	a.aggs = append(a.aggs, call)
	a.aggCols = append(a.aggCols, b.newCol(name, "", call.Type))
	return i
}

// aggType returns an aggregate's result type (see types.go) and its
// argument, typed where it was an untyped NULL.
func (b *binder) aggType(fn planner.AggFunc, name string, arg planner.Expr, srcs []callexpr.Expr, c ectx) (columnar.Type, planner.Expr, error) {
	if fn == planner.AggCountStar || fn == planner.AggCount {
		return columnar.TInt64, arg, nil
	}
	t := arg.Type()
	if t.ID == columnar.Null {
		// sum(NULL), min(NULL): DuckDB types the NULL as INTEGER.
		arg = &planner.Const{Val: columnar.NullValue(columnar.TInt32)}
		t = columnar.TInt32
	}
	bad := func() error {
		return b.typeErr(srcs[0], c, "%s(%s) is not supported", strings.ToLower(name), t)
	}
	switch fn {
	case planner.AggSum:
		switch {
		case t.IsFloat():
			return columnar.TFloat64, arg, nil
		case t.ID == columnar.Uhugeint:
			// DuckDB has no SUM of UHUGEINT: it casts the argument to DOUBLE.
			return columnar.TFloat64, &planner.Cast{Arg: arg, To: columnar.TFloat64}, nil
		case t.IsInteger():
			return columnar.TInt64, arg, nil
		case t.ID == columnar.Bool:
			// DuckDB's sum(BOOLEAN) counts the trues, as a HUGEINT (sumWiden).
			return columnar.TInt64, &planner.Cast{Arg: arg, To: columnar.TInt32}, nil
		case t.ID == columnar.Decimal:
			return columnar.DecimalType(maxDecimal, int(t.Scale)), arg, nil
		}
		return t, arg, bad()
	case planner.AggAvg:
		if t.ID == columnar.Uhugeint {
			return columnar.TFloat64, &planner.Cast{Arg: arg, To: columnar.TFloat64}, nil // as DuckDB's implicit cast
		}
		if t.IsNumeric() {
			return columnar.TFloat64, arg, nil
		}
		return t, arg, bad()
	}
	// MIN/MAX: anything orderable.
	if t.ID == columnar.Bool || t.IsNumeric() || t.IsString() || t.IsTemporal() || t.ID == columnar.Interval || t.ID == columnar.Time || t.ID == columnar.TimestampTZ || t.IsTimestampUnit() || t.ID == columnar.Uuid || t.ID == columnar.Bit || t.Wide() || t.ID == columnar.Enum ||
		t.ID == columnar.Geometry { // a GEOMETRY by its WKB bytes, as DuckDB 1.5
		return t, arg, nil
	}
	return t, arg, bad()
}

// finalize rewrites an expression bound above an Aggregate: subtrees equal
// to a group key become references to the key's output column, and any
// input column left over is a grouping error, positioned in src, x's
// syntax (nil: a star's column, at c.sp).
func (b *binder) finalize(x planner.Expr, src callexpr.Expr, c ectx) (planner.Expr, error) {
	a := b.agg
	keys := make(map[string]int, len(a.groups))
	for i, g := range a.groups {
		if !a.isSubqueryKey(i) { // matched by syntax (bind_group_subquery.go)
			keys[g.String()+"\x00"+g.Type().String()] = i
		}
	}
	var rewrite func(planner.Expr) planner.Expr
	rewrite = func(x planner.Expr) planner.Expr {
		if _, isConst := x.(*planner.Const); !isConst {
			if i, ok := keys[x.String()+"\x00"+x.Type().String()]; ok {
				return &planner.ColRef{Col: a.groupCols[i]}
			}
		}
		switch x := x.(type) {
		case *planner.Call:
			args := make([]planner.Expr, len(x.Args))
			for i, y := range x.Args {
				args[i] = rewrite(y)
			}
			return &planner.Call{Fn: x.Fn, Args: args, T: x.T}
		case *planner.Case:
			out := &planner.Case{T: x.T}
			for _, w := range x.Whens {
				out.Whens = append(out.Whens, planner.When{Cond: rewrite(w.Cond), Then: rewrite(w.Then)})
			}
			if x.Else != nil {
				out.Else = rewrite(x.Else)
			}
			return out
		case *planner.Cast:
			return &planner.Cast{Arg: rewrite(x.Arg), To: x.To, Try: x.Try}
		case *planner.Lambda:
			// A lambda may read a group key (HAVING i > ALL([2]) is a
			// lambda over the list, bind_quantified_list.go).
			return &planner.Lambda{Params: x.Params, Body: rewrite(x.Body)}
		}
		return x
	}
	out := rewrite(x)
	input := make(map[planner.ColID]bool, len(b.scope))
	for _, col := range b.scope {
		input[col.ID] = true
	}
	var bad *planner.Column
	planner.WalkExpr(out, func(y planner.Expr) {
		if r, ok := y.(*planner.ColRef); ok && input[r.Col.ID] && bad == nil {
			col := r.Col
			bad = &col
		}
	})
	if bad != nil {
		at := b.ungroupedRef(bad.Name, src, c)
		return nil, b.errAt(at, ErrGrouping, fmt.Sprintf("column %q must appear in the GROUP BY clause or be used in an aggregate function", bad.Name))
	}
	return out, nil
}

// ungroupedRef is the token of the reference to column name that a
// grouping error is about: in src's syntax tree, the first one outside an
// aggregate's arguments (sum(a) + a points at the second a); src's
// leftmost token when the tree has none (a column of *, a name the
// binder made).
func (b *binder) ungroupedRef(name string, src callexpr.Expr, c ectx) int {
	var e ast.Expr
	if s, ok := src.(*syntaxSrc); ok {
		e = s.n
	}
	at := -1
	ast.Inspect(e, func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.Func:
			_, agg := aggFuncs[strings.ToLower(x.Name.Last().Name)]
			return at < 0 && !(agg && x.Over == nil)
		case *ast.ColumnRef:
			if at < 0 && strings.EqualFold(x.Name.Last().Name, name) {
				at = b.q.tokAt(x.Name.Last().Start)
			}
		}
		return at < 0
	})
	if at < 0 {
		return b.leafTok(src, c.sp)
	}
	return at
}

// limbSum reports whether aggregate fn of type t runs as sums of 32-bit
// limbs (wideSum): SUM and AVG of HUGEINT and DECIMAL(19..38).
func limbSum(fn planner.AggFunc, t columnar.Type) bool {
	switch t.ID {
	case columnar.Hugeint, columnar.Decimal128:
		return fn == planner.AggSum || fn == planner.AggAvg
	}
	return false
}

// limbExprs are the 32-bit limbs of x (executor kernel_wide.go): four of
// a 128-bit value, two of a BIGINT or UBIGINT.
func limbExprs(x planner.Expr) []planner.Expr {
	limbs := make([]planner.Expr, 4)
	if !x.Type().Wide() {
		limbs = limbs[:2]
	}
	for k := range limbs {
		limbs[k] = &planner.Call{Fn: "wide_limb", Args: []planner.Expr{x, &planner.Const{Val: columnar.IntValue(columnar.TInt64, int64(k))}}, T: columnar.TInt64}
	}
	return limbs
}

// limbSumType is the type of a limb sum of t: DECIMAL(38,s) for a DECIMAL,
// else HUGEINT.
func limbSumType(t columnar.Type) columnar.Type {
	if t.IsDecimal() {
		return columnar.DecimalType(columnar.MaxDecimal, int(t.Scale))
	}
	return columnar.THugeint
}

// wideSum binds SUM of a HUGEINT or DECIMAL(19..38) argument as
// four BIGINT sums of its 32-bit limbs recombined (executor
// kernel_wide.go), and SUM of a BIGINT or UBIGINT as two: exact, and on the
// int64 aggregation's fast path. SUM is HUGEINT or DECIMAL(38,s), as in
// DuckDB (AVG divides it: exactAvg). With DISTINCT the limbs of the distinct values are
// not the distinct limbs: one 128-bit sum of the values instead (executor
// aggstate_widesum.go).
func (b *binder) wideSum(arg planner.Expr, distinct bool) planner.Expr {
	var sum planner.Expr
	if distinct {
		sum = b.addAgg(planner.AggCall{Func: planner.AggSum, Arg: arg, Distinct: true, Type: limbSumType(arg.Type())})
	} else {
		limbs := limbExprs(arg)
		for k, l := range limbs {
			limbs[k] = b.addAgg(planner.AggCall{Func: planner.AggSum, Arg: l, Type: columnar.TInt64})
		}
		sum = &planner.Call{Fn: "wide_sum", Args: limbs, T: limbSumType(arg.Type())}
	}
	return sum
}

// argMinMaxOf is min or max (fn) of arg as the arg_min/arg_max call that
// computes it, where the plain kernels do not: of TIMETZ, by the local
// time (DuckDB's min/max go by it, executor kernel_timetz.go, its
// operators by the instant); of lists, structs and maps, in their order
// (DuckDB's), the arg_min/arg_max state keeping whole values. ok is false
// for the other types and functions.
func argMinMaxOf(fn planner.AggFunc, arg planner.Expr) (planner.AggCall, bool) {
	if fn != planner.AggMin && fn != planner.AggMax || arg == nil {
		return planner.AggCall{}, false
	}
	k := planner.AggArgMin
	if fn == planner.AggMax {
		k = planner.AggArgMax
	}
	switch t := arg.Type(); {
	case t.ID == columnar.TimeTZ:
		key := &planner.Call{Fn: "timetz_local_key", Args: []planner.Expr{arg}, T: columnar.TInt64}
		return planner.AggCall{Func: k, Arg: arg, Arg2: key, Type: t}, true
	case t.IsNested():
		return planner.AggCall{Func: k, Arg: arg, Arg2: arg, Type: t}, true
	}
	return planner.AggCall{}, false
}
