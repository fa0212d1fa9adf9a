package planner

import (
	"reflect"
	"testing"

	"github.com/b2sql/b2sql/index"
)

// TestSwitches: the SET names of the rules and scan rules, their lookup by
// either spelling, and the split of a switched-off set into what Optimize
// and Build take.
func TestSwitches(t *testing.T) {
	want := []string{"fold_constants", "read_fields", "push_filters", "reorder_joins", "eager_aggregate", "share_subplans", "answer_from_metadata", "answer_from_index", "split_distinct",
		"group_distinct", "share_exprs", "share_sums", "make_top_k", "push_limits", "prune_columns", "block_pruning", "page_index", "bloom_filter",
		"late_materialization", "index_lookup", "sorted_limit", "topk_pruning", "dict_codes", "join_filter"}
	if got := SwitchNames(); !reflect.DeepEqual(got, want) {
		t.Errorf("SwitchNames() = %v\nwant %v", got, want)
	}
	for _, s := range Switches() {
		if s.Description == "" {
			t.Errorf("switch %s has no description", s.Name)
		}
	}
	for in, name := range map[string]string{"PushFilters": "push_filters", " PUSH_FILTERS ": "push_filters", "blockpruning": "block_pruning", "JoinFilter": "join_filter"} {
		if s, ok := LookupSwitch(in); !ok || s.Name != name {
			t.Errorf("LookupSwitch(%q) = %q, %v; want %q", in, s.Name, ok, name)
		}
	}
	if _, ok := LookupSwitch("push_filter"); ok {
		t.Error("LookupSwitch accepted a misspelt name")
	}
	rules, scan := SwitchesOff(map[string]bool{"reorder_joins": true, "dict_codes": true, "bloom_filter": true})
	if !reflect.DeepEqual(rules, map[string]bool{"ReorderJoins": true}) {
		t.Errorf("rules off = %v", rules)
	}
	if want := index.RuleSet(0).With(index.DictCodes).With(index.BloomFilter); scan != want {
		t.Errorf("scan rules off = %b, want %b", scan, want)
	}
}
