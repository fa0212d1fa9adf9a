package engine

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql"
)

// default_null_order and default_order: the NULL placement and the
// direction of ORDER BY keys (queries, set operations, window and
// aggregate ORDER BY, DISTINCT ON) that do not state them, as in DuckDB.
// The binder reads them through current_setting (sql.binder.sortOrder).
func init() {
	Register(Setting{
		Name: "default_null_order", Aliases: []string{"null_order"}, Type: "VARCHAR",
		Description: "NULL ordering used when none is specified (NULLS_FIRST, NULLS_LAST, NULLS_FIRST_ON_ASC_LAST_ON_DESC or NULLS_LAST_ON_ASC_FIRST_ON_DESC)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			if reset {
				st.NullOrder = sql.NullsLast
				return nil
			}
			o, ok := sql.ParseNullOrder(v.S)
			if !v.Type.IsString() || !ok {
				return fmt.Errorf("unrecognized value %q, expected NULLS_FIRST, NULLS_LAST, NULLS_FIRST_ON_ASC_LAST_ON_DESC, NULLS_LAST_ON_ASC_FIRST_ON_DESC, sqlite, mysql or postgres", v.S)
			}
			st.NullOrder = o
			return nil
		},
		Show: func(st *Settings) columnar.Value { return stringValue(st.NullOrder.String()) },
	})
	Register(Setting{
		Name: "default_order", Type: "VARCHAR",
		Description: "The order type used when none is specified (ASC or DESC)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			if reset {
				st.DefaultOrder = ""
				return nil
			}
			desc, ok := sql.ParseOrder(v.S)
			if !v.Type.IsString() || !ok {
				return fmt.Errorf("unrecognized value %q, expected ASC or DESC", v.S)
			}
			st.DefaultOrder = "ASC"
			if desc {
				st.DefaultOrder = "DESC"
			}
			return nil
		},
		// DuckDB shows the default as ASCENDING, a value set as ASC or DESC.
		Show: func(st *Settings) columnar.Value {
			if st.DefaultOrder == "" {
				return stringValue("ASCENDING")
			}
			return stringValue(st.DefaultOrder)
		},
	})
}
