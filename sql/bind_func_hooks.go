package sql

import (
	"fmt"
	"github.com/b2sql/b2sql/columnar"
	"maps"
	"slices"

	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// A scalar function call binds through the registry (package function):
// the name or alias finds the function's Set, and then
//
//   - a CustomBind set is typed by its hook in bindHooks, keyed by the
//     set's name: constant part names, DECIMAL scales, arguments unified
//     to one type, nested element types, calls rewritten to others
//     (locate is instr, log(b, x) is ln(x)/ln(b)). A hook may leave a
//     call to the overloads' argument rules (callRules);
//   - any other set is typed by its overloads' argument rules alone
//     (callRegistered, bind_func_call.go).
//
// TestBindHooks checks that the hooks and the CustomBind sets are the
// same names, so neither can drift from the other.

// bindHook types one call of a CustomBind function. f.name is the name
// as written (lower case), for errors and for aliases typed apart (len of
// a list).
type bindHook func(b *binder, f *fnCall) (planner.Expr, error)

// fnCall is a call of a registered scalar function.
type fnCall struct {
	name string
	set  *function.Set
	srcs []callexpr.Expr // the argument expressions, not bound yet
	at   int             // the name's token
	c    ectx
}

// bindScalarCall binds a call of the scalar function name.
func (b *binder) bindScalarCall(name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	s, ok := function.Lookup(name)
	if !ok || s.Internal {
		// An error in an argument comes before the unknown name.
		if _, err := b.bindArgs(args, c); err != nil {
			return nil, err
		}
		return nil, b.errAt(at, ErrUnknownFunction, fmt.Sprintf("unknown function %q%s", name, didYouMean(name, knownFuncs())))
	}
	if h, ok := bindHooks[s.Name]; ok {
		return h(b, &fnCall{name: name, set: s, srcs: args, at: at, c: c})
	}
	xs, err := b.bindArgs(args, c)
	if err != nil {
		return nil, err
	}
	return b.callRegistered(s, name, xs, args, at, c) // bind_func_call.go
}

// bindArgs binds the arguments of a call.
func (b *binder) bindArgs(args []callexpr.Expr, c ectx) ([]planner.Expr, error) {
	xs := make([]planner.Expr, len(args))
	for i, a := range args {
		x, err := b.bindExpr(a, c)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	return xs, nil
}

// boundFunc types a call over its bound arguments; ok is false for a call
// it leaves to the next one, and the last to the registry's rules.
type boundFunc func(b *binder, name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error)

// unboundFunc types a call from its argument expressions (a constant part
// name, CASE for if); ok is false for a call it leaves to the rules.
type unboundFunc func(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error)

// bound is a hook over bound arguments, TIMESTAMP_S/MS/NS read as
// TIMESTAMP where no overload keeps them (types_timestamp_unit.go): fs in
// turn, then the registry's rules.
func bound(fs ...boundFunc) bindHook { return boundHook(true, fs) }

// boundAsIs is bound without the TIMESTAMP conversion of its arguments.
func boundAsIs(fs ...boundFunc) bindHook { return boundHook(false, fs) }

func boundHook(units bool, fs []boundFunc) bindHook {
	return func(b *binder, f *fnCall) (planner.Expr, error) {
		xs, err := b.bindArgs(f.srcs, f.c)
		if err != nil {
			return nil, err
		}
		if units {
			xs = timestampUnitArgs(f.name, xs)
		}
		if x, ok, err := b.bitCall(f, xs); ok { // bind_func_bit.go
			return x, err
		}
		for _, fn := range fs {
			if x, ok, err := fn(b, f.name, xs, f.srcs, f.at, f.c); ok {
				return x, err
			}
		}
		if !units {
			return b.callRegistered(f.set, f.name, xs, f.srcs, f.at, f.c)
		}
		return b.callRules(f.name, xs, f.srcs, f.at, f.c)
	}
}

// unbound is a hook over the argument expressions, falling back to bound
// arguments and the registry's rules.
func unbound(fn unboundFunc) bindHook {
	rules := bound()
	return func(b *binder, f *fnCall) (planner.Expr, error) {
		if x, ok, err := fn(b, f.name, f.srcs, f.at, f.c); ok {
			return x, err
		}
		return rules(b, f)
	}
}

// bindHooks are the hooks of the CustomBind functions, by set name. They
// are set in init: the hooks call back into bindExpr, which reads them.
var bindHooks map[string]bindHook

func init() {
	bindHooks = map[string]bindHook{
		// conditional (bind_func_cond.go)
		"if": unbound((*binder).bindCondFunc), "typeof": unbound((*binder).bindCondFunc), "pg_typeof": unbound((*binder).bindCondFunc),
		"coalesce": boundAsIs((*binder).bindCoalesce), "ifnull": boundAsIs((*binder).bindCoalesce),
		"nullif": boundAsIs((*binder).bindCoalesce),
		"try":    func(b *binder, f *fnCall) (planner.Expr, error) { return b.bindTry(f.name, f.srcs, f.at, f.c) }, // bind_try.go
		// math (bind_func_math.go)
		"floor": boundAsIs((*binder).bindRounding), "ceil": boundAsIs((*binder).bindRounding),
		"round": boundAsIs((*binder).bindRounding),
		"trunc": bound((*binder).bindTrunc), "log": bound((*binder).bindLog), "mod": bound((*binder).bindMod),
		"fmod": bound((*binder).bindFloatDivision), "fdiv": bound((*binder).bindFloatDivision), // bind_func_math.go
		"greatest": bound((*binder).bindGreatest), "least": bound((*binder).bindGreatest),
		"pi": bound((*binder).bindMathFunc), "bit_count": bound((*binder).bindMathFunc),
		"xor":              bound((*binder).bindXor),                 // bind_func_bit.go
		"decimal_division": boundAsIs((*binder).bindDecimalDivision), // bind_func_decimal.go
		"random":           unbound(bindRandomCall), "setseed": unbound(bindRandomCall),
		"nextval": unbound(bindSequenceCall), "currval": unbound(bindSequenceCall), // sequence.go
		// string (bind_func_string.go, bind_func_regexp.go)
		"concat_ws": bound((*binder).bindConcatWS), "locate": bound((*binder).bindLocate),
		"printf": bound((*binder).bindFormat), "format": bound((*binder).bindFormat),
		// date and time (bind_func_dates.go, bind_func_time.go, bind_func_timeofday.go)
		"date_part": unbound(bindDatePartCall), "date_trunc": unbound(bindDateTruncCall),
		"timezone": unbound(bindTimezoneFunc),
		"epoch_ms": unbound((*binder).bindDateFunc),
		"epoch_us": bound((*binder).bindTimeOfDayFunc),
		"epoch_ns": bound((*binder).bindTimeOfDayFunc), "date_diff": bound((*binder).bindTimeOfDayFunc),
		"date_sub": bound((*binder).bindTimeOfDayFunc),
		"date_add": bound((*binder).bindTimeOfDayFunc, (*binder).bindDateAdd),
		"age":      bound((*binder).bindTimeFunc), "nanosecond": boundAsIs((*binder).bindTimeFunc),
		"time_bucket": bound((*binder).bindTimeFunc),
		"strptime":    bound((*binder).bindStrptimeList), "try_strptime": bound((*binder).bindStrptimeList),
		"strftime": bound((*binder).bindStrftime), "to_timestamp": bound((*binder).bindToTimestamp),
		// ENUM (bind_func_enum.go)
		"enum_range": bound((*binder).bindEnumFunc), "enum_first": bound((*binder).bindEnumFunc),
		"enum_last": bound((*binder).bindEnumFunc), "enum_code": bound((*binder).bindEnumFunc),
		"enum_range_boundary": bound((*binder).bindEnumFunc),
		// geometry (bind_func_geometry.go)
		"st_setcrs": bound((*binder).bindSetCRS),
		// system (bind_settings.go)
		"current_setting":  unbound(bindCurrentSettingCall),
		"getvariable":      unbound(bindGetVariableCall),
		"current_database": unbound(bindCatalogName), "current_schema": unbound(bindCatalogName), "current_schemas": unbound(bindCatalogName),
		"equi_width_bins": boundAsIs((*binder).bindEquiWidthBins), // bind_func_bins.go
	}
	for _, n := range []string{"regexp_matches", "regexp_full_match", "regexp_replace", "regexp_extract", "regexp_extract_all"} {
		bindHooks[n] = bound((*binder).bindRegexp)
	}
	// The families whose binders map the names they take.
	byName := func(h bindHook, names ...string) {
		for _, n := range names {
			if s, ok := function.Lookup(n); ok {
				bindHooks[s.Name] = h
			}
		}
	}
	byName(bound((*binder).bindBytesFunc), append(slices.Collect(maps.Keys(bytesFuncs)), "hash")...)
	byName(bound((*binder).bindIntervalUnit), slices.Collect(maps.Keys(intervalUnitFuncs))...)
	byName(unbound((*binder).bindDateFunc), slices.Collect(maps.Keys(datePartFuncs))...) // year(ts), …
	byName(unbound((*binder).bindDateFunc), slices.Collect(maps.Keys(dateFuncs))...)     // now, localtimestamp, current_time
}

// bitCall types a call of f with a BIT argument by f's BIT overload
// (executor/func_bit.go): sets whose other overloads a hook types
// (bit_count, octet_length, xor) take a BIT by the registry's rules,
// before the hook; ok is false when no argument is a BIT or f has no BIT
// overload.
func (b *binder) bitCall(f *fnCall, xs []planner.Expr) (planner.Expr, bool, error) {
	isBit := false
	for _, x := range xs {
		isBit = isBit || x.Type().ID == columnar.Bit
	}
	if !isBit {
		return nil, false, nil
	}
	for _, o := range f.set.Overloads {
		if o.Takes(len(xs)) && o.Arg(0) == function.Bit {
			x, err := b.callRegistered(f.set, f.name, xs, f.srcs, f.at, f.c)
			return x, true, err
		}
	}
	return nil, false, nil
}
