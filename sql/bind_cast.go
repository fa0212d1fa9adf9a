package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// bindCollate binds the casts the rewriter encoded as COLLATE markers.
func (b *binder) bindCollate(e *sqlparser.CollateExpr, c ectx) (planner.Expr, error) {
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
	if !canCast(x.Type(), to) {
		return nil, b.typeErr(e.Expr, c, "cannot cast %s to %s", x.Type(), to)
	}
	if mark == markTryCast {
		if k, ok := x.(*planner.Const); ok {
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
	out, err := b.coerce(x, to, e.Expr, c)
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
	var us int64
	if e.Unit == markNoUnit {
		n, ok := parseInterval(text)
		if !ok || v.Type != sqlparser.StrVal {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("could not cast %s to INTERVAL", quoteSQL(text)))
		}
		us = n
	} else {
		m, ok := intervalUnits[strings.ToLower(e.Unit)]
		if !ok {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("unknown interval unit %q", e.Unit))
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || math.Abs(f*float64(m)) >= 1<<63 {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("could not cast %s to INTERVAL", quoteSQL(text)))
		}
		us = int64(math.Round(f * float64(m)))
	}
	months, calendar := int64(0), false
	if e.Unit == markNoUnit {
		months, calendar = calendarMonths(text)
	} else if per := unitMonths(e.Unit); per != 0 {
		n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
		months, calendar = n*per, err == nil
	}
	if neg {
		us, months = -us, -months
	}
	k := &planner.Const{Val: columnar.IntValue(columnar.TInterval, us)}
	if calendar && months != 0 {
		b.calMonths[k] = months
	}
	return k, nil
}

// quoteSQL renders s as a SQL string literal.
func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
