package b2sql

import (
	"encoding/json"

	"github.com/b2sql/b2sql/columnar"
)

// nestedValue is Value for LIST, STRUCT and MAP cells: []any of the
// elements, map[string]any of a struct's fields, map[any]any of a map's
// entries (as DuckDB's Go driver gives them), each part by Value.
func nestedValue(v columnar.Value) any {
	switch v.Type.ID {
	case columnar.List:
		out := make([]any, len(v.Elems))
		for i, e := range v.Elems {
			out[i] = Value(e)
		}
		return out
	case columnar.Struct:
		out := make(map[string]any, len(v.Elems))
		for i, f := range v.Type.Fields() {
			out[f.Name] = Value(v.Elems[i])
		}
		return out
	}
	out := make(map[any]any, len(v.Elems))
	for _, e := range v.Elems {
		out[Value(e.Elems[0])] = Value(e.Elems[1])
	}
	return out
}

// scanNested stores a cell in *[]any (a LIST), *map[string]any (a STRUCT)
// or *json.RawMessage (any cell, as JSON output writes it); ok is false
// for other destinations.
func scanNested(v columnar.Value, dest any) (ok bool, err error) {
	switch d := dest.(type) {
	case *json.RawMessage:
		*d = v.AppendJSON(nil)
		return true, nil
	case *[]any:
		switch {
		case v.Null:
			*d = nil
		case v.Type.ID == columnar.List:
			*d = nestedValue(v).([]any)
		default:
			return true, mismatch(v, dest)
		}
		return true, nil
	case *map[string]any:
		switch {
		case v.Null:
			*d = nil
		case v.Type.ID == columnar.Struct:
			*d = nestedValue(v).(map[string]any)
		default:
			return true, mismatch(v, dest)
		}
		return true, nil
	}
	return false, nil
}
