package sql

import (
	"fmt"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

var aggFuncs = map[string]planner.AggFunc{
	"count": planner.AggCount, "sum": planner.AggSum, "avg": planner.AggAvg, "mean": planner.AggAvg,
	"min": planner.AggMin, "max": planner.AggMax,
}

// knownFuncs are the names an unknown function's "did you mean" hint
// picks from: every name of the registry (package function), which
// TestFunctionNamesRegistered keeps a superset of the names the binder
// dispatches on.
func knownFuncs() []string { return function.Names() }

// args returns the argument expressions of a call (nil for count(*)).
func (b *binder) callArgs(e *callexpr.FuncExpr, at int) ([]callexpr.Expr, bool, error) {
	var out []callexpr.Expr
	star := false
	for _, a := range e.Exprs {
		switch a := a.(type) {
		case *callexpr.AliasedExpr:
			out = append(out, a.Expr)
		case *callexpr.StarExpr:
			star = true
		default:
			return nil, false, b.errAt(at, ErrSyntax, "unexpected argument")
		}
	}
	return out, star, nil
}

func (b *binder) bindFunc(e *callexpr.FuncExpr, c ectx) (planner.Expr, error) {
	name := e.Name.Lowered()
	at := b.q.findName("", e.Name.String(), c.sp)
	if !e.Qualifier.IsEmpty() {
		return nil, b.errAt(at, ErrUnknownFunction, fmt.Sprintf("unknown function %q", e.Qualifier.String()+"."+name))
	}
	args, star, err := b.callArgs(e, at)
	if err != nil {
		return nil, err
	}
	if x, ok, err := b.bindAggRewrite(name, e, args, star, at, c); ok {
		return x, err
	}
	if fn, ok := aggFuncs[name]; ok {
		return b.bindAgg(fn, name, e, args, star, at, c)
	}
	if fn, ok := holisticAggs[name]; ok {
		return b.bindHolistic(fn, name, e, args, star, at, c)
	}
	if star {
		return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("%s(*) is not valid", name))
	}
	if e.Distinct {
		return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("DISTINCT is only valid in aggregate functions, not %s", name))
	}
	if name == "unnest" && len(args) == 1 {
		// A special form (DuckDB's BoundUnnestExpression), not a function
		// of the registry.
		x, err := b.bindExpr(args[0], c)
		if err != nil {
			return nil, err
		}
		return b.unnestCall(x, args[0], false, 1, at, c) // bind_unnest.go
	}
	return b.bindScalarCall(name, args, at, c) // bind_func_hooks.go
}

func (b *binder) arity(at int, name, want string) error {
	return b.errAt(at, ErrType, fmt.Sprintf("%s expects %s arguments", name, want))
}

// roundedDecimal narrows the scale of a rounded DECIMAL result to the digits
// kept, as DuckDB does for round/floor/ceil of DECIMAL(p,s):
// the kernel keeps its input type, and the cast of a value already rounded
// to d digits is exact. Other types, and digits not known at bind time
// (or not below the scale), are left alone.
func roundedDecimal(x planner.Expr, digits int) planner.Expr {
	t := x.Type()
	p, s := int(t.Precision), int(t.Scale)
	switch {
	case !t.IsDecimal() || digits >= s:
		return x
	case digits < 0:
		// Rounding left of the point keeps no decimals and the precision,
		// and the integer digits gain one for the carry
		// (ROUND(9999::DECIMAL(4,0), -1) is 10000, DECIMAL(5,0)); a scaled
		// input already has that room (DECIMAL(10,3) gives DECIMAL(10,0)).
		return &planner.Cast{Arg: x, To: columnar.DecimalType(min(max(p, p-s+1), columnar.MaxDecimal), 0)}
	}
	// Keeping the precision leaves room for the carry (round(9.5) = 10).
	return &planner.Cast{Arg: x, To: columnar.DecimalType(p, digits)}
}

// dateParts maps accepted part names to the canonical names the executor
// implements.
var dateParts = map[string]string{
	"year": "year", "years": "year", "y": "year", "yr": "year", "yrs": "year",
	"month": "month", "months": "month", "mon": "month",
	"day": "day", "days": "day", "d": "day", "dayofmonth": "day",
	"hour": "hour", "hours": "hour", "h": "hour",
	"minute": "minute", "minutes": "minute", "min": "minute", "m": "minute",
	"second": "second", "seconds": "second", "s": "second", "sec": "second",
	"millisecond": "millisecond", "milliseconds": "millisecond", "ms": "millisecond",
	"microsecond": "microsecond", "microseconds": "microsecond", "us": "microsecond",
	"epoch": "epoch", "dow": "dow", "dayofweek": "dow", "weekday": "dow", "isodow": "isodow",
	"doy": "doy", "dayofyear": "doy", "week": "week", "weeks": "week", "w": "week", "weekofyear": "week",
	"quarter": "quarter", "quarters": "quarter", "decade": "decade", "century": "century",
	"millennium": "millennium", "isoyear": "isoyear",
	"timezone": "timezone", "timezone_hour": "timezone_hour", "timezone_minute": "timezone_minute",
}

var truncParts = map[string]bool{
	"millennium": true, "century": true, "decade": true, "year": true, "quarter": true, "month": true,
	"week": true, "day": true, "hour": true, "minute": true, "second": true, "millisecond": true, "microsecond": true,
}

// bindDatePartCall binds date_part(part, ts): the part is a constant,
// validated here.
func bindDatePartCall(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(args) != 2 {
		return nil, true, b.arity(at, name, "2")
	}
	part, ok := args[0].(*callexpr.SQLVal)
	if !ok || part.Type != callexpr.StrVal {
		return nil, true, b.typeErr(args[0], c, "%s expects a constant part name", name)
	}
	x, err := b.bindDatePart(strings.ToLower(string(part.Val)), args[1], at, c)
	return x, true, err
}

// bindDateTruncCall binds date_trunc(part, ts).
func bindDateTruncCall(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(args) != 2 {
		return nil, true, b.arity(at, name, "2")
	}
	x, err := b.bindDateTrunc(args, at, c)
	return x, true, err
}

// bindDatePart binds date_part / EXTRACT.
func (b *binder) bindDatePart(part string, arg callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	p, ok := dateParts[part]
	if !ok {
		names := make([]string, 0, len(dateParts))
		for k := range dateParts {
			names = append(names, k)
		}
		sort.Strings(names) // a deterministic hint among equally close names
		return nil, b.errAt(b.partTok(part, at, c), ErrType, fmt.Sprintf("unknown date part %q%s", part, didYouMean(part, names)))
	}
	x, err := b.bindExpr(arg, c)
	if err != nil {
		return nil, err
	}
	if b.flexible(x, columnar.TTimestamp, false) {
		if x, err = b.coerce(x, columnar.TTimestamp, arg, c); err != nil {
			return nil, err
		}
	}
	t := x.Type()
	if t.ID == columnar.Time {
		if err := b.checkTimePart(p, arg, c); err != nil {
			return nil, err
		}
	} else if !t.IsTemporal() && !t.IsTimestampUnit() && t.ID != columnar.Interval && t.ID != columnar.Null && t.ID != columnar.TimestampTZ {
		return nil, b.typeErr(arg, c, "date_part expects DATE, TIMESTAMP, TIME or INTERVAL, got %s", t)
	}
	if strings.HasPrefix(p, "timezone") {
		return b.zonePart(p, x, arg, c) // bind_timezone.go
	}
	if p == "epoch" {
		x = utcPayload(x) // the instant's, not the local time's
	} else {
		x = b.localTime(x)
	}
	rt := columnar.TInt64
	if p == "epoch" {
		rt = columnar.TFloat64
	}
	return &planner.Call{Fn: "date_part", Args: []planner.Expr{&planner.Const{Val: columnar.StringValue(p)}, x}, T: rt}, nil
}

func (b *binder) partTok(part string, at int, c ectx) int {
	i := b.q.findToken(c.sp, func(t token) bool {
		return (t.kind == tkString || t.kind == tkIdent) && strings.EqualFold(t.val, part)
	})
	if i == c.sp.lo {
		return at
	}
	return i
}

func (b *binder) bindDateTrunc(args []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	lit, ok := args[0].(*callexpr.SQLVal)
	if !ok || lit.Type != callexpr.StrVal {
		return nil, b.typeErr(args[0], c, "date_trunc expects a constant part name")
	}
	part := strings.ToLower(string(lit.Val))
	p := dateParts[part]
	if !truncParts[p] {
		return nil, b.errAt(b.partTok(part, at, c), ErrType, fmt.Sprintf("unknown date_trunc part %q", part))
	}
	x, err := b.bindExpr(args[1], c)
	if err != nil {
		return nil, err
	}
	if b.flexible(x, columnar.TTimestamp, false) {
		if x, err = b.coerce(x, columnar.TTimestamp, args[1], c); err != nil {
			return nil, err
		}
	}
	x = asTimestamp(x) // DuckDB: date_trunc of a TIMESTAMP_NS is a TIMESTAMP
	t := x.Type()
	switch t.ID {
	case columnar.Date:
	case columnar.Timestamp:
	case columnar.TimestampTZ:
		// Local midnight (or hour…) of the session's zone, as an instant.
		lt := b.localTime(x)
		return b.instantOf(&planner.Call{Fn: "date_trunc", Args: []planner.Expr{&planner.Const{Val: columnar.StringValue(p)}, lt}, T: columnar.TTimestamp}), nil
	case columnar.Null:
		t = columnar.TTimestamp
		if x, err = b.coerce(x, t, args[1], c); err != nil {
			return nil, err
		}
	default:
		return nil, b.typeErr(args[1], c, "date_trunc expects DATE or TIMESTAMP, got %s", t)
	}
	return &planner.Call{Fn: "date_trunc", Args: []planner.Expr{&planner.Const{Val: columnar.StringValue(p)}, x}, T: t}, nil
}
