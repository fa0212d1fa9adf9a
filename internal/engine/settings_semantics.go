package engine

import (
	"github.com/b2sql/b2sql/columnar"
)

// Settings that change what a query means, as DuckDB's of the same names;
// the binder reads them through current_setting (sql.binder.settingOn).
func init() {
	// flag registers a boolean setting whose default is def, kept in the
	// field field returns as "set to the non-default value".
	flag := func(name, desc string, def bool, field func(st *Settings) *bool) {
		Register(Setting{
			Name: name, Type: "BOOLEAN", Description: desc,
			Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
				if reset {
					*field(st) = false
					return nil
				}
				on, err := settingBool(v)
				*field(st) = on != def
				return err
			},
			Show: func(st *Settings) columnar.Value { return boolValue(*field(st) != def) },
		})
	}
	flag("scalar_subquery_error_on_multiple_rows",
		"When a scalar subquery returns multiple rows - return an error (true) or its first row (false)",
		true, func(st *Settings) *bool { return &st.SubqueryAnyRow })
	flag("ieee_floating_point_ops",
		"Use IEEE 754-compliant floating point operations: a floating-point division or remainder by zero is inf, -inf or NaN (true) or NULL (false)",
		true, func(st *Settings) *bool { return &st.NoIEEE })
	flag("order_by_non_integer_literal",
		"Allow ordering (and DISTINCT ON) by non-integer literals, which has no effect (false: an error)",
		false, func(st *Settings) *bool { return &st.OrderByLiteral })
}
