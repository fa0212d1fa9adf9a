package json

import (
	"bytes"
	"math"
	"strconv"
	"time"
	"unsafe"

	"github.com/valyala/fastjson"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/strftime"
)

func str(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func digits2(b []byte) (int, bool) {
	a, c := b[0]-'0', b[1]-'0'
	return int(a)*10 + int(c), a <= 9 && c <= 9
}

// isoDate reads YYYY-MM-DD.
func isoDate(b []byte) (int64, bool) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return 0, false
	}
	y1, ok1 := digits2(b[0:2])
	y2, ok2 := digits2(b[2:4])
	m, ok3 := digits2(b[5:7])
	d, ok4 := digits2(b[8:10])
	y := y1*100 + y2
	if !ok1 || !ok2 || !ok3 || !ok4 || m < 1 || m > 12 || d < 1 || int64(d) > columnar.DaysInMonth(int64(y), int64(m)) {
		return 0, false
	}
	return columnar.TimeToDate(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)), true
}

func isISODate(b []byte) bool { _, ok := isoDate(b); return ok }

// isoTimestampZ reads YYYY-MM-DDTHH:MM:SS[.f]Z, DuckDB's JSON 'iso'
// timestamp format.
func isoTimestampZ(b []byte) (int64, bool) {
	if len(b) < 20 || b[10] != 'T' || b[len(b)-1] != 'Z' {
		return 0, false
	}
	us, _, ok := columnar.ParseTimestamp(string(b))
	return us, ok
}

func isISOTimestampZ(b []byte) bool { _, ok := isoTimestampZ(b); return ok }

func parseTime(b []byte) (int64, bool) {
	if len(b) < 4 || b[0] < '0' || b[0] > '9' {
		return 0, false
	}
	for _, c := range b {
		if c == '-' || c == '/' {
			return 0, false
		}
	}
	return columnar.ParseTime(str(b))
}

// converter stores values of one column.
type converter struct {
	col  Column
	date *strftime.Format
	ts   *strftime.Format
	// cast is Options.Cast, for the types set has no conversion of.
	cast func(string, columnar.Type) (columnar.Value, bool)
}

// putText stores string s at row r of a VARCHAR vec, copied into text
// (the parser and the read buffer reuse their memory).
func (c *converter) putText(vec *columnar.Vector, r int, s []byte, text *[]byte) {
	start := len(*text)
	*text = append(*text, s...)
	vec.Bytes[r] = (*text)[start:len(*text):len(*text)]
}

// plainString stores the contents of a JSON string without escapes at row
// r of a VARCHAR vec, as set would; false, storing nothing, for any other
// column or a string with escapes.
func (c *converter) plainString(vec *columnar.Vector, r int, s []byte, text *[]byte) bool {
	if c.col.Type.ID != columnar.Varchar || c.col.JSON || bytes.IndexByte(s, '\\') >= 0 {
		return false
	}
	c.putText(vec, r, s, text)
	return true
}

// set stores v (not null) at row r of vec; false if v is no value of the
// column's type. scratch receives JSON text.
func (c *converter) set(vec *columnar.Vector, r int, v *fastjson.Value, text *[]byte) bool {
	switch c.col.Type.ID {
	case columnar.List, columnar.Struct, columnar.Map:
		x, ok := c.nested(c.col.Type, v)
		if ok {
			vec.SetValue(r, columnar.MaxBatch, x)
		}
		return ok
	case columnar.Varchar:
		if !c.col.JSON && v.Type() == fastjson.TypeString {
			c.putText(vec, r, v.GetStringBytes(), text)
			return true
		}
		// The parser reuses its memory: strings are copied into text.
		start := len(*text)
		*text = v.MarshalTo(*text)
		vec.Bytes[r] = (*text)[start:len(*text):len(*text)]
		return true
	case columnar.Bool:
		switch v.Type() {
		case fastjson.TypeTrue:
			vec.Bools[r] = true
			return true
		case fastjson.TypeFalse:
			vec.Bools[r] = false
			return true
		case fastjson.TypeString:
			switch string(v.GetStringBytes()) {
			case "true", "t", "1":
				vec.Bools[r] = true
				return true
			case "false", "f", "0":
				vec.Bools[r] = false
				return true
			}
		}
		return false
	case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Int64, columnar.Uint8, columnar.Uint16, columnar.Uint32:
		var x int64
		switch v.Type() {
		case fastjson.TypeNumber:
			var err error
			if x, err = v.Int64(); err != nil {
				f, ferr := v.Float64()
				if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 9.2e18 {
					return false
				}
				x = int64(f)
			}
		case fastjson.TypeString:
			var err error
			if x, err = strconv.ParseInt(str(v.GetStringBytes()), 10, 64); err != nil {
				return false
			}
		case fastjson.TypeTrue:
			x = 1
		case fastjson.TypeFalse:
		default:
			return false
		}
		if lo, hi := c.col.Type.IntRange(); x < lo || x > hi {
			return false
		}
		vec.Ints[r] = x
		return true
	case columnar.Uint64:
		x, err := v.Uint64()
		vec.Uints[r] = x
		return err == nil
	case columnar.Float32, columnar.Float64:
		var f float64
		switch v.Type() {
		case fastjson.TypeNumber:
			var err error
			if f, err = v.Float64(); err != nil {
				return false
			}
		case fastjson.TypeString:
			var err error
			if f, err = strconv.ParseFloat(str(v.GetStringBytes()), 64); err != nil {
				return false
			}
		default:
			return false
		}
		if c.col.Type.ID == columnar.Float32 {
			f = float64(float32(f))
		}
		vec.Floats[r] = f
		return true
	case columnar.Decimal:
		f, err := v.Float64()
		if err != nil {
			return false
		}
		s := math.Round(f * math.Pow10(int(c.col.Type.Scale)))
		if math.Abs(s) >= math.Pow10(int(c.col.Type.Precision)) {
			return false
		}
		vec.Ints[r] = int64(s)
		return true
	case columnar.Date, columnar.Timestamp, columnar.Time:
		if v.Type() != fastjson.TypeString {
			return false
		}
		b := v.GetStringBytes()
		var x int64
		ok := false
		switch c.col.Type.ID {
		case columnar.Date:
			if c.date != nil {
				x, ok = c.date.ParseDays(b)
			} else if x, ok = isoDate(b); !ok {
				x, ok = columnar.ParseDate(string(b))
			}
		case columnar.Timestamp:
			if c.ts != nil {
				x, ok = c.ts.ParseMicros(b)
			} else {
				x, _, ok = columnar.ParseTimestamp(string(b))
			}
		case columnar.Time:
			x, ok = parseTime(b)
		}
		vec.Ints[r] = x
		return ok
	}
	switch c.col.Type.ID {
	case columnar.Uuid: // what inference finds it reads without Cast
		if v.Type() != fastjson.TypeString {
			return false
		}
		u, ok := columnar.ParseUUID(str(v.GetStringBytes()))
		if ok {
			vec.SetValue(r, columnar.MaxBatch, columnar.UUIDValue(u))
		}
		return ok
	case columnar.Hugeint:
		if v.Type() != fastjson.TypeNumber {
			break
		}
		if x, err := v.Int64(); err == nil {
			vec.SetValue(r, columnar.MaxBatch, columnar.WideValue(c.col.Type, columnar.Int128Of(x)))
			return true
		}
		if x, err := v.Uint64(); err == nil {
			vec.SetValue(r, columnar.MaxBatch, columnar.WideValue(c.col.Type, columnar.Uint128Of(x)))
			return true
		}
	}
	var s string
	switch v.Type() {
	case fastjson.TypeString:
		s = string(v.GetStringBytes())
	case fastjson.TypeNumber:
		s = string(v.MarshalTo(nil))
	default:
		return false
	}
	if c.cast == nil {
		return false
	}
	x, ok := c.cast(s, c.col.Type)
	if ok {
		vec.SetValue(r, columnar.MaxBatch, x)
	}
	return ok
}
