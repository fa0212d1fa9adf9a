package engine

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// explain_output chooses what EXPLAIN of a query shows, as in DuckDB:
// physical_only (the default) the operator tree that runs; optimized_only
// the logical plan after the optimizer's rules (planner.Format); all the
// logical plan as bound, then as optimized, then the operators, each
// under its name (DuckDB's explain_key: logical_plan, logical_opt,
// physical_plan). EXPLAIN ANALYZE and EXPLAIN of a write show the
// operators whatever the setting: what ran is what they measure.
func init() {
	Register(Setting{
		Name: "explain_output", Type: "VARCHAR",
		Description: "Output of EXPLAIN statements (ALL, OPTIMIZED_ONLY, PHYSICAL_ONLY)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			if reset {
				st.ExplainOutput = ""
				return nil
			}
			switch strings.ToLower(v.S) {
			case "all", "optimized_only", "physical_only":
				if v.Type.IsString() {
					st.ExplainOutput = v.S
					return nil
				}
			}
			return fmt.Errorf("unrecognized value %s, expected ALL, OPTIMIZED_ONLY or PHYSICAL_ONLY", v.String())
		},
		Show: func(st *Settings) columnar.Value {
			if st.ExplainOutput == "" {
				return stringValue("PHYSICAL_ONLY")
			}
			return stringValue(st.ExplainOutput)
		},
	})
}

// explainLogical is the text of EXPLAIN q under explain_output =
// optimized_only or all (mode, lower case).
func (s *Session) explainLogical(q *sql.Query, args []columnar.Value, mode string) (string, error) {
	bound, err := s.bind(q, s.cat(), args)
	if err != nil {
		return "", err
	}
	// Format before Optimize, which may reuse the bound nodes.
	unoptimized := planner.Format(bound.Root)
	opt, bopts := s.buildOptions(false, 0)
	root, changed := planner.Optimize(bound.Root, opt)
	optimized := strings.TrimSuffix(planner.Format(root), "\n")
	if mode == "optimized_only" {
		return optimized, nil
	}
	built, err := planner.Build(root, bopts)
	if err != nil {
		return "", err
	}
	built.Rules = changed
	return "logical_plan:\n" + strings.TrimSuffix(unoptimized, "\n") + "\nlogical_opt:\n" + optimized +
		"\nphysical_plan:\n" + built.Explain(false), nil
}
