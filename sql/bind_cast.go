package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// bindCollate binds the casts the rewriter encoded as COLLATE markers.
func (b *binder) bindCollate(e *sqlparser.CollateExpr, c ectx) (planner.Expr, error) {
	if z, ok := strings.CutPrefix(e.Collation, markAtZone); ok {
		x, err := b.bindExpr(e.Expr, c)
		if err != nil {
			return nil, err
		}
		return b.atTimeZone(&planner.Const{Val: columnar.StringValue(z)}, x, e.Expr, c) // bind_timezone.go
	}
	var mark string
	for _, m := range []string{markCast, markTryCast, markLit} {
		if strings.HasPrefix(e.Collation, m) {
			mark = m
		}
	}
	if mark == "" {
		return nil, b.errAt(b.q.findKeyword("COLLATE", c.sp), ErrUnsupported, "COLLATE is not supported")
	}
	to, ok := typeFromMarker(strings.TrimPrefix(e.Collation, mark))
	if !ok {
		return nil, b.errAt(c.sp.lo, ErrType, fmt.Sprintf("unknown type %q", strings.TrimPrefix(e.Collation, mark)))
	}
	x, err := b.bindExpr(e.Expr, c)
	if err != nil {
		return nil, err
	}
	return b.castTo(x, e.Expr, to, mark == markTryCast, c)
}

// castTo builds CAST(x AS to), or TRY_CAST; src is x's syntax.
func (b *binder) castTo(x planner.Expr, src sqlparser.Expr, to columnar.Type, try bool, c ectx) (planner.Expr, error) {
	if !canCast(x.Type(), to) {
		return nil, b.typeErr(src, c, "cannot cast %s to %s", x.Type(), to)
	}
	if try {
		if y, ok := b.tzCast(x, to, true); ok { // bind_timezone.go
			return y, nil
		}
		if k, ok := x.(*planner.Const); ok {
			if k.Val.Type.IsString() && to.IsNested() {
				v, _ := executor.TryCastValue(k.Val, to) // '[1, x]' reads [1, NULL]
				return &planner.Const{Val: v}, nil
			}
			if v, done, err := castConst(k.Val, to); done {
				if err != nil {
					return &planner.Const{Val: columnar.NullValue(to)}, nil
				}
				return &planner.Const{Val: v}, nil
			}
		}
		if x.Type() == to {
			return x, nil
		}
		return &planner.Cast{Arg: x, To: to, Try: true}, nil
	}
	if x.Type().IsNested() && !to.IsNested() {
		return &planner.Cast{Arg: x, To: to}, nil // coerce refuses it implicitly
	}
	out, err := b.coerce(x, to, src, c)
	if err != nil {
		return nil, err
	}
	if k, ok := out.(*planner.Const); ok {
		if _, lit := b.lits[k]; lit {
			// An explicitly cast literal is typed: it no longer adapts.
			out = &planner.Const{Val: k.Val}
		}
	}
	return out, nil
}

// bindInterval binds INTERVAL 'text' and INTERVAL n unit to a constant.
func (b *binder) bindInterval(e *sqlparser.IntervalExpr, c ectx) (planner.Expr, error) {
	at := b.q.findKeyword("INTERVAL", c.sp)
	v, ok := e.Expr.(*sqlparser.SQLVal)
	neg := false
	if u, isU := e.Expr.(*sqlparser.UnaryExpr); isU && u.Operator == sqlparser.UMinusStr {
		v, ok = u.Expr.(*sqlparser.SQLVal)
		neg = true
	}
	if !ok {
		if e.Unit == markNoUnit {
			return nil, b.errAt(at, ErrUnsupported, "INTERVAL needs a constant")
		}
		// INTERVAL (expr) unit: computed per row.
		x, err := b.bindExpr(e.Expr, c)
		if err != nil {
			return nil, err
		}
		return b.intervalOf(x, e.Expr, strings.ToLower(e.Unit), "INTERVAL", at, c)
	}
	text := string(v.Val)
	bad := func() error {
		return b.errAt(at, ErrType, fmt.Sprintf("could not cast %s to INTERVAL", quoteSQL(text)))
	}
	var iv columnar.IntervalParts
	if e.Unit == markNoUnit {
		var ok bool
		if iv, ok = columnar.ParseInterval(text); !ok || v.Type != sqlparser.StrVal {
			return nil, bad()
		}
	} else {
		// INTERVAL '1.5' HOUR: DuckDB truncates the number to whole units,
		// but for seconds and milliseconds (to_seconds(DOUBLE)).
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || math.Abs(f) >= 1<<63 {
			return nil, bad()
		}
		if _, ok := columnar.IntervalOfUnits(0, e.Unit); !ok {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("unknown interval unit %q", e.Unit))
		}
		switch u, _ := canonicalIntervalUnit(strings.ToLower(e.Unit)); u {
		case "second", "millisecond":
			per := 1e6
			if u == "millisecond" {
				per = 1e3
			}
			us := math.Round(f * per)
			if math.Abs(us) >= 1<<63 {
				return nil, bad()
			}
			iv = columnar.IntervalParts{Micros: int64(us)}
		default:
			if iv, ok = columnar.IntervalOfUnits(int64(math.Trunc(f)), e.Unit); !ok {
				return nil, bad()
			}
		}
	}
	if neg {
		if iv.Months == math.MinInt32 || iv.Days == math.MinInt32 || iv.Micros == math.MinInt64 {
			return nil, bad()
		}
		iv = columnar.IntervalParts{Months: -iv.Months, Days: -iv.Days, Micros: -iv.Micros}
	}
	return &planner.Const{Val: columnar.IntervalValue(iv)}, nil
}

// quoteSQL renders s as a SQL string literal.
func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
