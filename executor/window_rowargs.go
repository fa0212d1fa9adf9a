package executor

import (
	"github.com/b2sql/b2sql/columnar"
)

// Per-row parameters. DuckDB computes a frame's offsets (ROWS BETWEEN
// i % 3 PRECEDING AND 1 FOLLOWING), lag's and lead's offset and default
// and nth_value's position for every row, like arguments. A function
// whose parameters are not constants carries them as its last Args,
// after its own arguments, in WindowRowArgs order; the constant ones stay
// in Offset, Default and Frame.

// WindowRowArgs says which per-row parameters a function's last Args
// hold, in this order: Offset (lag and lead's row offset, nth_value's
// position, BIGINT), Default (lag and lead's default, of the function's
// type), Start and End (the frame's bounds: a BIGINT count of rows or
// peer groups, a DOUBLE or INTERVAL distance for RANGE, whose direction
// is the sign Frame.Start or Frame.End then holds, -1 PRECEDING or 1
// FOLLOWING, and Frame.StartDist / EndDist for RANGE).
type WindowRowArgs struct{ Offset, Default, Start, End bool }

func (r WindowRowArgs) count() int {
	n := 0
	for _, on := range [...]bool{r.Offset, r.Default, r.Start, r.End} {
		if on {
			n++
		}
	}
	return n
}

// Any reports whether some parameter is computed per row.
func (r WindowRowArgs) Any() bool { return r.count() > 0 }

// rowArgs are a function's per-row parameters over the stored rows (nil:
// constant).
type rowArgs struct {
	offset, def, start, end *columnar.Vector
}

// splitRowArgs returns f's own arguments among its stored args and its
// per-row parameters.
func splitRowArgs(f *WindowFunc, args []*columnar.Vector) ([]*columnar.Vector, *rowArgs) {
	n := len(args) - f.RowArgs.count()
	own, rest := args[:n], args[n:]
	ra := &rowArgs{}
	for _, p := range []struct {
		on  bool
		dst **columnar.Vector
	}{{f.RowArgs.Offset, &ra.offset}, {f.RowArgs.Default, &ra.def}, {f.RowArgs.Start, &ra.start}, {f.RowArgs.End, &ra.end}} {
		if p.on {
			*p.dst, rest = rest[0], rest[1:]
		}
	}
	return own, ra
}

// offsetAt returns lag or lead's offset, or nth_value's position, for
// stored row r; ok is false when it is NULL (the function's value is then
// NULL, as DuckDB's).
func (ra *rowArgs) offsetAt(f *WindowFunc, r int32) (k int64, ok bool) {
	if ra == nil || ra.offset == nil {
		return f.Offset, true
	}
	v := ra.offset.Value(int(r))
	return v.I, !v.Null
}

// defaultAt returns lag or lead's default for stored row r.
func (ra *rowArgs) defaultAt(f *WindowFunc, r int32) columnar.Value {
	if ra == nil || ra.def == nil {
		return f.Default
	}
	return ra.def.Value(int(r))
}

// frameOffset returns a ROWS or GROUPS bound's offset for stored row r
// (negative = preceding): a NULL offset is 0, the current row, as in
// DuckDB.
func frameOffset(v *columnar.Vector, sign int64, r int32) int64 {
	x := v.Value(int(r))
	if x.Null {
		return 0
	}
	if x.I < 0 && sign < 0 && x.I == -x.I { // the smallest BIGINT: as far as any
		return 1 << 62
	}
	return sign * x.I
}

// rangeDist returns a RANGE bound's distance for stored row r (negative
// = preceding), in the key's units: microseconds for an INTERVAL.
func rangeDist(v *columnar.Vector, sign float64, r int32) float64 {
	x := v.Value(int(r))
	switch {
	case x.Null:
		return 0
	case x.Type.ID == columnar.Interval:
		// Months fold as 30 days: only a TIME key's offset holds them here
		// (a DATE or TIMESTAMP key's are measured per row, sql's
		// bind_window_calendar.go), where any day covers the range.
		return sign * float64(x.Interval().FoldedMicros())
	}
	return sign * x.AsFloat()
}

// offsetRow returns row i moved by off rows, clamped to [-1, m+1]: past
// either end of the partition, however far.
func offsetRow(i int, off int64, m int) int {
	switch {
	case off > int64(m):
		return m + 1
	case off < -int64(m):
		return -1
	}
	return min(max(i+int(off), -1), m+1)
}

// checkRowArgs reports a per-row frame offset DuckDB refuses: a negative
// GROUPS or RANGE offset (a negative ROWS offset moves the bound the
// other way). args are f's stored arguments, over n rows.
func checkRowArgs(f *WindowFunc, args []*columnar.Vector, n int) error {
	if f.Frame.Rows || !(f.RowArgs.Start || f.RowArgs.End) {
		return nil
	}
	_, ra := splitRowArgs(f, args)
	unit := "RANGE"
	if f.Frame.Groups {
		unit = "GROUPS"
	}
	for _, b := range []struct {
		v    *columnar.Vector
		sign float64
	}{{ra.start, f.Frame.StartDist + float64(f.Frame.Start)}, {ra.end, f.Frame.EndDist + float64(f.Frame.End)}} {
		if b.v == nil {
			continue
		}
		dir := "FOLLOWING"
		if b.sign < 0 {
			dir = "PRECEDING"
		}
		for r := range n {
			x := b.v.Value(r)
			if x.Null {
				continue
			}
			neg := x.I < 0
			switch {
			case x.Type.ID == columnar.Interval:
				iv := x.Interval()
				neg = iv.Months < 0 || iv.Days < 0 || iv.Micros < 0
			case x.Type.IsFloat():
				neg = x.F < 0
			}
			if neg {
				return errorf("Invalid %s %s value", unit, dir)
			}
		}
	}
	return nil
}
