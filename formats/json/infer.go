package json

import (
	"fmt"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/b2sql/b2sql/columnar"
)

// kind is what inference knows of a column so far: a set of JSON shapes.
type kind uint16

const (
	kBool kind = 1 << iota
	kInt
	kFloat
	kString
	kDate      // a string that is a DATE
	kTime      // a string that is a TIME
	kTimestamp // a string that is an ISO timestamp with 'T' and 'Z'
	kNested    // an object or array
	kOther     // a string that is none of the above
	kTsSpace   // a string YYYY-MM-DD HH:MM:SS
	kTsT       // a string YYYY-MM-DDTHH:MM:SS
)

// timestampKinds are the timestamp layouts a column must keep to one of.
const timestampKinds = kTimestamp | kTsSpace | kTsT

// stringKind classifies a string value.
func stringKind(s []byte) kind {
	if isISODate(s) {
		return kDate
	}
	if isISOTimestampZ(s) {
		return kTimestamp
	}
	if len(s) == 19 && (s[10] == ' ' || s[10] == 'T') {
		if _, _, ok := columnar.ParseTimestamp(string(s)); ok && s[13] == ':' && s[16] == ':' {
			if s[10] == ' ' {
				return kTsSpace
			}
			return kTsT
		}
	}
	if _, ok := parseTime(s); ok {
		return kTime
	}
	return kOther
}

// valueKind classifies a non-null value.
func valueKind(v *fastjson.Value) kind {
	switch v.Type() {
	case fastjson.TypeTrue, fastjson.TypeFalse:
		return kBool
	case fastjson.TypeNumber:
		if _, err := v.Int64(); err == nil && !strings.ContainsAny(string(v.MarshalTo(nil)), ".eE") {
			return kInt
		}
		return kFloat
	case fastjson.TypeString:
		return kString | stringKind(v.GetStringBytes())
	}
	return kNested
}

// columnOf turns the kinds seen into a column type, as DuckDB: numbers
// widen (BIGINT, DOUBLE), strings are DATE or TIME when every one is,
// anything mixed or nested is JSON text.
func columnOf(name string, k kind) Column {
	c := Column{Name: name}
	switch {
	case k == 0:
		c.Type, c.JSON = columnar.TVarchar, true
	case k == kBool:
		c.Type = columnar.TBool
	case k == kInt:
		c.Type = columnar.TInt64
	case k&^(kInt|kFloat) == 0:
		c.Type = columnar.TFloat64
	case k&kString != 0 && k&^(kString|kDate|kTime|timestampKinds|kOther) == 0:
		// A string column is DATE, TIME or TIMESTAMP only when every value
		// has one layout (DuckDB fixes one format per column).
		switch k &^ kString {
		case kDate:
			c.Type = columnar.TDate
		case kTime:
			c.Type = columnar.TTime
		case kTimestamp, kTsSpace, kTsT:
			c.Type = columnar.TTimestamp
		default:
			c.Type = columnar.TVarchar
		}
	default:
		c.Type, c.JSON = columnar.TVarchar, true
	}
	return c
}

// inferrer accumulates the columns of sampled values.
type inferrer struct {
	records int // 1: objects, 0: not yet known, -1: values
	names   []string
	byName  map[string]int
	kinds   []kind
	scalar  kind // kinds of non-object values
	objects int
	others  int
}

func (in *inferrer) add(v *fastjson.Value) {
	if v.Type() == fastjson.TypeObject {
		in.objects++
		o, _ := v.Object()
		o.Visit(func(key []byte, x *fastjson.Value) {
			i, ok := in.byName[string(key)]
			if !ok {
				if in.byName == nil {
					in.byName = map[string]int{}
				}
				i = len(in.names)
				in.byName[string(key)] = i
				in.names = append(in.names, string(key))
				in.kinds = append(in.kinds, 0)
			}
			if x.Type() != fastjson.TypeNull {
				in.kinds[i] |= valueKind(x)
			}
		})
		return
	}
	in.others++
	if v.Type() != fastjson.TypeNull {
		in.scalar |= valueKind(v)
	}
}

// columns returns the inferred columns; records is the option.
func (in *inferrer) columns(records string) ([]Column, bool, error) {
	asRecords := in.objects > 0 && in.others == 0
	switch records {
	case "true":
		if in.others > 0 {
			return nil, false, fmt.Errorf("%w: records = true but a value is not an object", ErrMalformed)
		}
		asRecords = true
	case "false":
		asRecords = false
	}
	if !asRecords {
		k := in.scalar
		if in.objects > 0 {
			k |= kNested
		}
		c := columnOf("json", k)
		return []Column{c}, false, nil
	}
	out := make([]Column, len(in.names))
	seen := map[string]bool{}
	for i, n := range in.names {
		name := n
		for k := 1; seen[strings.ToLower(name)]; k++ {
			name = fmt.Sprintf("%s_%d", n, k)
		}
		seen[strings.ToLower(name)] = true
		out[i] = columnOf(name, in.kinds[i])
		out[i].Key = n
	}
	return out, true, nil
}
