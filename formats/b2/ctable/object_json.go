package ctable

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/b2sql/b2sql/columnar"
)

// appendMpJSON appends msgpack value x as JSON text, as DuckDB shows a
// JSON value: arrays (a Python tuple's marker dropped) and objects (keys
// as their text), numbers and booleans bare, str as a string, bin as a
// string of its BLOB text. An extension value (python-blosc2 embeds its
// own objects as ext 42 and 43) has no JSON form: an error.
func appendMpJSON(dst []byte, x any) ([]byte, error) {
	var err error
	switch v := x.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, v), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case uint64:
		return strconv.AppendUint(dst, v, 10), nil
	case float64:
		return columnar.AppendJSONFloat(dst, v), nil
	case string:
		return columnar.Value{Type: columnar.TVarchar, S: v}.AppendJSON(dst), nil
	case []byte:
		return columnar.Value{Type: columnar.TBlob, S: string(v)}.AppendJSON(dst), nil
	case []any:
		xs, _ := untuple(v)
		dst = append(dst, '[')
		for i, e := range xs {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendMpJSON(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case mpMap:
		dst = append(dst, '{')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			k, ok := e.Key.(string)
			if !ok {
				kb, err := appendMpJSON(nil, e.Key)
				if err != nil {
					return nil, err
				}
				k = string(kb)
			}
			dst = columnar.Value{Type: columnar.TVarchar, S: k}.AppendJSON(dst)
			dst = append(dst, ':')
			if dst, err = appendMpJSON(dst, e.Val); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case mpExt:
		return nil, unsupportedf("a msgpack extension value (type %d, an embedded python-blosc2 object) has no SQL form", v.Type)
	}
	return nil, corruptf("msgpack value %T", x)
}

// jsonValue is x as a VARCHAR of its JSON text.
func jsonValue(x any) (columnar.Value, error) {
	b, err := appendMpJSON(nil, x)
	if err != nil {
		return columnar.Value{}, err
	}
	return columnar.Value{Type: columnar.TVarchar, S: string(b)}, nil
}

// appendJSONAsMp appends JSON text js as a msgpack value (an object's
// keys in their order): what a JSON part of an object column reads as is
// written back as the value it came from.
func appendJSONAsMp(b []byte, js []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	b, err := jsonValueAsMp(b, d, 0)
	if err == nil && d.More() {
		err = errors.New("text after the value")
	}
	if err != nil {
		return nil, fmt.Errorf("%q is not JSON text: %v", js, err)
	}
	return b, nil
}

func jsonValueAsMp(b []byte, d *json.Decoder, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, errors.New("nesting too deep")
	}
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch x := tok.(type) {
	case nil:
		return append(b, 0xc0), nil
	case bool:
		return mpAppend(b, x), nil
	case string:
		return mpStr(b, x), nil
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return mpInt(b, i), nil
		}
		if u, err := strconv.ParseUint(string(x), 10, 64); err == nil {
			return mpAppend(b, u), nil
		}
		f, err := x.Float64()
		if err != nil {
			return nil, err
		}
		return mpAppend(b, f), nil
	case json.Delim:
		var items [][]byte
		for d.More() {
			var it []byte
			if x == '{' {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				it = mpStr(it, k.(string))
			}
			if it, err = jsonValueAsMp(it, d, depth+1); err != nil {
				return nil, err
			}
			items = append(items, it)
		}
		if _, err := d.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		if x == '{' {
			b = mpMapHeader(b, len(items))
		} else {
			b = mpArrayHeader(b, len(items))
		}
		for _, it := range items {
			b = append(b, it...)
		}
		return b, nil
	}
	return nil, fmt.Errorf("JSON token %v", tok)
}
