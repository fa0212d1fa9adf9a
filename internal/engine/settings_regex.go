package engine

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// regex_match_operator_semantics: whether x ~ p (and ~*, !~, !~*, and a
// star's ~) is a partial match, regexp_matches, or a full one,
// regexp_full_match, as in DuckDB since its 2026 releases (DuckDB 1.5
// matched in full; its newer test files expect 'partial' by default). The
// binder reads it through current_setting (sql.matchCall).
func init() {
	Register(Setting{
		Name: "regex_match_operator_semantics", Type: "VARCHAR",
		Description: "Whether the regular expression match operators (~, ~*, !~, !~*) match part of the string (partial) or all of it (full)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			if reset {
				st.RegexFull = false
				return nil
			}
			switch s := strings.ToLower(v.S); {
			case v.Null || !v.Type.IsString():
			case s == "partial":
				st.RegexFull = false
				return nil
			case s == "full":
				st.RegexFull = true
				return nil
			}
			return fmt.Errorf("unrecognized value %q for regex_match_operator_semantics, expected 'partial' or 'full'", v.S)
		},
		Show: func(st *Settings) columnar.Value {
			if st.RegexFull {
				return stringValue("full")
			}
			return stringValue("partial")
		},
	})
}
