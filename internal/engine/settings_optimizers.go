package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// duckOptimizers maps DuckDB's optimizer names (duckdb_optimizers(), as
// disabled_optimizers takes them) to the b2sql switches (planner.Switches)
// that do the same work. An empty list is an optimizer b2sql has no
// counterpart of: it never runs, so disabling it holds already. A name
// whose work b2sql does in part (build_side_probe_side) maps to the switch
// of that part, and the comment says what is left.
var duckOptimizers = map[string][]string{
	"expression_rewriter": {"fold_constants"}, // constant folding and expression simplification
	"filter_pullup":       nil,                // b2sql does not pull filters up through joins
	"filter_pushdown":     {"push_filters"},
	"empty_result_pullup": nil,
	// DuckDB pushes the readers' filters into a materialized CTE; b2sql
	// inlines an entry used once (planner/cte.go) and computes the others
	// whole.
	"cte_filter_pusher": nil,
	"regex_range":       nil,
	"in_clause":         nil,
	"join_order":        {"reorder_joins"},
	"deliminator":       nil, // b2sql decorrelates in the binder, with no delim joins to remove
	"unnest_rewriter":   nil,
	"unused_columns":    {"prune_columns"},
	// DuckDB infers constant filters from column statistics at plan time;
	// b2sql uses statistics only while scanning (block_pruning).
	"statistics_propagation": nil,
	"common_subexpressions":  {"share_exprs"},
	// DuckDB removes duplicate aggregates; b2sql's binder binds each
	// distinct aggregate once, always.
	"common_aggregate": nil,
	"column_lifetime":  nil,
	"limit_pushdown":   {"push_limits"},
	"row_group_pruner": {"block_pruning"},
	"top_n":            {"make_top_k"},
	// DuckDB turns a row_number() <= k filter into a top-n; b2sql has no
	// such rewrite.
	"top_n_window_elimination": nil,
	// reorder_joins lets outer joins build the smaller side; an inner
	// join's sides are chosen when the hash join is built, unswitchable.
	"build_side_probe_side": {"reorder_joins"},
	// DuckDB narrows keys before sorts and aggregates; b2sql keeps string
	// keys as dictionary codes instead (dict_codes), a different saving.
	"compressed_materialization": nil,
	"duplicate_groups":           nil,
	"reorder_filter":             nil,
	"sampling_pushdown":          nil,
	"join_filter_pushdown":       {"join_filter"},
	"extension":                  nil,
	"materialized_cte":           nil,
	"sum_rewriter":               nil,
	// DuckDB's fetches a top-n's other columns by row id; b2sql's decodes
	// a scan's other columns only for the rows its filter passes: both
	// read the columns no filter needs last.
	"late_materialization": {"late_materialization"},
	"cte_inlining":         nil,
	"common_subplan":       {"share_subplans"},
	"join_elimination":     nil,
	"window_self_join":     nil,
	// Names of DuckDB releases after 1.5: count(DISTINCT) as a two-level
	// aggregate is split_distinct; projections are not pulled up.
	"distinct_aggregate_rewrite": {"split_distinct"},
	"projection_pullup":          nil,
}

// disabled_optimizers takes DuckDB's optimizer names and switches their
// b2sql counterparts off (as disabled_rules does with b2sql's names, which
// it takes too); it shows the names as set, and RESET switches every rule
// on again.
func init() {
	Register(Setting{
		Name: "disabled_optimizers", Type: "VARCHAR",
		Description: "DEBUG SETTING: disable a specific set of optimizers (comma separated DuckDB optimizer names; b2sql switches off the rules that do their work)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			st.RulesOff, st.OptimizersOff = nil, nil
			if reset {
				return nil
			}
			if !v.Type.IsString() {
				return fmt.Errorf("expected a string of comma-separated optimizer names, got %s", v.String())
			}
			off := map[string]bool{}
			var names []string
			for _, r := range strings.Split(v.S, ",") {
				r = strings.ToLower(strings.TrimSpace(r))
				if r == "" {
					continue
				}
				rules, ok := duckOptimizers[r]
				if !ok {
					sw, isRule := planner.LookupSwitch(r)
					if !isRule {
						return fmt.Errorf("optimizer type %q not recognized (optimizers: %s; or a rule name: %s)", r, strings.Join(duckOptimizerNames(), ", "), strings.Join(planner.SwitchNames(), ", "))
					}
					rules = []string{sw.Name}
				}
				for _, x := range rules {
					off[x] = true
				}
				names = append(names, r)
			}
			st.RulesOff, st.OptimizersOff = off, names
			return nil
		},
		Show: func(st *Settings) columnar.Value { return stringValue(strings.Join(st.OptimizersOff, ",")) },
	})
}

func duckOptimizerNames() []string {
	names := make([]string, 0, len(duckOptimizers))
	for n := range duckOptimizers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
