package sql

import (
	"strings"
	"time"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// The functions of DuckDB that take or make a TIME (the executor's
// call_time_of_day.go).

// timeDiffFuncs take a part and two times (or two DATE|TIMESTAMPs).
var timeDiffFuncs = map[string]bool{"date_diff": true, "datediff": true, "date_sub": true, "datesub": true}

// bindTimeOfDayFunc binds the calls of date functions with a TIME
// argument; ok is false for anything else.
func (b *binder) bindTimeOfDayFunc(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	isTime := func(i int) bool { return i < len(xs) && xs[i].Type().ID == columnar.Time }
	switch {
	case name == "date_add" && len(xs) == 2 && isTime(0):
		x, err := b.timeArith("+", xs[0], xs[1], srcs[0], srcs[1], c)
		return x, true, err
	case (name == "epoch_us" || name == "epoch_ns") && len(xs) == 1 && isTime(0):
		return &planner.Call{Fn: name, Args: xs, T: columnar.TInt64}, true, nil
	case timeDiffFuncs[name] && len(xs) == 3 && (isTime(1) || isTime(2)):
		// Both sides must be times: DuckDB has no date_diff of a TIME and
		// a TIMESTAMP. An untyped literal beside a TIME is one.
		args := []planner.Expr{nil, nil, nil}
		part, err := b.coerce(xs[0], columnar.TVarchar, srcs[0], c)
		if err != nil {
			return nil, true, err
		}
		args[0] = part
		for i := 1; i <= 2; i++ {
			if !isTime(i) && !b.flexible(xs[i], columnar.TTime, false) {
				return nil, true, b.typeErr(srcs[i], c, "%s expects two TIMEs or two DATE|TIMESTAMPs, got %s and %s", name, xs[1].Type(), xs[2].Type())
			}
			if args[i], err = b.coerce(xs[i], columnar.TTime, srcs[i], c); err != nil {
				return nil, true, err
			}
		}
		if k, ok := args[0].(*planner.Const); ok && !k.Val.Null {
			p := strings.ToLower(k.Val.S)
			if !timeParts[dateParts[p]] || dateParts[p] == "epoch" {
				return nil, true, b.typeErr(srcs[0], c, "%s: part %q is not defined for TIME", name, k.Val.S)
			}
		}
		fn := "date_diff"
		if strings.HasPrefix(name, "date_sub") || name == "datesub" {
			fn = "date_sub"
		}
		return &planner.Call{Fn: fn, Args: args, T: columnar.TInt64}, true, nil
	}
	return nil, false, nil
}

// nowTime is current_time: the time of day (UTC) of the query's instant.
func (b *binder) nowTime() planner.Expr {
	if *b.now == 0 {
		*b.now = time.Now().UTC().UnixMicro()
	}
	return &planner.Const{Val: columnar.IntValue(columnar.TTime, columnar.TimeOfDay(*b.now))}
}
