package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// bindASTInterval binds INTERVAL '1 day', INTERVAL 3 DAY, INTERVAL '1.5'
// HOUR (a constant) and INTERVAL (x) unit (computed per row), as
// bindInterval does.
func (b *binder) bindASTInterval(e *ast.Interval, c ectx) (planner.Expr, error) {
	at := b.q.tokAt(e.Start)
	v, neg := e.Value, false
	if u, ok := v.(*ast.Unary); ok && u.Op == "-" {
		v, neg = u.X, true
	}
	lit, ok := v.(*ast.Literal)
	if ok && lit.Kind != ast.LitString && lit.Kind != ast.LitNumber {
		ok = false
	}
	if !ok {
		if e.Unit == "" {
			return nil, b.errAt(at, ErrUnsupported, "INTERVAL needs a constant")
		}
		x, err := b.bindAST(e.Value, c)
		if err != nil {
			return nil, err
		}
		return b.intervalOf(x, astSrc(e.Value), strings.ToLower(e.Unit), "INTERVAL", at, c)
	}
	text := lit.Val
	bad := func() error {
		return b.errAt(at, ErrType, fmt.Sprintf("could not cast %s to INTERVAL", quoteSQL(text)))
	}
	var iv columnar.IntervalParts
	if e.Unit == "" {
		if iv, ok = columnar.ParseInterval(text); !ok || lit.Kind != ast.LitString {
			return nil, bad()
		}
	} else {
		// INTERVAL '1.5' HOUR: DuckDB truncates the number to whole units,
		// but for seconds and milliseconds (to_seconds(DOUBLE)).
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || math.Abs(f) >= 1<<63 {
			return nil, bad()
		}
		unit := strings.ToLower(e.Unit)
		if _, ok := columnar.IntervalOfUnits(0, unit); !ok {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("unknown interval unit %q", unit))
		}
		switch u, _ := canonicalIntervalUnit(unit); u {
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
			if iv, ok = columnar.IntervalOfUnits(int64(math.Trunc(f)), unit); !ok {
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
