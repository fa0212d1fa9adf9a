package json

import (
	"fmt"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/strftime"
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
	kObject    // an object
	kArray     // an array
	kOther     // a string that is none of the above
	kTsSpace   // a string YYYY-MM-DD HH:MM:SS
	kTsT       // a string YYYY-MM-DDTHH:MM:SS
	kUint      // an integer above BIGINT's range that fits UBIGINT's
	kUUID      // a string that is a UUID in its 8-4-4-4-12 hex form
)

// timestampKinds are the timestamp layouts a column must keep to one of.
const timestampKinds = kTimestamp | kTsSpace | kTsT

// formats are the dateformat and timestampformat options: strings they
// read are DATE and TIMESTAMP to inference too, as in DuckDB.
type formats struct {
	date, ts *strftime.Format
}

// stringKind classifies a string value. A format given replaces ISO 8601
// for its type, as in DuckDB: with dateformat '%d/%m/%Y', '2024-01-05'
// is text.
func (f *formats) stringKind(s []byte) kind {
	if f.date != nil {
		if _, ok := f.date.ParseDays(s); ok {
			return kDate
		}
	} else if isISODate(s) {
		return kDate
	}
	if f.ts != nil {
		if _, ok := f.ts.ParseMicros(s); ok {
			return kTsSpace
		}
	} else if isISOTimestampZ(s) {
		return kTimestamp
	}
	if f.ts == nil && len(s) == 19 && (s[10] == ' ' || s[10] == 'T') {
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
	if isUUID(s) {
		return kUUID
	}
	return kOther
}

// isUUID reports whether s is a UUID as DuckDB's JSON inference knows one:
// 36 characters, hex digits in groups of 8-4-4-4-12 (no braces).
func isUUID(s []byte) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f') {
				return false
			}
		}
	}
	return true
}

// valueKind classifies a non-null value.
func (f *formats) valueKind(v *fastjson.Value) kind {
	switch v.Type() {
	case fastjson.TypeTrue, fastjson.TypeFalse:
		return kBool
	case fastjson.TypeNumber:
		if strings.ContainsAny(string(v.MarshalTo(nil)), ".eE") {
			return kFloat
		}
		if _, err := v.Int64(); err == nil {
			return kInt
		}
		if _, err := v.Uint64(); err == nil {
			return kUint // DuckDB reads it as UBIGINT: HUGEINT with BIGINTs
		}
		return kFloat
	case fastjson.TypeString:
		return kString | f.stringKind(v.GetStringBytes())
	case fastjson.TypeObject:
		return kObject
	}
	return kArray
}

// shape is what inference knows of the values at one place: their kinds,
// and for objects each key's shape (keys in the order first seen), for
// arrays their elements' shape.
type shape struct {
	k      kind
	names  []string
	byName map[string]int
	fields []*shape
	elem   *shape
}

// add merges non-null value v into s.
func (s *shape) add(v *fastjson.Value, f *formats) {
	k := f.valueKind(v)
	s.k |= k
	switch k {
	case kObject:
		o, _ := v.Object()
		o.Visit(func(key []byte, x *fastjson.Value) {
			i, ok := s.byName[string(key)]
			if !ok {
				if s.byName == nil {
					s.byName = map[string]int{}
				}
				i = len(s.names)
				s.byName[string(key)] = i
				s.names = append(s.names, string(key))
				s.fields = append(s.fields, &shape{})
			}
			if x.Type() != fastjson.TypeNull {
				s.fields[i].add(x, f)
			}
		})
	case kArray:
		if s.elem == nil {
			s.elem = &shape{}
		}
		for _, x := range v.GetArray() {
			if x.Type() != fastjson.TypeNull {
				s.elem.add(x, f)
			}
		}
	}
}

// columnOf turns the shape seen into a column type, as DuckDB: numbers
// widen (BIGINT, DOUBLE), strings are DATE or TIME when every one is,
// objects are STRUCTs of their keys and arrays LISTs, anything mixed is
// JSON text.
func columnOf(name string, s *shape) Column {
	t, json := typeOf(s)
	return Column{Name: name, Type: t, JSON: json}
}

// typeOf is the type of the values of shape s, and whether it is JSON text.
func typeOf(s *shape) (columnar.Type, bool) {
	k := s.k
	switch {
	case k == 0:
		return columnar.TVarchar, true
	case k == kObject:
		if len(s.names) == 0 {
			return columnar.TVarchar, true
		}
		fs := make([]columnar.Field, len(s.names))
		for i, n := range s.names {
			t, _ := typeOf(s.fields[i])
			fs[i] = columnar.Field{Name: n, Type: t, Nullable: true}
		}
		return columnar.StructOf(fs...), false
	case k == kArray:
		if s.elem == nil || s.elem.k == 0 {
			return columnar.ListOf(columnar.TVarchar), false // only empty arrays: DuckDB's VARCHAR[]
		}
		t, _ := typeOf(s.elem)
		return columnar.ListOf(t), false
	case k == kBool:
		return columnar.TBool, false
	case k == kInt:
		return columnar.TInt64, false
	case k&^(kInt|kUint) == 0:
		return columnar.THugeint, false
	case k&^(kInt|kUint|kFloat) == 0:
		return columnar.TFloat64, false
	case k&kString != 0 && k&^(kString|kDate|kTime|timestampKinds|kUUID|kOther) == 0:
		// A string column is DATE, TIME or TIMESTAMP only when every value
		// has one layout (DuckDB fixes one format per column).
		switch k &^ kString {
		case kDate:
			return columnar.TDate, false
		case kTime:
			return columnar.TTime, false
		case kTimestamp, kTsSpace, kTsT:
			return columnar.TTimestamp, false
		case kUUID:
			return columnar.TUuid, false
		}
		return columnar.TVarchar, false
	}
	return columnar.TVarchar, true
}

// inferrer accumulates the columns of sampled values.
type inferrer struct {
	record  shape // the objects' keys
	scalar  shape // non-object values
	objects int
	others  int
	formats formats
}

func (in *inferrer) add(v *fastjson.Value) {
	if v.Type() == fastjson.TypeObject {
		in.objects++
		in.record.add(v, &in.formats)
		return
	}
	in.others++
	if v.Type() != fastjson.TypeNull {
		in.scalar.add(v, &in.formats)
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
		sc := in.scalar
		if in.objects > 0 {
			// Objects beside other values: the values' merged shape.
			sc.k |= in.record.k
			sc.names, sc.byName, sc.fields = in.record.names, in.record.byName, in.record.fields
		}
		return []Column{columnOf("json", &sc)}, false, nil
	}
	out := make([]Column, len(in.record.names))
	seen := map[string]bool{}
	for i, n := range in.record.names {
		name := n
		for k := 1; seen[strings.ToLower(name)]; k++ {
			name = fmt.Sprintf("%s_%d", n, k)
		}
		seen[strings.ToLower(name)] = true
		out[i] = columnOf(name, in.record.fields[i])
		out[i].Key = n
	}
	return out, true, nil
}
