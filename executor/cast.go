package executor

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// CastValue converts one value to type to, with DuckDB's rules: numbers
// round to integers (half away from zero) and must fit; strings are parsed;
// failures read `could not cast 'abc' to INTEGER`.
func CastValue(v columnar.Value, to columnar.Type) (columnar.Value, error) {
	if v.Null {
		return columnar.NullValue(to), nil
	}
	from := v.Type
	if from == to {
		return v, nil
	}
	fail := func() (columnar.Value, error) {
		return columnar.Value{}, errorf("could not cast %s to %s", quoteVal(v), to)
	}
	if to.IsNested() { // cast_nested.go
		return castNested(v, to)
	}
	if from.ID == columnar.Enum || to.ID == columnar.Enum { // cast_enum.go
		return castEnum(v, to)
	}
	if from.ID == columnar.Bit || to.ID == columnar.Bit { // cast_bit.go
		return castBit(v, to)
	}
	if out, handled, ok := columnar.CastWide(v, to); handled { // HUGEINT, UHUGEINT, DECIMAL(19..38)
		if !ok {
			return fail()
		}
		return out, nil
	}
	switch to.ID {
	case columnar.Geometry:
		if from.ID == columnar.Varchar { // its WKT, as DuckDB parses it (columnar/geometry.go)
			wkb, err := columnar.ParseWKT(v.S)
			if err != nil {
				return columnar.Value{}, errorf("%v", err)
			}
			return columnar.Value{Type: to, S: string(wkb)}, nil
		}
		if from.ID == columnar.Geometry { // another CRS: the same bytes
			return columnar.Value{Type: to, S: v.S}, nil
		}
		return fail()
	case columnar.Uuid:
		if from.ID == columnar.Blob && len(v.S) == columnar.UUIDSize {
			return columnar.Value{Type: to, S: v.S}, nil // its 16 bytes, as UUID::BLOB gives them
		}
		if u, ok := columnar.ParseUUID(v.S); ok && from.ID == columnar.Varchar {
			return columnar.UUIDValue(u), nil
		}
		return fail()
	case columnar.Blob:
		if from.ID == columnar.Uuid {
			return columnar.Value{Type: to, S: v.S}, nil // its 16 bytes, as DuckDB
		}
		if from.ID == columnar.Varchar {
			b, err := columnar.ParseBlob(v.S)
			if err != nil {
				return columnar.Value{}, errorf("could not cast %s to BLOB: %v", quoteVal(v), err)
			}
			return columnar.Value{Type: to, S: string(b)}, nil
		}
		return columnar.Value{Type: to, S: v.String()}, nil
	case columnar.Varchar:
		return columnar.Value{Type: to, S: v.String()}, nil
	case columnar.Bool:
		switch {
		case from.IsString():
			switch strings.ToLower(strings.TrimSpace(v.S)) {
			case "true", "t", "1", "yes", "y":
				return columnar.BoolValue(true), nil
			case "false", "f", "0", "no", "n":
				return columnar.BoolValue(false), nil
			}
			return fail()
		case from.Phys() == columnar.PhysFloat:
			return columnar.BoolValue(v.F != 0), nil
		case from.IsNumeric():
			return columnar.BoolValue(v.I != 0), nil
		}
		return fail()
	case columnar.Float32, columnar.Float64:
		var f float64
		switch {
		case from.IsString():
			x, err := strconv.ParseFloat(strings.TrimSpace(v.S), 64)
			if err != nil && !isRangeErr(err) {
				return fail()
			}
			f = x
		case from.ID == columnar.Bool:
			f = float64(v.I)
		case from.IsNumeric():
			f = v.AsFloat()
		default:
			return fail()
		}
		if to.ID == columnar.Float32 {
			// A finite number past FLOAT's range is an error (DuckDB);
			// text reads as ±inf instead, like '1e310'::DOUBLE.
			if !from.IsString() && !math.IsInf(f, 0) && math.Abs(f) > math.MaxFloat32 {
				return fail()
			}
			f = float64(float32(f))
		}
		return columnar.FloatValue(to, f), nil
	case columnar.Decimal:
		var f float64
		switch {
		case from.ID == columnar.Decimal:
			i, ok := rescale(v.I, int(from.Scale), int(to.Scale))
			if !ok || !decimalFits(i, to) {
				return fail()
			}
			return columnar.IntValue(to, i), nil
		case from.IsInteger() && from.ID != columnar.Uint64, from.ID == columnar.Bool: // true is 1
			i, ok := rescale(v.I, 0, int(to.Scale))
			if !ok || !decimalFits(i, to) {
				return fail()
			}
			return columnar.IntValue(to, i), nil
		case from.IsString():
			x, err := strconv.ParseFloat(strings.TrimSpace(v.S), 64)
			if err != nil {
				return fail()
			}
			f = x
		case from.IsNumeric():
			f = v.AsFloat()
		default:
			return fail()
		}
		s := math.Round(f * math.Pow10(int(to.Scale)))
		if math.IsNaN(s) || math.Abs(s) >= 9.2e18 || !decimalFits(int64(s), to) {
			return fail()
		}
		return columnar.IntValue(to, int64(s)), nil
	case columnar.TimestampS, columnar.TimestampMS, columnar.TimestampNS:
		if out, ok := castToTimestampUnit(v, to); ok {
			return out, nil
		}
		return fail()
	case columnar.Date, columnar.Timestamp:
		if from.IsTimestampUnit() { // cast_time.go
			if out, ok := castFromTimestampUnit(v, to); ok {
				return out, nil
			}
			return fail()
		}
		switch {
		case from.IsString():
			if to.ID == columnar.Date {
				// A time part is dropped, as DuckDB does; a date past
				// TIMESTAMP's range is still one.
				d, ok := columnar.ParseDate(strings.TrimSpace(v.S))
				if !ok {
					return fail()
				}
				return columnar.IntValue(to, d), nil
			}
			us, _, ok := columnar.ParseTimestamp(strings.TrimSpace(v.S))
			if !ok {
				return fail()
			}
			return columnar.IntValue(to, us), nil
		case from.ID == columnar.Date && to.ID == columnar.Timestamp:
			us, ok := columnar.DateToTimestampChecked(v.I)
			if !ok {
				return fail()
			}
			return columnar.IntValue(to, us), nil
		case (from.ID == columnar.Timestamp || from.ID == columnar.TimestampTZ) && to.ID == columnar.Date:
			return columnar.IntValue(to, columnar.TimestampToDate(v.I)), nil
		case from.ID == columnar.TimestampTZ:
			return columnar.IntValue(to, v.I), nil
		}
		return fail()
	case columnar.TimestampTZ:
		// The binder casts in the session's time zone (tz_* calls); a
		// cast that reaches here is in UTC.
		switch from.ID {
		case columnar.Varchar:
			us, ok := columnar.ParseTimestampTZ(v.S, time.UTC)
			if !ok {
				return fail()
			}
			return columnar.IntValue(to, us), nil
		case columnar.Date:
			us, ok := columnar.DateToTimestampChecked(v.I)
			if !ok {
				return fail()
			}
			return columnar.IntValue(to, us), nil
		case columnar.Timestamp:
			return columnar.IntValue(to, v.I), nil
		case columnar.TimestampS, columnar.TimestampMS, columnar.TimestampNS:
			if us, ok := columnar.UnitToMicros(from, v.I); ok {
				return columnar.IntValue(to, us), nil
			}
		}
		return fail()
	case columnar.Time:
		if us, ok := timeOf(v); ok {
			return columnar.IntValue(to, us), nil
		}
		return fail()
	case columnar.TimeTZ:
		if k, ok := timeTZOf(v); ok { // cast_time.go
			return columnar.IntValue(to, k), nil
		}
		if from.IsString() {
			return columnar.Value{}, errorf("time field value out of range: %s, expected format is ([YYYY-MM-DD ]HH:MM:SS[.MS])", strconv.Quote(v.S))
		}
		return fail()
	case columnar.Interval:
		if from.IsString() {
			iv, ok := columnar.ParseInterval(v.S)
			if !ok {
				return fail()
			}
			return columnar.IntervalValue(iv), nil
		}
		return fail()
	case columnar.Uint64:
		switch {
		case from.IsString():
			u, ok := columnar.ParseUint(v.S)
			if !ok {
				return fail()
			}
			return columnar.UintValue(u), nil
		case from.Phys() == columnar.PhysFloat:
			f := math.RoundToEven(v.F) // DuckDB: 2.5::DOUBLE::UBIGINT = 2
			if math.IsNaN(f) || f < 0 || f >= 1.8446744073709552e19 {
				return fail()
			}
			return columnar.UintValue(uint64(f)), nil
		case from.ID == columnar.Decimal:
			f := math.Round(v.AsFloat())
			if f < 0 {
				return fail()
			}
			return columnar.UintValue(uint64(f)), nil
		case from.IsInteger() || from.ID == columnar.Bool:
			if v.I < 0 {
				return fail()
			}
			return columnar.UintValue(uint64(v.I)), nil
		}
		return fail()
	}
	if to.IsInteger() {
		lo, hi := to.IntRange()
		var i int64
		switch {
		case from.IsString():
			x, ok := columnar.ParseInt(v.S)
			if !to.IsSigned() { // '-0.4' is no UTINYINT, though it rounds to 0
				var u uint64
				u, ok = columnar.ParseUint(v.S)
				x = int64(min(u, math.MaxInt64))
			}
			if !ok {
				return fail()
			}
			i = x
		case from.Phys() == columnar.PhysFloat:
			f := math.RoundToEven(v.F) // DuckDB: 0.5::FLOAT::TINYINT = 0, 126.5 → 126
			if math.IsNaN(f) || f < -9.223372036854775808e18 || f >= 9.223372036854775808e18 {
				return fail()
			}
			i = int64(f)
		case from.ID == columnar.Decimal:
			p := int64(math.Pow10(int(from.Scale)))
			q, r := v.I/p, v.I%p
			if 2*absInt(r) >= p {
				if v.I < 0 {
					q--
				} else {
					q++
				}
			}
			i = q
		case from.ID == columnar.Uint64:
			if uint64(v.I) > math.MaxInt64 {
				return fail()
			}
			i = v.I
		case from.IsInteger() || from.ID == columnar.Bool:
			i = v.I
		default:
			return fail()
		}
		if i < lo || i > hi {
			return fail()
		}
		return columnar.IntValue(to, i), nil
	}
	return fail()
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func rescale(v int64, from, to int) (int64, bool) {
	for ; from < to; from++ {
		if v > math.MaxInt64/10 || v < math.MinInt64/10 {
			return 0, false
		}
		v *= 10
	}
	for ; from > to; from-- {
		r := v % 10
		v /= 10
		if from == to+1 && 2*absInt(r) >= 10 {
			if r < 0 {
				v--
			} else {
				v++
			}
		}
	}
	return v, true
}

func decimalFits(v int64, t columnar.Type) bool {
	if t.Precision == 0 || t.Precision >= 19 {
		return true
	}
	lim := int64(math.Pow10(int(t.Precision)))
	return v > -lim && v < lim
}

// castExpr converts its argument vector; fast paths cover the implicit
// casts the binder inserts in arithmetic and comparisons.
type castExpr struct {
	arg  Expr
	to   columnar.Type
	try  bool
	out  columnar.Vector
	ar   arena
	same bool // same physical payload and no checks: pass through with new type
}

func newCastExpr(arg Expr, to columnar.Type, try bool) *castExpr {
	from := arg.Type()
	e := &castExpr{arg: arg, to: to, try: try}
	// Widening between integer types that share PhysInt needs no work.
	if from.Phys() == columnar.PhysInt && to.Phys() == columnar.PhysInt && from.ID != columnar.Decimal && to.ID != columnar.Decimal &&
		from.IsInteger() && to.IsInteger() {
		flo, fhi := from.IntRange()
		tlo, thi := to.IntRange()
		e.same = flo >= tlo && fhi <= thi
	}
	if from == to || (from.ID == columnar.Float32 && to.ID == columnar.Float64) {
		e.same = true
	}
	// Widening a DECIMAL at the same scale keeps every scaled integer.
	if from.ID == columnar.Decimal && to.ID == columnar.Decimal && from.Scale == to.Scale && from.Precision <= to.Precision {
		e.same = true
	}
	return e
}

func (e *castExpr) Type() columnar.Type { return e.to }

func (e *castExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	x, err := e.arg.Eval(b)
	if err != nil {
		return nil, err
	}
	out := &e.out
	out.Type = e.to
	if e.same {
		*out = *x
		out.Type = e.to
		return out, nil
	}
	bb := b
	if x.Const {
		bb = constBatch
	}
	n := bb.Len
	out.Reset(n)
	if x.Valid != nil {
		out.Valid = append(out.Valid[:0], x.Valid...)
	}
	from := x.Type
	// Fast path: integers to floating point.
	if from.Phys() == columnar.PhysInt && from.ID != columnar.Decimal && from.IsInteger() && e.to.Phys() == columnar.PhysFloat {
		src, dst := x.Ints, out.Floats
		bb.ForEach(func(i int) { dst[i] = float64(src[i]) })
		out.Const = x.Const
		return out, nil
	}
	// Fast path: a TIMESTAMP's time of day (ts::TIME on a column).
	// An infinite timestamp has no time of day: the per-row path refuses it.
	if from.ID == columnar.Timestamp && e.to.ID == columnar.Time {
		src, dst, inf := x.Ints, out.Ints, false
		bb.ForEach(func(i int) {
			dst[i] = columnar.TimeOfDay(src[i])
			inf = inf || columnar.Infinity(from, src[i]) != 0 && !x.IsNull(i)
		})

		if !inf {
			out.Const = x.Const
			return out, nil
		}
	}
	// Fast path: DECIMAL to floating point (money columns in arithmetic),
	// the same division CastValue does, without a Value per row.
	if from.ID == columnar.Decimal && e.to.ID == columnar.Float64 {
		src, dst, div, s := x.Ints, out.Floats, math.Pow10(int(from.Scale)), int(from.Scale)
		bb.ForEach(func(i int) {
			if v := src[i]; v >= -1<<53 && v <= 1<<53 {
				dst[i] = float64(v) / div
			} else {
				dst[i] = columnar.DecimalFloat(v, s)
			}
		})

		out.Const = x.Const
		return out, nil
	}
	// Fast path: a wide DECIMAL or HUGEINT to DOUBLE (a HAVING comparing
	// SUMs of DECIMALs casts every group's sum), as CastValue converts.
	if (from.ID == columnar.Decimal128 || from.ID == columnar.Hugeint) && e.to.ID == columnar.Float64 {
		src, dst, s := x.Bytes, out.Floats, int(from.Scale)
		if from.ID == columnar.Hugeint {
			s = 0
		}
		bb.ForEach(func(i int) {
			dst[i] = columnar.WideDecimalFloat(columnar.Int128FromKey(src[i]), s)
		})

		out.Const = x.Const
		return out, nil
	}
	// Fast path: integers and DECIMALs to DECIMAL (the binder's casts to a
	// common scale); a value that does not fit falls through to the
	// per-row path, which reports it (or, for TRY_CAST, makes it NULL).
	if e.to.ID == columnar.Decimal && (from.ID == columnar.Decimal || from.IsInteger() && from.ID != columnar.Uint64) {
		fs := 0
		if from.ID == columnar.Decimal {
			fs = int(from.Scale)
		}
		if rescaleInts(x.Ints, out.Ints, bb, fs, int(e.to.Scale), int(e.to.Precision)) {
			out.Const = x.Const
			return out, nil
		}
	}
	e.ar.reset()
	// Fast path: a 64-bit SUM widened to HUGEINT or DECIMAL(38,s) (the
	// binder's sumWiden): the same unscaled value in 16 bytes.
	if from.Phys() == columnar.PhysInt && (e.to.ID == columnar.Hugeint && from.IsInteger() ||
		e.to.ID == columnar.Decimal128 && from.ID == columnar.Decimal && from.Scale == e.to.Scale) {
		src, dst := x.Ints, out.Bytes
		bb.ForEach(func(i int) {
			dst[i] = columnar.AppendInt128Key(e.ar.alloc(16)[:0], columnar.Int128Of(src[i]))
		})

		out.Const = x.Const
		return out, nil
	}
	err = forRows(bb, func(i int) error {
		if x.IsNull(i) {
			out.SetNull(i, n)
			return nil
		}
		castOne := CastValue
		if e.try {
			castOne = TryCastValue
		}
		v, err := castOne(x.Value(i), e.to)
		if err != nil {
			if e.try {
				out.SetNull(i, n)
				return nil
			}
			return err
		}
		if e.to.Phys() == columnar.PhysBytes {
			buf := e.ar.alloc(len(v.S))
			copy(buf, v.S)
			out.Bytes[i] = buf
			return nil
		}
		out.SetValue(i, n, v)
		return nil
	})
	out.Const = x.Const
	return out, err
}
