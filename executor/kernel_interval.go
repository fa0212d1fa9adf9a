package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// Arithmetic with INTERVALs, as DuckDB: an interval's months move a date
// by calendar months (the day clamped to the month's end), then its days,
// then its microseconds; TIMESTAMP - TIMESTAMP is days and microseconds;
// INTERVAL ± INTERVAL adds field by field; a TIME moves by the
// microseconds only (days and months never change a time of day).

// AddInterval returns the timestamp (µs) iv after ts (sign -1: before);
// ok is false when the result leaves the int64 range.
func AddInterval(ts int64, iv columnar.IntervalParts, sign int64) (int64, bool) {
	if iv.Months != 0 {
		var ok bool
		if ts, ok = AddMonthsChecked(ts, sign*int64(iv.Months)); !ok {
			return 0, false
		}
	}
	d := sign * int64(iv.Days) * columnar.MicrosPerDay
	u := sign * iv.Micros
	r := float64(ts) + float64(d) + float64(u)
	if r >= math.MaxInt64 || r <= math.MinInt64 {
		return 0, false
	}
	return ts + d + u, true
}

// AddMonthsChecked is AddMonths, ok false when the result falls outside
// the years a TIMESTAMP holds (DuckDB's ±290307 years).
func AddMonthsChecked(ts, n int64) (int64, bool) {
	const maxYear = 290307
	y := columnar.TimestampToTime(ts).Year()
	if n > 2*12*maxYear || n < -2*12*maxYear {
		return 0, false
	}
	if ny := int64(y) + floorDiv(n, 12); ny > maxYear || ny < -maxYear {
		return 0, false
	}
	return AddMonths(ts, n), true
}

// AddIntervals returns a + sign·b field by field; ok is false when months
// or days leave int32, or microseconds int64.
func AddIntervals(a, b columnar.IntervalParts, sign int64) (columnar.IntervalParts, bool) {
	m := int64(a.Months) + sign*int64(b.Months)
	d := int64(a.Days) + sign*int64(b.Days)
	bu := sign * b.Micros
	u := a.Micros + bu
	if m != int64(int32(m)) || d != int64(int32(d)) || (bu > 0 && u < a.Micros) || (bu < 0 && u > a.Micros) || (sign < 0 && b.Micros == math.MinInt64) {
		return columnar.IntervalParts{}, false
	}
	return columnar.IntervalParts{Months: int32(m), Days: int32(d), Micros: u}, true
}

// TimestampDiff is a - b (µs timestamps) as DuckDB's INTERVAL: whole days
// and the microseconds left, both with the difference's sign.
func TimestampDiff(a, b int64) (columnar.IntervalParts, bool) {
	diff := a - b
	if (b < 0 && diff < a) || (b > 0 && diff > a) {
		return columnar.IntervalParts{}, false
	}
	days := diff / columnar.MicrosPerDay
	if days != int64(int32(days)) {
		return columnar.IntervalParts{}, false
	}
	return columnar.IntervalParts{Days: int32(days), Micros: diff % columnar.MicrosPerDay}, true
}

// temporalArithKernel handles + and - between dates, timestamps, times,
// intervals and day counts; ret (the binder's result type) and the operand
// types pick the case once, when the kernel is built.
func temporalArithKernel(op arithOp, lt, rt, ret columnar.Type) (kernel, error) {
	if op != opAdd && op != opSub {
		return nil, errorf("cannot apply %s to %s and %s", arithSyms[op], lt, rt)
	}
	sign := int64(1)
	if op == opSub {
		sign = -1
	}
	isIv := func(t columnar.Type) bool { return t.ID == columnar.Interval }
	overflow := func() error {
		return errorf("%s %s %s is out of range", lt, arithSyms[op], rt)
	}
	switch {
	case ret.ID == columnar.Time:
		// TIME ± INTERVAL, INTERVAL + TIME.
		tArg, ivArg := 0, 1
		if isIv(lt) {
			tArg, ivArg = 1, 0
		}
		if op == opSub && tArg != 0 {
			return nil, errorf("cannot apply %s to %s and %s", arithSyms[op], lt, rt)
		}
		return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
			x, y := args[tArg], args[ivArg]
			b.ForEach(func(i int) {
				q := y.IntervalAt(idx(y, i)).Micros % columnar.MicrosPerDay
				out.Ints[i] = columnar.WrapTime(x.Ints[idx(x, i)]%columnar.MicrosPerDay + sign*q)
			})

			return nil
		}, nil
	case isIv(lt) && isIv(rt):
		return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
			x, y := args[0], args[1]
			return forRows(b, func(i int) error {
				if out.Valid != nil && !out.Valid.Get(i) {
					return nil
				}
				r, ok := AddIntervals(x.IntervalAt(idx(x, i)), y.IntervalAt(idx(y, i)), sign)
				if !ok {
					return overflow()
				}
				out.SetInterval(i, r)
				return nil
			})
		}, nil
	case isIv(lt) || isIv(rt):
		// TIMESTAMP ± INTERVAL, INTERVAL + TIMESTAMP (DATE operands
		// arrive cast to TIMESTAMP).
		tArg, ivArg := 0, 1
		if isIv(lt) {
			tArg, ivArg = 1, 0
		}
		scale := int64(1)
		if args := [2]columnar.Type{lt, rt}; args[tArg].ID == columnar.Date {
			scale = columnar.MicrosPerDay
		}
		return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
			x, y := args[tArg], args[ivArg]
			return forRows(b, func(i int) error {
				if out.Valid != nil && !out.Valid.Get(i) {
					return nil
				}
				v := x.Ints[idx(x, i)]
				if s := columnar.Infinity(x.Type, v); s != 0 { // infinity ± any interval
					out.Ints[i] = columnar.InfinityOf(ret, s)
					return nil
				}
				r, ok := AddInterval(v*scale, y.IntervalAt(idx(y, i)), sign)
				if !ok {
					return overflow()
				}
				out.Ints[i] = r
				return nil
			})
		}, nil
	case ret.ID == columnar.Interval:
		// TIMESTAMP - TIMESTAMP.
		return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
			x, y := args[0], args[1]
			return forRows(b, func(i int) error {
				if out.Valid != nil && !out.Valid.Get(i) {
					return nil
				}
				p, q := x.Ints[idx(x, i)], y.Ints[idx(y, i)]
				if columnar.Infinity(lt, p) != 0 || columnar.Infinity(rt, q) != 0 {
					return errorf("cannot subtract infinite timestamps")
				}
				r, ok := TimestampDiff(p, q)
				if !ok {
					return overflow()
				}
				out.SetInterval(i, r)
				return nil
			})
		}, nil
	}
	// DATE ± days, DATE - DATE (days), DATE + TIME.
	scaleL, scaleR := int64(1), int64(1)
	switch {
	case ret.ID == columnar.Timestamp && lt.ID == columnar.Date:
		scaleL = columnar.MicrosPerDay
	case ret.ID == columnar.Timestamp && rt.ID == columnar.Date:
		scaleR = columnar.MicrosPerDay
	}
	dateMinusDate := lt.ID == columnar.Date && rt.ID == columnar.Date
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x, y := args[0], args[1]
		b.ForEach(func(i int) {
			l, r := x.Ints[idx(x, i)], y.Ints[idx(y, i)]

			if s := columnar.Infinity(lt, l); s != 0 && !dateMinusDate {
				out.Ints[i] = columnar.InfinityOf(ret, s)
				return
			}
			if s := columnar.Infinity(rt, r); s != 0 && !dateMinusDate {
				out.Ints[i] = columnar.InfinityOf(ret, int(sign)*s)
				return
			}
			out.Ints[i] = l*scaleL + sign*r*scaleR
		})

		return nil
	}, nil
}
