package columnar

import "strings"

// An ENUM type's values are an ordered list of strings. A vector of an
// ENUM holds each value's position in that list (its code, 0-based) in an
// int64 (PhysInt), so comparisons, ORDER BY and GROUP BY work on the codes
// and order values by their declared position, as DuckDB does. The list
// lives in the type's Nest (interned by the type's name, so ENUM types
// compare with ==), which keeps Type two words wide.

// enumDict is an ENUM's values and the code of each.
type enumDict struct {
	values []string
	codes  map[string]int64
}

// EnumOf returns the type ENUM(values…). The values must be distinct.
func EnumOf(values ...string) Type {
	var b strings.Builder
	b.WriteString("ENUM(")
	for i, v := range values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(QuoteString(v))
	}
	b.WriteByte(')')
	name := b.String()
	if got, ok := nests.Load(name); ok {
		return Type{ID: Enum, Nest: got.(*Nest)}
	}
	d := &enumDict{values: append([]string(nil), values...), codes: make(map[string]int64, len(values))}
	for i, v := range d.values {
		d.codes[v] = int64(i)
	}
	return Type{ID: Enum, Nest: intern(&Nest{name: name, enum: d})}
}

// QuoteString spells s as a SQL string literal: in single quotes, with
// each quote doubled.
func QuoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// EnumValues returns an ENUM's values in code order; the slice is shared,
// callers must not modify it.
func (t Type) EnumValues() []string { return t.Nest.enum.values }

// EnumCode returns the code of the value s of an ENUM, false when s is not
// one of its values.
func (t Type) EnumCode(s string) (int64, bool) {
	c, ok := t.Nest.enum.codes[s]
	return c, ok
}

// EnumText returns the value of code c of an ENUM ("" for a code out of
// range, which no vector of the type holds).
func (t Type) EnumText(c int64) string {
	vals := t.Nest.enum.values
	if c < 0 || c >= int64(len(vals)) {
		return ""
	}
	return vals[c]
}

// EnumCodeType is the unsigned integer type DuckDB stores an ENUM's codes
// in (and enum_code returns): UTINYINT up to 255 values, USMALLINT up to
// 65,535, UINTEGER past that.
func (t Type) EnumCodeType() Type {
	switch n := len(t.Nest.enum.values); {
	case n <= 1<<8-1:
		return TUint8
	case n <= 1<<16-1:
		return TUint16
	}
	return TUint32
}

// EnumValue returns the ENUM value of code c.
func EnumValue(t Type, c int64) Value { return Value{Type: t, I: c} }
