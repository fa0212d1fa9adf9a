package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// TIMESTAMP WITH TIME ZONE (TIMESTAMPTZ) is an instant; what it looks like
// depends on the session's TimeZone setting, read here at bind time (as
// DuckDB's ICU functions read their ClientContext). Every conversion
// between an instant and local time becomes an executor call with the
// zone's name as an argument (executor/call_timezone.go), so that plans
// are self-contained and constant folding works:
//
//	cast TIMESTAMPTZ → VARCHAR     tz_text(x, zone)
//	cast TIMESTAMPTZ → TIMESTAMP   tz_local(x, zone)     (→ DATE: of that)
//	cast TIMESTAMPTZ → TIMETZ      tz_timetz(x, zone)    (local time, zone's offset)
//	cast TIMESTAMP → TIMESTAMPTZ   tz_instant(x, zone)   (DATE: at midnight)
//	cast VARCHAR → TIMESTAMPTZ     tz_parse(x, zone)     (TRY_CAST: try_tz_parse)
//	x AT TIME ZONE z, timezone(z, x)  tz_local(x, z) of an instant,
//	                               tz_instant(x, z) of a TIMESTAMP
//
// Functions of calendar fields (year, date_part, strftime, date_diff, …)
// read a TIMESTAMPTZ argument as its local time (the cast above); those
// that return a point in time (date_trunc, + INTERVAL) convert back, so
// that date_trunc('day', x) is local midnight as an instant. epoch and
// epoch_ms read the instant itself.

// sessionZone is the session's TimeZone ("UTC" without settings).
func (b *binder) sessionZone() string {
	if sr, ok := b.cat.(SettingsReader); ok {
		if v, err := sr.CurrentSetting("TimeZone"); err == nil && !v.Null && v.S != "" {
			return v.S
		}
	}
	return "UTC"
}

func (b *binder) zoneConst() planner.Expr {
	return &planner.Const{Val: columnar.StringValue(b.sessionZone())}
}

// tzCast converts x to type to when one of them is TIMESTAMPTZ and the
// other a type whose conversion depends on the time zone; ok is false
// otherwise. A constant x is folded (bad text is the caller's error).
func (b *binder) tzCast(x planner.Expr, to columnar.Type, try bool) (planner.Expr, bool) {
	from := x.Type()
	if (from.ID == columnar.TimestampTZ) == (to.ID == columnar.TimestampTZ) || from.ID == columnar.Null {
		return nil, false
	}
	var out planner.Expr
	call := func(fn string, t columnar.Type, arg planner.Expr) planner.Expr {
		return &planner.Call{Fn: fn, Args: []planner.Expr{arg, b.zoneConst()}, T: t}
	}
	switch {
	case to.ID == columnar.TimestampTZ && from.ID == columnar.Varchar:
		fn := "tz_parse"
		if try {
			fn = "try_tz_parse"
		}
		out = call(fn, to, x)
	case to.ID == columnar.TimestampTZ && from.ID == columnar.Timestamp:
		out = call("tz_instant", to, x)
	case to.ID == columnar.TimestampTZ && (from.ID == columnar.Date || from.IsTimestampUnit()):
		out = call("tz_instant", to, &planner.Cast{Arg: x, To: columnar.TTimestamp})
	case from.ID == columnar.TimestampTZ && to.ID == columnar.Varchar:
		out = call("tz_text", to, x)
	case from.ID == columnar.TimestampTZ && to.ID == columnar.Timestamp:
		out = call("tz_local", to, x)
	case from.ID == columnar.TimestampTZ && to.ID == columnar.TimeTZ:
		out = call("tz_timetz", to, x)
	case from.ID == columnar.TimestampTZ && (to.ID == columnar.Date || to.IsTimestampUnit()):
		out = &planner.Cast{Arg: call("tz_local", columnar.TTimestamp, x), To: to}
	default:
		return nil, false
	}
	if _, isConst := x.(*planner.Const); isConst {
		if k, ok := planner.FoldExpr(out).(*planner.Const); ok {
			return k, true
		}
	}
	return out, true
}

// localTime is x as a local TIMESTAMP in the session's zone when x is a
// TIMESTAMPTZ, else x.
func (b *binder) localTime(x planner.Expr) planner.Expr {
	if x.Type().ID != columnar.TimestampTZ {
		return asTimestamp(x) // TIMESTAMP_S/MS/NS: as TIMESTAMP
	}
	y, _ := b.tzCast(x, columnar.TTimestamp, false)
	return y
}

// instantOf converts a local TIMESTAMP back to an instant in the session's
// zone (the result of a calendar function of a TIMESTAMPTZ).
func (b *binder) instantOf(x planner.Expr) planner.Expr {
	y, _ := b.tzCast(x, columnar.TTimestampTZ, false)
	return y
}

// utcPayload reads a TIMESTAMPTZ as the TIMESTAMP of the same payload (its
// UTC time), for functions of the instant itself (epoch).
func utcPayload(x planner.Expr) planner.Expr {
	if x.Type().ID != columnar.TimestampTZ {
		return asTimestamp(x)
	}
	return &planner.Cast{Arg: x, To: columnar.TTimestamp}
}

// atTimeZone binds x AT TIME ZONE zone (timezone(zone, x)): the local time
// in zone of an instant, or the instant of a local time in zone.
func (b *binder) atTimeZone(zone, x planner.Expr, src callexpr.Expr, c ectx) (planner.Expr, error) {
	if zone.Type().ID != columnar.Varchar && zone.Type().ID != columnar.Null {
		return nil, b.typeErr(src, c, "timezone expects a VARCHAR zone name, got %s", zone.Type())
	}
	if k, ok := zone.(*planner.Const); ok && !k.Val.Null {
		if _, err := columnar.LoadZone(k.Val.S); err != nil {
			return nil, b.typeErr(src, c, "%s", err.Error())
		}
	}
	if zone.Type().ID == columnar.Null {
		zone = &planner.Const{Val: columnar.NullValue(columnar.TVarchar)}
	}
	var out planner.Expr
	switch t := x.Type(); t.ID {
	case columnar.TimestampTZ:
		out = &planner.Call{Fn: "tz_local", Args: []planner.Expr{x, zone}, T: columnar.TTimestamp}
	case columnar.Timestamp, columnar.Date, columnar.Varchar, columnar.Null:
		if t.ID == columnar.Varchar && !b.isLiteral(x) {
			return nil, b.typeErr(src, c, "timezone expects TIMESTAMP or TIMESTAMP WITH TIME ZONE, got %s", t)
		}
		y, err := b.coerce(x, columnar.TTimestamp, src, c)
		if err != nil {
			return nil, err
		}
		out = &planner.Call{Fn: "tz_instant", Args: []planner.Expr{y, zone}, T: columnar.TTimestampTZ}
	default:
		return nil, b.typeErr(src, c, "timezone expects TIMESTAMP or TIMESTAMP WITH TIME ZONE, got %s", t)
	}
	return planner.FoldExpr(out), nil
}

// tzSuper is the common type of a TIMESTAMPTZ and another temporal type.
func tzSuper(a, b columnar.Type) (columnar.Type, bool) {
	if a.ID != columnar.TimestampTZ && b.ID != columnar.TimestampTZ {
		return columnar.Type{}, false
	}
	o := a
	if a.ID == columnar.TimestampTZ {
		o = b
	}
	switch o.ID {
	case columnar.TimestampTZ, columnar.Timestamp, columnar.Date:
		return columnar.TTimestampTZ, true
	}
	return columnar.Type{}, false
}

// tzArith binds + and - with a TIMESTAMPTZ operand; ok is false when
// neither operand is one.
func (b *binder) tzArith(fn string, l, r planner.Expr, ls, rs callexpr.Expr, c ectx) (planner.Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	if lt.ID != columnar.TimestampTZ && rt.ID != columnar.TimestampTZ {
		return nil, false, nil
	}
	zone := b.zoneConst()
	switch {
	case lt.ID == columnar.TimestampTZ && rt.ID == columnar.Interval && (fn == "+" || fn == "-"):
		f := "tz_add"
		if fn == "-" {
			f = "tz_sub"
		}
		return planner.FoldExpr(&planner.Call{Fn: f, Args: []planner.Expr{l, r, zone}, T: columnar.TTimestampTZ}), true, nil
	case lt.ID == columnar.Interval && fn == "+":
		return planner.FoldExpr(&planner.Call{Fn: "tz_add", Args: []planner.Expr{r, l, zone}, T: columnar.TTimestampTZ}), true, nil
	case fn == "-" && (lt.ID == columnar.TimestampTZ || b.flexible(l, columnar.TTimestampTZ, false) || lt.IsTemporal()) &&
		(rt.ID == columnar.TimestampTZ || b.flexible(r, columnar.TTimestampTZ, false) || rt.IsTemporal()):
		// Local calendar days, then microseconds (tz_diff).
		lx, err := b.coerce(l, columnar.TTimestampTZ, ls, c)
		if err != nil {
			return nil, true, err
		}
		rx, err := b.coerce(r, columnar.TTimestampTZ, rs, c)
		if err != nil {
			return nil, true, err
		}
		return planner.FoldExpr(&planner.Call{Fn: "tz_diff", Args: []planner.Expr{lx, rx, zone}, T: columnar.TInterval}), true, nil
	}
	return nil, true, b.typeErr(ls, c, "cannot apply %s to %s and %s", fn, lt, rt)
}

// zonePart binds date_part('timezone'|'timezone_hour'|'timezone_minute',
// x): the session zone's UTC offset at a TIMESTAMPTZ in seconds, whole
// hours or the minutes left; 0 for local types, as in DuckDB.
func (b *binder) zonePart(part string, x planner.Expr, src callexpr.Expr, c ectx) (planner.Expr, error) {
	zone := b.zoneConst()
	if x.Type().ID != columnar.TimestampTZ {
		// The offset of UTC: 0 (NULL for NULL).
		zone = &planner.Const{Val: columnar.StringValue("UTC")}
		y, err := b.coerce(x, columnar.TTimestamp, src, c)
		if err != nil {
			return nil, err
		}
		x = &planner.Cast{Arg: y, To: columnar.TTimestampTZ}
	}
	off := planner.Expr(&planner.Call{Fn: "tz_offset", Args: []planner.Expr{x, zone}, T: columnar.TInt64})
	k := func(n int64) planner.Expr { return &planner.Const{Val: columnar.IntValue(columnar.TInt64, n)} }
	switch part {
	case "timezone_hour":
		off = &planner.Call{Fn: "//", Args: []planner.Expr{off, k(3600)}, T: columnar.TInt64}
	case "timezone_minute":
		off = &planner.Call{Fn: "//", Args: []planner.Expr{&planner.Call{Fn: "%", Args: []planner.Expr{off, k(3600)}, T: columnar.TInt64}, k(60)}, T: columnar.TInt64}
	}
	return planner.FoldExpr(off), nil
}

// bindTimezoneCall binds timezone(zone, ts), which is ts AT TIME ZONE
// zone; other arities are left to the registry's rules.
func bindTimezoneCall(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(args) != 2 {
		return nil, false, nil
	}
	z, err := b.bindExpr(args[0], c)
	if err != nil {
		return nil, true, err
	}
	x, err := b.bindExpr(args[1], c)
	if err != nil {
		return nil, true, err
	}
	y, err := b.atTimeZone(z, x, args[1], c)
	return y, true, err
}
