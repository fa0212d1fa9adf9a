package executor

import "github.com/b2sql/b2sql/columnar"

// castEnum casts to or from an ENUM as DuckDB does: text becomes the code
// of the value it spells (a conversion error when it spells none), an ENUM
// becomes its value's text and, from there, any type text casts to; an
// ENUM to another ENUM goes by value. No other type casts to an ENUM.
func castEnum(v columnar.Value, to columnar.Type) (columnar.Value, error) {
	from := v.Type
	if from.ID == columnar.Enum {
		if to.ID == columnar.Varchar {
			return columnar.StringValue(from.EnumText(v.I)), nil
		}
		return CastValue(columnar.StringValue(from.EnumText(v.I)), to)
	}
	if from.ID != columnar.Varchar {
		return columnar.Value{}, errorf("cannot cast %s to %s", from, to)
	}
	c, ok := to.EnumCode(v.S)
	if !ok {
		return columnar.Value{}, errorf("could not convert string %s to %s: it is not one of its values", quoteVal(v), to)
	}
	return columnar.EnumValue(to, c), nil
}
