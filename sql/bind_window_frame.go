package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// nullsMode is a window call's IGNORE NULLS (ignore) or RESPECT NULLS;
// at is the token index of IGNORE or RESPECT, for errors.
type nullsMode struct {
	ignore bool
	at     int
}

// boundFrame is a bound frame clause: the frame, and the offsets of its
// start and end computed per row (nil: constant, or none), which the
// window functions take as their last arguments
// (executor/window_rowargs.go).
type boundFrame struct {
	frame      planner.Frame
	start, end planner.Expr
}

func (fa boundFrame) args() []planner.Expr {
	var out []planner.Expr
	for _, x := range []planner.Expr{fa.start, fa.end} {
		if x != nil {
			out = append(out, x)
		}
	}
	return out
}

// windowFrame converts a frame clause; without one, an ordered window runs
// from the partition start to the current row's last peer, an unordered
// one over the whole partition. A frame that ends before it starts
// (ROWS BETWEEN 1 FOLLOWING AND 1 PRECEDING) is empty, as DuckDB's test
// suite has it (DuckDB 1.5.6's parser refused it). An offset is bound as the window's
// arguments are (bind), and may read the row: one that folds to a
// constant is the Frame's, any other is computed per row. ROWS and
// GROUPS offsets are BIGINT (a fractional one rounds, a NULL one is 0, a
// negative ROWS offset moves the bound the other way, a negative GROUPS
// one is an error when it runs, as in DuckDB). A RANGE offset measures
// along the single ORDER BY key: a number for a numeric key, an INTERVAL
// for a DATE or TIMESTAMP key (in microseconds, as the executor compares
// them). A GROUPS frame's offsets count peer groups; without ORDER BY the
// partition is one group.
func (b *binder) windowFrame(fr *winFrame, order []planner.SortKey, at int, bind func(callexpr.Expr) (planner.Expr, error)) (boundFrame, error) {
	if fr == nil {
		return boundFrame{frame: planner.Frame{StartUnbounded: true, EndUnbounded: len(order) == 0}}, nil
	}
	// The parser gives a frame clause its unit, ROWS, RANGE or GROUPS.
	out := boundFrame{frame: planner.Frame{Rows: fr.unit == "ROWS", Groups: fr.unit == "GROUPS", Exclude: fr.exclude}}
	bound := func(fb *winBound, start bool) error {
		switch fb.kind {
		case "UNBOUNDED PRECEDING":
			if !start {
				return b.errAt(at, ErrSyntax, "a frame cannot end at UNBOUNDED PRECEDING")
			}
			out.frame.StartUnbounded = true
		case "UNBOUNDED FOLLOWING":
			if start {
				return b.errAt(at, ErrSyntax, "a frame cannot start at UNBOUNDED FOLLOWING")
			}
			out.frame.EndUnbounded = true
		case "PRECEDING", "FOLLOWING":
			var x planner.Expr
			var err error
			if fb.hasDist {
				// A fractional offset.
				x = &planner.Const{Val: columnar.FloatValue(columnar.TFloat64, fb.dist)}
			} else if x, err = bind(fb.expr); err != nil {
				return err
			}
			sign := int64(1)
			if fb.kind == "PRECEDING" {
				sign = -1
			}
			var row planner.Expr
			if !out.frame.Rows && !out.frame.Groups {
				row, err = b.rangeOffset(&out.frame, x, order, start, sign, at)
			} else {
				row, err = b.rowsOffset(&out.frame, x, fb.expr, start, sign, at)
			}
			if start {
				out.start = row
			} else {
				out.end = row
			}
			return err
		}
		return nil
	}
	if err := bound(fr.start, true); err != nil {
		return out, err
	}
	if fr.end != nil {
		if err := bound(fr.end, false); err != nil {
			return out, err
		}
	}
	return out, nil
}

// rowsOffset sets one bound of a ROWS or GROUPS frame to x rows or peer
// groups from the current row's (sign -1 PRECEDING, 1 FOLLOWING), and
// returns x as a BIGINT when it is computed per row (the bound then holds
// the sign).
func (b *binder) rowsOffset(out *planner.Frame, x planner.Expr, src callexpr.Expr, start bool, sign int64, at int) (planner.Expr, error) {
	set := func(k int64) {
		if start {
			out.Start = k
		} else {
			out.End = k
		}
	}
	x, err := b.coerce(x, columnar.TInt64, src, ectx{sp: span{at, len(b.q.toks)}, clause: "OVER"})
	if err != nil {
		return nil, err
	}
	x = planner.FoldExpr(x)
	if k, ok := x.(*planner.Const); ok && k.Val.Null {
		set(0) // a NULL offset is the current row's
		return nil, nil
	} else if ok && k.Val.I >= 0 || ok && out.Rows && k.Val.I > -1<<62 {
		set(sign * k.Val.I)
		return nil, nil
	}
	set(sign)
	return x, nil
}

// rangeOffset sets one bound of a RANGE frame to an offset from the
// current row's ORDER BY key, or, for an offset computed per row, to
// the sign (-1 PRECEDING, 1 FOLLOWING) of x, which it returns (a DOUBLE
// for a numeric key, an INTERVAL for a temporal one).
func (b *binder) rangeOffset(out *planner.Frame, x planner.Expr, order []planner.SortKey, start bool, sign int64, at int) (planner.Expr, error) {
	if len(order) != 1 {
		return nil, b.errAt(at, ErrUnsupported, "RANGE with an offset needs exactly one ORDER BY expression")
	}
	kt := order[0].Expr.Type()
	x = planner.FoldExpr(x)
	xt := x.Type()
	switch {
	case xt.ID == columnar.Null:
	case kt.ID == columnar.Date || kt.ID == columnar.Timestamp || kt.ID == columnar.Time:
		// A TIME key's frame does not wrap around midnight (DuckDB's).
		if xt.ID != columnar.Interval {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("a RANGE offset over a %s key must be an INTERVAL, not %s", kt, xt))
		}
	case kt.IsNumeric():
		if !xt.IsNumeric() {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("a RANGE offset over a %s key must be a number, not %s", kt, xt))
		}
	default:
		return nil, b.errAt(at, ErrType, fmt.Sprintf("RANGE with an offset needs a numeric, DATE, TIMESTAMP or TIME ORDER BY key, not %s", kt))
	}
	dist := float64(sign)
	var row planner.Expr
	if calendarOffset(kt, x) {
		row = calendarDist(order[0], x, sign) // bind_window_calendar.go
	} else if k, ok := x.(*planner.Const); ok {
		dist = 0 // NULL: the current row's peers
		if !k.Val.Null {
			dist = k.Val.AsFloat()
			if k.Val.Type.ID == columnar.Interval {
				dist = float64(k.Val.I)
			}
		}
		if dist < 0 {
			dir := map[int64]string{-1: "PRECEDING", 1: "FOLLOWING"}[sign]
			return nil, b.errAt(at, ErrType, fmt.Sprintf("Invalid RANGE %s value", dir))
		}
		dist *= float64(sign)
	} else if xt.ID == columnar.Interval || xt.ID == columnar.Float64 {
		row = x
	} else {
		row = &planner.Cast{Arg: x, To: columnar.TFloat64}
	}
	if start {
		out.StartRange, out.StartDist = true, dist
	} else {
		out.EndRange, out.EndDist = true, dist
	}
	return row, nil
}

// rowParam adds x, coerced to t, to f's arguments as a parameter computed
// per row (executor/window_rowargs.go) and sets *flag; when x folds to a
// constant it returns that too, and the caller may take the parameter
// back out of the arguments (it is their last) to keep it constant.
func (b *binder) rowParam(f *planner.WindowFunc, flag *bool, x planner.Expr, t columnar.Type, src callexpr.Expr, c ectx) (*columnar.Value, error) {
	x, err := b.coerce(x, t, src, c)
	if err != nil {
		return nil, err
	}
	x = planner.FoldExpr(x)
	f.Args, *flag = append(f.Args, x), true
	if k, ok := x.(*planner.Const); ok {
		return &k.Val, nil
	}
	return nil, nil
}

// winFrame is a frame clause: unit ROWS, RANGE or GROUPS ("" for one
// b2sql does not take), its bounds (end nil without BETWEEN), EXCLUDE.
type winFrame struct {
	unit       string
	start, end *winBound
	exclude    planner.FrameExclude
}

// winBound is a frame bound: kind UNBOUNDED PRECEDING, PRECEDING,
// CURRENT ROW, FOLLOWING or UNBOUNDED FOLLOWING, with the offset expr
// of PRECEDING and FOLLOWING (or its value dist when hasDist).
type winBound struct {
	kind    string
	expr    callexpr.Expr
	dist    float64
	hasDist bool
}

// astFrame is the winFrame of a frame clause of the syntax tree. An
// INTERVAL '…' offset is checked here, where the text is: it must parse.
func (b *binder) astFrame(fr *ast.Frame) (*winFrame, error) {
	if fr == nil {
		return nil, nil
	}
	out := &winFrame{unit: fr.Unit}
	switch fr.Exclude {
	case "CURRENT ROW":
		out.exclude = planner.ExcludeCurrentRow
	case "GROUP":
		out.exclude = planner.ExcludeGroup
	case "TIES":
		out.exclude = planner.ExcludeTies
	case "NO OTHERS":
		out.exclude = planner.ExcludeNoOthers
	}
	bound := func(bd *ast.Bound) (*winBound, error) {
		wb := &winBound{kind: bd.Kind}
		if bd.Offset == nil {
			return wb, nil
		}
		wb.expr = astSrc(bd.Offset)
		if iv, ok := bd.Offset.(*ast.Interval); ok {
			if l, ok := iv.Value.(*ast.Literal); ok && iv.Unit == "" && l.Kind == ast.LitString {
				if _, ok := parseInterval(l.Val); !ok {
					return nil, b.errAt(b.q.tokAt(l.Start), ErrType, fmt.Sprintf("could not cast %s to INTERVAL", quoteSQL(l.Val)))
				}
			}
		}
		return wb, nil
	}
	var err error
	if out.start, err = bound(fr.Start); err != nil {
		return nil, err
	}
	if fr.End != nil {
		if out.end, err = bound(fr.End); err != nil {
			return nil, err
		}
	}
	return out, nil
}
