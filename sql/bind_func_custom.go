package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// argKind is how an argument of a fixed-signature function is converted.
type argKind uint8

const (
	aStr   argKind = iota // VARCHAR
	aInt                  // BIGINT
	aFloat                // DOUBLE
	aTime                 // DATE or TIMESTAMP, kept
)

// moreSig is a fixed signature: the executor function, the arguments
// (the last `optional` ones may be left out) and the result.
type moreSig struct {
	fn       string
	args     []argKind
	optional int
	ret      columnar.Type
}

// scalarMore binds the functions with typing rules of their own (the
// registry's CustomBind functions), then any other registered function by
// its argument rules; ok is false for a name it does not know.
func (b *binder) scalarMore(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	xs = timestampUnitArgs(name, xs)
	if x, ok, err := b.bindTimeOfDayFunc(name, xs, srcs, at, c); ok {
		return x, true, err
	}
	if x, ok, err := b.bindRegexp(name, xs, srcs, at, c); ok {
		return x, true, err
	}
	if x, ok, err := b.bindBytesFunc(name, xs, srcs, at, c); ok {
		return x, true, err
	}
	if x, ok, err := b.bindFormat(name, xs, srcs, at, c); ok {
		return x, true, err
	}
	if x, ok, err := b.bindMathFunc(name, xs, srcs, at, c); ok {
		return x, true, err
	}
	if x, ok, err := b.bindTimeFunc(name, xs, srcs, at, c); ok {
		return x, true, err
	}
	if unit, ok := intervalUnitFuncs[name]; ok {
		if len(xs) != 1 {
			return nil, true, b.arity(at, name, "1")
		}
		x, err := b.intervalOf(xs[0], srcs[0], unit, name, at, c)
		return x, true, err
	}
	switch name {
	case "concat_ws":
		if len(xs) < 2 {
			return nil, true, b.arity(at, name, "2 or more")
		}
		args := make([]planner.Expr, len(xs))
		for i, x := range xs {
			y, err := b.coerce(x, columnar.TVarchar, srcs[i], c)
			if err != nil {
				return nil, true, err
			}
			args[i] = y
		}
		return &planner.Call{Fn: "concat_ws", Args: args, T: columnar.TVarchar}, true, nil
	case "trunc":
		// trunc(x) toward zero: integers are whole already.
		if len(xs) == 2 {
			x, err := b.bindTruncDigits(xs, srcs, c)
			return x, true, err
		}
		if len(xs) != 1 {
			return nil, true, b.arity(at, name, "1 or 2")
		}
		t := xs[0].Type()
		if t.IsInteger() {
			return xs[0], true, nil
		}
		if !t.IsNumeric() && t.ID != columnar.Null {
			return nil, true, b.typeErr(srcs[0], c, "trunc expects a number, got %s", t)
		}
		f, err := b.coerce(xs[0], columnar.TFloat64, srcs[0], c)
		if err != nil {
			return nil, true, err
		}
		return &planner.Call{Fn: "trunc", Args: []planner.Expr{f}, T: columnar.TFloat64}, true, nil
	case "log":
		// log(x) is base 10; log(b, x) base b, as in DuckDB.
		if len(xs) != 1 && len(xs) != 2 {
			return nil, true, b.arity(at, name, "1 or 2")
		}
		if len(xs) == 1 {
			name = "log10"
			break
		}
		var fs [2]planner.Expr
		for i := range 2 {
			f, err := b.coerce(xs[i], columnar.TFloat64, srcs[i], c)
			if err != nil {
				return nil, true, err
			}
			fs[i] = &planner.Call{Fn: "ln", Args: []planner.Expr{f}, T: columnar.TFloat64}
		}
		return &planner.Call{Fn: "/", Args: []planner.Expr{fs[1], fs[0]}, T: columnar.TFloat64}, true, nil
	case "locate", "position":
		// POSITION(sub IN s) parses as LOCATE(sub, s).
		if len(xs) != 2 {
			return nil, true, b.arity(at, name, "2")
		}
		xs, srcs = []planner.Expr{xs[1], xs[0]}, []callexpr.Expr{srcs[1], srcs[0]}
		name = "instr"
	case "greatest", "least":
		if len(xs) == 0 {
			return nil, true, b.arity(at, name, "1 or more")
		}
		args, t, err := b.unify(xs, srcs, c, false, "compare")
		if err != nil {
			return nil, true, err
		}
		return &planner.Call{Fn: name, Args: args, T: t}, true, nil
	case "mod":
		if len(xs) != 2 {
			return nil, true, b.arity(at, name, "2")
		}
		args, t, err := b.unify(xs, srcs, c, false, "apply mod to")
		if err != nil {
			return nil, true, err
		}
		if !t.IsNumeric() {
			return nil, true, b.typeErr(srcs[0], c, "mod expects numbers, got %s", t)
		}
		return &planner.Call{Fn: "%", Args: args, T: t}, true, nil
	case "date_add":
		if len(xs) != 2 || xs[1].Type().ID != columnar.Interval {
			return nil, true, b.typeErr(srcs[0], c, "date_add expects a DATE or TIMESTAMP and an INTERVAL")
		}
		ts, err := b.coerce(xs[0], columnar.TTimestamp, srcs[0], c)
		if err != nil {
			return nil, true, err
		}
		return &planner.Call{Fn: "+", Args: []planner.Expr{ts, xs[1]}, T: columnar.TTimestamp}, true, nil
	case "strptime", "try_strptime":
		if len(xs) == 2 && xs[1].Type().ID == columnar.List {
			// A list of formats, tried in order (executor/call_time.go).
			if e := xs[1].Type().Elem(); e.ID != columnar.Varchar {
				return nil, true, b.typeErr(srcs[1], c, "%s expects a format or a list of formats, got %s", name, xs[1].Type())
			}
			s, err := b.coerce(xs[0], columnar.TVarchar, srcs[0], c)
			if err != nil {
				return nil, true, err
			}
			// The formats are a constant, checked when the call is built.
			return &planner.Call{Fn: name, Args: []planner.Expr{s, planner.FoldExpr(xs[1])}, T: columnar.TTimestamp}, true, nil
		}
	case "strftime":
		// strftime(format, date) is accepted too, as in DuckDB.
		if len(xs) == 2 && xs[1].Type().ID == columnar.TimestampTZ && xs[0].Type().ID != columnar.TimestampTZ {
			// strftime(format, instant) formats its UTC time, as DuckDB.
			xs, srcs = []planner.Expr{utcPayload(xs[1]), xs[0]}, []callexpr.Expr{srcs[1], srcs[0]}
		}
		if len(xs) == 2 && xs[1].Type().IsTemporal() && !xs[0].Type().IsTemporal() && xs[0].Type().ID != columnar.TimestampTZ {
			xs, srcs = []planner.Expr{xs[1], xs[0]}, []callexpr.Expr{srcs[1], srcs[0]}
		}
		if len(xs) == 2 && xs[0].Type().ID == columnar.TimestampTZ {
			// The local time in the session's zone; %z and %Z are the zone's.
			f, err := b.coerce(xs[1], columnar.TVarchar, srcs[1], c)
			if err != nil {
				return nil, true, err
			}
			return planner.FoldExpr(&planner.Call{Fn: "strftime_tz", Args: []planner.Expr{xs[0], f, b.zoneConst()}, T: columnar.TVarchar}), true, nil
		}
	case "to_timestamp":
		if len(xs) == 2 {
			// to_timestamp(text, format): strptime with DuckDB's % codes.
			name = "strptime"
		}
	}
	// The registry's argument rules, after the cases above (locate and
	// position are instr; CustomBind functions the code above let through).
	fs, ok := function.Lookup(name)
	if !ok || fs.Kind != function.Scalar || fs.Internal {
		return nil, false, nil
	}
	x, err := b.callRegistered(fs, name, xs, srcs, at, c)
	if call, isCall := x.(*planner.Call); isCall && err == nil && (fs.Name == "strptime" || fs.Name == "try_strptime") {
		// A format with %z or %Z reads an offset: the result is an instant.
		if k, isConst := planner.FoldExpr(call.Args[1]).(*planner.Const); isConst && !k.Val.Null &&
			(strings.Contains(k.Val.S, "%z") || strings.Contains(k.Val.S, "%Z")) {
			call.T = columnar.TTimestampTZ
		}
	}
	return x, true, err
}

// scalarSig binds a call of a fixed signature, converting the arguments
// by the registry's rules (bind_func_call.go).
func (b *binder) scalarSig(name string, sig moreSig, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) > len(sig.args) || len(xs) < len(sig.args)-sig.optional {
		want := itoa(len(sig.args))
		if sig.optional > 0 {
			want = itoa(len(sig.args)-sig.optional) + " to " + want
		}
		return nil, true, b.arity(at, name, want)
	}
	rules := map[argKind]function.Arg{aStr: function.Str, aInt: function.BigInt, aFloat: function.Double, aTime: function.Temporal}
	args := make([]planner.Expr, len(xs))
	for i, x := range xs {
		y, err := b.convertArg(name, rules[sig.args[i]], x, srcs[i], c)
		if err != nil {
			return nil, true, err
		}
		args[i] = y
	}
	return &planner.Call{Fn: sig.fn, Args: args, T: sig.ret}, true, nil
}

func itoa(n int) string { return columnar.IntValue(columnar.TInt64, int64(n)).String() }
