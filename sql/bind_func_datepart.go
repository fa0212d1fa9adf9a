package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// date_part, EXTRACT and date_trunc. A constant part is checked and made
// canonical here (columnar.DatePartName), so the executor's kernel is
// chosen for it once; date_part also takes a part per row (a VARCHAR
// column: the executor reads each row's name) and a constant list of
// parts, whose answer is a STRUCT of them, as in DuckDB.

// dateParts maps accepted part names to the canonical names the executor
// implements.
var dateParts = map[string]string{}

func init() {
	for _, n := range columnar.DatePartSpellings() {
		dateParts[n], _ = columnar.DatePartName(n)
	}
}

var truncParts = map[string]bool{
	"millennium": true, "century": true, "decade": true, "year": true, "quarter": true, "month": true,
	"week": true, "day": true, "hour": true, "minute": true, "second": true, "millisecond": true, "microsecond": true,
}

// bindDatePartCall binds date_part(part, ts): a constant part name, a
// VARCHAR expression of one per row, or a constant list of them.
func bindDatePartCall(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(args) != 2 {
		return nil, true, b.arity(at, name, "2")
	}
	if part, ok := args[0].(*callexpr.SQLVal); ok && part.Type == callexpr.StrVal {
		x, err := b.bindDatePart(strings.ToLower(string(part.Val)), args[1], b.q.tok(part.At), c)
		return x, true, err
	}
	p, err := b.bindExpr(args[0], c)
	if err != nil {
		return nil, true, err
	}
	if k, ok := planner.FoldExpr(p).(*planner.Const); ok && k.Val.Type.ID == columnar.List && !k.Val.Null {
		x, err := b.bindDatePartStruct(k.Val, args, at, c)
		return x, true, err
	}
	if t := p.Type().ID; t != columnar.Varchar && t != columnar.Null {
		return nil, true, b.typeErr(args[0], c, "%s expects a part name or a list of them, got %s", name, p.Type())
	}
	x, err := b.datePartArg(args[1], c)
	if err != nil {
		return nil, true, err
	}
	// A part per row: BIGINT parts only (DuckDB refuses epoch and julian
	// there); the executor canonicalizes each row's name.
	return &planner.Call{Fn: "date_part", Args: []planner.Expr{p, b.localTime(x)}, T: columnar.TInt64}, true, nil
}

// bindDateTruncCall binds date_trunc(part, ts).
func bindDateTruncCall(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(args) != 2 {
		return nil, true, b.arity(at, name, "2")
	}
	x, err := b.bindDateTrunc(args, at, c)
	return x, true, err
}

// bindDatePart binds date_part / EXTRACT of a constant part written at
// token partAt.
func (b *binder) bindDatePart(part string, arg callexpr.Expr, partAt int, c ectx) (planner.Expr, error) {
	p, ok := dateParts[part]
	if !ok {
		return nil, b.errAt(partAt, ErrType, fmt.Sprintf("unknown date part %q%s", part, didYouMean(part, columnar.DatePartSpellings())))
	}
	x, err := b.datePartArg(arg, c)
	if err != nil {
		return nil, err
	}
	if x.Type().ID == columnar.Date && strings.HasPrefix(p, "timezone") {
		// DuckDB has no zone parts of a DATE (in a STRUCT of parts, 0).
		return nil, b.typeErr(arg, c, "date_part %q is not defined for DATE", part)
	}
	return b.datePartOf(p, x, arg, c)
}

// datePartArg binds date_part's value: a DATE, TIMESTAMP (any unit or
// zone), TIME or INTERVAL; text is read as a TIMESTAMP.
func (b *binder) datePartArg(arg callexpr.Expr, c ectx) (planner.Expr, error) {
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
	if t.ID != columnar.Time && !t.IsTemporal() && !t.IsTimestampUnit() && t.ID != columnar.Interval && t.ID != columnar.Null && t.ID != columnar.TimestampTZ {
		return nil, b.typeErr(arg, c, "date_part expects DATE, TIMESTAMP, TIME or INTERVAL, got %s", t)
	}
	return x, nil
}

// datePartOf is canonical part p of bound value x.
func (b *binder) datePartOf(p string, x planner.Expr, arg callexpr.Expr, c ectx) (planner.Expr, error) {
	if x.Type().ID == columnar.Time {
		if err := b.checkTimePart(p, arg, c); err != nil {
			return nil, err
		}
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
	if columnar.FloatDatePart(p) {
		rt = columnar.TFloat64
	}
	return &planner.Call{Fn: "date_part", Args: []planner.Expr{&planner.Const{Val: columnar.StringValue(p)}, x}, T: rt}, nil
}

// bindDatePartStruct binds date_part(['year', 'month', …], ts): a STRUCT
// with a field per part, named as written (NULL for a NULL ts; NULL
// fields for an infinite one).
func (b *binder) bindDatePartStruct(parts columnar.Value, args []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	x, err := b.datePartArg(args[1], c)
	if err != nil {
		return nil, err
	}
	var fields []columnar.Field
	var vals []planner.Expr
	seen := map[string]bool{}
	for i, e := range parts.Elems {
		if e.Null || e.Type.ID != columnar.Varchar {
			return nil, b.typeErr(args[0], c, "date_part expects a list of part names")
		}
		p, ok := dateParts[strings.ToLower(e.S)]
		if !ok {
			return nil, b.errAt(b.listElemTok(args[0], i, c), ErrType, fmt.Sprintf("unknown date part %q%s", e.S, didYouMean(e.S, columnar.DatePartSpellings())))
		}
		// Two spellings of one part ('month', 'mon') are two fields; a
		// name written twice (in any case) is DuckDB's duplicate entry.
		if seen[strings.ToLower(e.S)] {
			return nil, b.typeErr(args[0], c, "duplicate struct entry name %q in date_part", e.S)
		}
		seen[strings.ToLower(e.S)] = true
		v, err := b.datePartOf(p, x, args[1], c)
		if err != nil {
			return nil, err
		}
		fields = append(fields, columnar.Field{Name: e.S, Type: v.Type()})
		vals = append(vals, v)
	}
	if len(fields) == 0 {
		return nil, b.typeErr(args[0], c, "date_part expects at least one part name")
	}
	t := columnar.StructOf(fields...)
	st := &planner.Call{Fn: "struct_pack", Args: vals, T: t}
	isNull := &planner.Call{Fn: "is_null", Args: []planner.Expr{x}, T: columnar.TBool}
	return &planner.Case{Whens: []planner.When{{Cond: isNull, Then: &planner.Const{Val: columnar.NullValue(t)}}}, Else: st, T: t}, nil
}

// listElemTok is the token of element i of list expression src, when src
// is a list written out ([…]); else src's own.
func (b *binder) listElemTok(src callexpr.Expr, i int, c ectx) int {
	if s, ok := src.(*syntaxSrc); ok {
		if l, ok := s.n.(*ast.List); ok && i < len(l.Elems) {
			return b.astLeaf(l.Elems[i])
		}
	}
	return b.leafTok(src, c.sp)
}

func (b *binder) bindDateTrunc(args []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	lit, ok := args[0].(*callexpr.SQLVal)
	if !ok || lit.Type != callexpr.StrVal {
		return nil, b.typeErr(args[0], c, "date_trunc expects a constant part name")
	}
	part := strings.ToLower(string(lit.Val))
	p := dateParts[part]
	if !truncParts[p] {
		return nil, b.errAt(b.q.tok(lit.At), ErrType, fmt.Sprintf("unknown date_trunc part %q", part))
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
		// DuckDB truncates a DATE as the TIMESTAMP of its midnight and
		// returns a TIMESTAMP (a date outside TIMESTAMP's range is its
		// conversion error).
		// A run-time cast, checked: a date outside TIMESTAMP's range is an
		// error, not a clamped midnight.
		t = columnar.TTimestamp
		x = &planner.Cast{Arg: x, To: t}
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

// timeParts are the date_part parts defined on a TIME (DuckDB has no day,
// month or year of a time of day).
var timeParts = map[string]bool{
	"hour": true, "minute": true, "second": true, "millisecond": true, "microsecond": true, "epoch": true,
}

// checkTimePart refuses a date_part part a TIME does not have.
func (b *binder) checkTimePart(part string, arg callexpr.Expr, c ectx) error {
	if timeParts[part] {
		return nil
	}
	return b.typeErr(arg, c, "date_part %q is not defined for TIME (it has hour, minute, second, millisecond, microsecond and epoch)", part)
}
