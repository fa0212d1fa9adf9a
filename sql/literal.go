package sql

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

var errCast = errors.New("cannot cast")

// castConst converts a constant at bind time. done is false when the
// conversion is left to the executor (a Cast node stays); err is errCast
// when the value does not convert.
func castConst(v columnar.Value, to columnar.Type) (out columnar.Value, done bool, err error) {
	if v.Null {
		return columnar.NullValue(to), true, nil
	}
	from := v.Type
	if from == to {
		return v, true, nil
	}
	if from.ID == columnar.Bit || to.ID == columnar.Bit {
		// BIT: the executor's casts (cast_bit.go), before CastWide would
		// take a HUGEINT's; their errors keep their words, as GEOMETRY's
		// ("invalid character encountered in string -> bit conversion").
		out, err = executor.CastValue(v, to)
		return out, true, err
	}
	if out, handled, ok := columnar.CastWide(v, to); handled { // HUGEINT, UHUGEINT, DECIMAL(19..38)
		if !ok {
			return columnar.Value{}, true, errCast
		}
		return out, true, nil
	}
	switch {
	case from.IsTimestampUnit() || to.IsTimestampUnit() || from.ID == columnar.Uuid || to.ID == columnar.Uuid || from.ID == columnar.TimeTZ || to.ID == columnar.TimeTZ ||
		from.ID == columnar.Enum || to.ID == columnar.Enum || to.ID == columnar.Geometry:
		// TIMESTAMP_S/MS/NS, UUID, TIMETZ, ENUM and GEOMETRY: the executor's
		// casts, one set of rules. A GEOMETRY's parse error keeps its words
		// (DuckDB's: "Failed to parse geometry: … at offset 7").
		if out, err = executor.CastValue(v, to); err != nil && to.ID != columnar.Geometry {
			err = errCast
		}
		return out, true, err
	case from.ID == columnar.Varchar && to.IsNested():
		// '[1, 2]'::INT[]: the executor's parser of nested text.
		if out, err = executor.CastValue(v, to); err != nil {
			err = errCast
		}
		return out, true, err
	case from.ID == columnar.Varchar:
		out, err = parseValue(v.S, to)
		return out, err == nil || errors.Is(err, errCast), err
	case to.ID == columnar.Varchar:
		return columnar.StringValue(v.String()), true, nil
	case from.IsInteger() || from.ID == columnar.Bool:
		if from.ID == columnar.Uint64 && v.I < 0 {
			return fromFloat(float64(v.Uint()), to)
		}
		return fromInt(v.I, to)
	case from.IsFloat():
		return fromFloat(v.F, to)
	case from.ID == columnar.Decimal:
		if to.ID == columnar.Decimal {
			return rescale(v.I, int(from.Scale), to)
		}
		if to.IsFloat() {
			return fromFloat(v.AsFloat(), to)
		}
		if to.IsInteger() {
			r, _, err := rescale(v.I, int(from.Scale), columnar.DecimalType(maxDecimal, 0))
			if err != nil {
				return r, true, err
			}
			return fromInt(r.I, to)
		}
	case from.ID == columnar.Date && to.ID == columnar.Timestamp:
		us, ok := columnar.DateToTimestampChecked(v.I)
		if !ok {
			return columnar.Value{}, true, errCast // DuckDB: not in timestamp range
		}
		return columnar.IntValue(to, us), true, nil
	case from.ID == columnar.Timestamp && to.ID == columnar.Time:
		if columnar.Infinity(from, v.I) != 0 {
			return columnar.Value{}, true, errCast
		}
		return columnar.IntValue(to, columnar.TimeOfDay(v.I)), true, nil
	case from.ID == columnar.Timestamp && to.ID == columnar.Date:
		return columnar.IntValue(to, columnar.TimestampToDate(v.I)), true, nil
	}
	return v, false, nil
}

func fromInt(n int64, to columnar.Type) (columnar.Value, bool, error) {
	switch {
	case to.ID == columnar.Bool:
		return columnar.BoolValue(n != 0), true, nil
	case to.ID == columnar.Uint64:
		if n < 0 {
			return columnar.Value{}, true, errCast
		}
		return columnar.UintValue(uint64(n)), true, nil
	case to.IsInteger():
		lo, hi := to.IntRange()
		if n < lo || n > hi {
			return columnar.Value{}, true, errCast
		}
		return columnar.IntValue(to, n), true, nil
	case to.IsFloat():
		return floatValue(to, float64(n)), true, nil
	case to.ID == columnar.Decimal:
		limit := pow10(int(to.Precision) - int(to.Scale))
		if n >= limit || n <= -limit {
			return columnar.Value{}, true, errCast
		}
		return columnar.IntValue(to, n*pow10(int(to.Scale))), true, nil
	}
	return columnar.Value{}, false, nil
}

func fromFloat(f float64, to columnar.Type) (columnar.Value, bool, error) {
	switch {
	case to.IsFloat():
		if to.ID == columnar.Float32 && !math.IsInf(f, 0) && math.Abs(f) > math.MaxFloat32 {
			return columnar.Value{}, true, errCast // DuckDB: out of range for FLOAT
		}
		return floatValue(to, f), true, nil
	case to.ID == columnar.Bool:
		return columnar.BoolValue(f != 0), true, nil
	case to.ID == columnar.Uint64:
		r := math.RoundToEven(f) // DuckDB rounds a float half to even: 2.5 → 2
		if math.IsNaN(r) || r < 0 || r >= 1<<64 {
			return columnar.Value{}, true, errCast
		}
		return columnar.UintValue(uint64(r)), true, nil
	case to.IsInteger():
		r := math.RoundToEven(f) // DuckDB rounds a float half to even: 0.5 → 0, 126.5 → 126
		if math.IsNaN(r) || r < -(1<<63) || r >= 1<<63 {
			return columnar.Value{}, true, errCast
		}
		return fromInt(int64(r), to)
	case to.ID == columnar.Decimal:
		r := math.Round(f * math.Pow10(int(to.Scale)))
		limit := float64(pow10(int(to.Precision)))
		if math.IsNaN(r) || r >= limit || r <= -limit {
			return columnar.Value{}, true, errCast
		}
		return columnar.IntValue(to, int64(r)), true, nil
	}
	return columnar.Value{}, false, nil
}

// floatValue stores f as FLOAT (rounded to float32, widened back) or DOUBLE.
func floatValue(t columnar.Type, f float64) columnar.Value {
	if t.ID == columnar.Float32 {
		f = float64(float32(f))
	}
	return columnar.FloatValue(t, f)
}

// rescale converts a decimal with scale s to decimal type to, rounding half
// away from zero.
func rescale(n int64, s int, to columnar.Type) (columnar.Value, bool, error) {
	ts := int(to.Scale)
	switch {
	case ts > s:
		m := pow10(ts - s)
		if n > math.MaxInt64/m || n < math.MinInt64/m {
			return columnar.Value{}, true, errCast
		}
		n *= m
	case ts < s:
		d := pow10(s - ts)
		q, r := n/d, n%d
		if 2*abs64(r) >= d {
			if n < 0 {
				q--
			} else {
				q++
			}
		}
		n = q
	}
	limit := pow10(int(to.Precision))
	if n >= limit || n <= -limit {
		return columnar.Value{}, true, errCast
	}
	return columnar.IntValue(to, n), true, nil
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// pow10 returns 10^n for 0 ≤ n ≤ 18 (callers stay in that range).
func pow10(n int) int64 {
	p := int64(1)
	for range min(max(n, 0), 18) {
		p *= 10
	}
	return p
}

// parseValue reads text as a value of type t, as CAST(text AS t) does.
func parseValue(s string, t columnar.Type) (columnar.Value, error) {
	s0 := s
	s = strings.TrimSpace(s)
	switch {
	case t.ID == columnar.Varchar:
		return columnar.StringValue(s0), nil
	case t.ID == columnar.Blob:
		b, err := columnar.ParseBlob(s0)
		if err != nil {
			return columnar.Value{}, errCast
		}
		return columnar.Value{Type: t, S: string(b)}, nil
	case t.ID == columnar.Bool:
		switch strings.ToLower(s) {
		case "true", "t", "1", "yes", "y", "on":
			return columnar.BoolValue(true), nil
		case "false", "f", "0", "no", "n", "off":
			return columnar.BoolValue(false), nil
		}
	case t.ID == columnar.Uint64:
		if n, ok := columnar.ParseUint(s); ok {
			return columnar.UintValue(n), nil
		}
	case t.IsInteger() && !t.IsSigned():
		if n, ok := columnar.ParseUint(s); ok {
			v, _, err := fromInt(int64(min(n, math.MaxInt64)), t)
			return v, err
		}
	case t.IsInteger():
		if n, ok := columnar.ParseInt(s); ok {
			v, _, err := fromInt(n, t)
			return v, err
		}
	case t.IsFloat():
		if f, err := strconv.ParseFloat(s, 64); err == nil || isRangeErr(err) {
			return floatValue(t, f), nil
		}
	case t.ID == columnar.Decimal:
		if n, ok := parseDecimal(s, int(t.Precision), int(t.Scale), true); ok {
			return columnar.IntValue(t, n), nil
		}
	case t.ID == columnar.Date:
		if d, ok := parseDate(s); ok {
			return columnar.IntValue(t, d), nil
		}
	case t.ID == columnar.Timestamp:
		if us, ok := parseTimestamp(s); ok {
			return columnar.IntValue(t, us), nil
		}
	case t.ID == columnar.Time:
		if us, ok := columnar.ParseTime(s); ok {
			return columnar.IntValue(t, us), nil
		}
	case t.ID == columnar.Interval:
		if iv, ok := columnar.ParseInterval(s); ok {
			return columnar.IntervalValue(iv), nil
		}
	}
	return columnar.Value{}, errCast
}

func isRangeErr(err error) bool {
	var ne *strconv.NumError
	return errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange)
}

// parseDecimal reads a plain decimal number as an integer scaled by 10^s
// that must fit p digits. With round, extra fraction digits round half away
// from zero; without, they must be zeros (the literal is exact).
func parseDecimal(text string, p, s int, round bool) (int64, bool) {
	neg := false
	if text != "" && (text[0] == '-' || text[0] == '+') {
		neg = text[0] == '-'
		text = text[1:]
	}
	whole, frac, _ := strings.Cut(text, ".")
	if whole == "" && frac == "" {
		return 0, false
	}
	for _, part := range []string{whole, frac} {
		for i := 0; i < len(part); i++ {
			if !isDigit(part[i]) {
				return 0, false
			}
		}
	}
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > p-s {
		return 0, false
	}
	up := false
	if len(frac) > s {
		extra := frac[s:]
		frac = frac[:s]
		if !round && strings.Trim(extra, "0") != "" {
			return 0, false
		}
		up = extra[0] >= '5'
	}
	frac += strings.Repeat("0", s-len(frac))
	var n int64
	for _, c := range whole + frac {
		n = n*10 + int64(c-'0')
	}
	if up {
		n++
		if n >= pow10(p) {
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

func parseDate(s string) (int64, bool) { return columnar.ParseDate(s) }

func parseTimestamp(s string) (int64, bool) {
	us, _, ok := columnar.ParseTimestamp(s)
	return us, ok
}

// parseInterval reads DuckDB interval text (columnar.ParseInterval) as
// microseconds, a month as 30 days: for RANGE frame offsets, which have no
// calendar months.
func parseInterval(s string) (int64, bool) {
	iv, ok := columnar.ParseInterval(s)
	return iv.FoldedMicros(), ok
}
