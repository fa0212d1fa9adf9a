package ctable

import (
	"encoding/json"
	"strconv"

	"github.com/b2sql/b2sql/columnar"
)

// Rules are the declared constraints of one column, as python-blosc2's
// schema stores them (spec §6.2): numeric bounds ge/gt/le/lt, max_length
// of string values (characters), and NOT NULL (a column without null
// keys). Writers check them before a row is stored (internal/catalog's
// ColumnConstraints.Check); readers ignore them. The zero value allows
// everything but NULL.
type Rules struct {
	Bounds    []Bound
	MaxLength int // 0: no limit
	Nullable  bool
	// Default is the column's constant default, the schema's "default"
	// key (a number, a string or a boolean as JSON gives it; nil: none,
	// or a complex or bytes default b2sql does not read).
	Default *columnar.Value
}

// Bound is one numeric constraint: Op is "ge", "gt", "le" or "lt"; Val is
// a BIGINT or DOUBLE value.
type Bound struct {
	Op  string
	Val columnar.Value
}

// String renders the bound as the schema key writes it ("le=100").
func (b Bound) String() string { return b.Op + "=" + b.Val.String() }

// boundKeys are the schema keys of bounds, in python-blosc2's order.
var boundKeys = []string{"ge", "gt", "le", "lt"}

// parseRules reads a schema column object's constraint keys.
func parseRules(obj map[string]any) Rules {
	var r Rules
	for _, k := range boundKeys {
		n, ok := obj[k].(json.Number)
		if !ok {
			continue
		}
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			r.Bounds = append(r.Bounds, Bound{Op: k, Val: columnar.IntValue(columnar.TInt64, i)})
		} else if f, err := strconv.ParseFloat(string(n), 64); err == nil {
			r.Bounds = append(r.Bounds, Bound{Op: k, Val: columnar.FloatValue(columnar.TFloat64, f)})
		}
	}
	switch d := obj["default"].(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(d), 10, 64); err == nil {
			r.Default = &columnar.Value{Type: columnar.TInt64, I: i}
		} else if u, err := strconv.ParseUint(string(d), 10, 64); err == nil {
			v := columnar.UintValue(u)
			r.Default = &v
		} else if f, err := strconv.ParseFloat(string(d), 64); err == nil {
			r.Default = &columnar.Value{Type: columnar.TFloat64, F: f}
		}
	case string:
		v := columnar.StringValue(d)
		if f, ok := jsonFloat(d); ok { // a NaN or infinite float, as lenientJSON marks it
			v = columnar.FloatValue(columnar.TFloat64, f)
		}
		r.Default = &v
	case bool:
		v := columnar.BoolValue(d)
		r.Default = &v
	}
	if k, _ := obj["kind"].(string); k == "string" || k == "bytes" {
		if n, ok := jsonInt(obj["max_length"]); ok && n > 0 {
			r.MaxLength = int(n)
		}
	}
	return r
}

// Rules returns the declared constraints of each column of Schema (the
// halves of a complex column share their column's rules).
func (t *Table) Rules() []Rules {
	out := make([]Rules, len(t.cols))
	for i, c := range t.cols {
		cs := t.srcs[c.src].spec
		out[i] = cs.Rules
		out[i].Nullable = cs.Nullable
	}
	return out
}

// rulesJSON returns the schema keys of r for a column object (after kind
// and its kind-specific keys), in python-blosc2's order.
func rulesJSON(r Rules) jsonObj {
	var out jsonObj
	for _, k := range boundKeys {
		for _, b := range r.Bounds {
			if b.Op != k {
				continue
			}
			if b.Val.Type.IsInteger() {
				out = append(out, jsonKV{k, b.Val.I})
			} else {
				out = append(out, jsonKV{k, b.Val.AsFloat()})
			}
		}
	}
	if d := r.Default; d != nil && !d.Null {
		switch {
		case d.Type.Phys() == columnar.PhysUint:
			out = append(out, jsonKV{"default", d.Uint()})
		case d.Type.IsInteger():
			out = append(out, jsonKV{"default", d.I})
		case d.Type.ID == columnar.Bool:
			out = append(out, jsonKV{"default", d.Bool()})
		case d.Type.IsString():
			out = append(out, jsonKV{"default", d.S})
		default:
			out = append(out, jsonKV{"default", d.AsFloat()})
		}
	}
	return out
}
