package planner

import (
	"strings"

	"github.com/b2sql/b2sql/index"
)

// Switches: every optimization a user can turn off by name, `SET <name> =
// off` or `SET disabled_rules = 'a,b'` (and `SET pruning = off` for all).
// They are of two kinds, listed here in one place so that the names, the
// descriptions and what each switches off cannot drift apart:
//
//   - the logical rules Optimize runs (Rules), named in snake_case
//     (FoldConstants is fold_constants);
//   - the physical choices Build and the scans make (index.ScanRule: block
//     pruning, page indexes, bloom filters, late materialization, index
//     lookups, sorted limits, top-k pruning, dictionary codes, join filters).
//
// Switching one off never changes a result, only the work done.

// Switch is one switchable optimization.
type Switch struct {
	Name        string // the SET name, snake_case
	Description string
	Rule        string         // the Optimize rule it names ("" for a scan rule)
	Scan        index.ScanRule // the scan rule it names, when Rule is ""
}

// scanRuleDocs describe the physical choices, by index.ScanRule.
var scanRuleDocs = [index.NumScanRules]string{
	index.BlockPruning:        "skip row groups and blocks whose min/max statistics (Parquet footers, CTable SUMMARY) rule the filter out",
	index.PageIndex:           "skip Parquet pages by their ColumnIndex/OffsetIndex",
	index.BloomFilter:         "skip Parquet row groups whose bloom filter holds none of the values of an = or IN",
	index.LateMaterialization: "decode the filter columns first and the others only for the rows that pass",
	index.IndexLookup:         "answer a predicate from a FULL (sorted) index: positions, then only their blocks",
	index.SortedLimit:         "stream ORDER BY col LIMIT k from a FULL index instead of sorting",
	index.TopKPruning:         "let a top-k skip units whose min/max cannot beat its k-th value",
	index.DictCodes:           "filter and group dictionary-encoded columns on their codes",
	index.JoinFilter:          "filter a join's probe scan by the build side's keys (range, bitmap or bloom)",
}

// Switches lists every switch: the optimizer rules in their order, then the
// scan rules.
func Switches() []Switch {
	out := make([]Switch, 0, len(Rules)+int(index.NumScanRules))
	for _, r := range Rules {
		out = append(out, Switch{Name: snakeCase(r.Name), Description: r.Doc, Rule: r.Name})
	}
	for r := index.ScanRule(0); r < index.NumScanRules; r++ {
		out = append(out, Switch{Name: r.String(), Description: scanRuleDocs[r], Scan: r})
	}
	return out
}

// SwitchNames lists every switch's SET name, in Switches' order.
func SwitchNames() []string {
	var out []string
	for _, s := range Switches() {
		out = append(out, s.Name)
	}
	return out
}

// LookupSwitch finds a switch by a user-written name: snake_case or the
// rule's CamelCase, any case.
func LookupSwitch(name string) (Switch, bool) {
	want := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "_", "")
	for _, s := range Switches() {
		if strings.ReplaceAll(s.Name, "_", "") == want {
			return s, true
		}
	}
	return Switch{}, false
}

// SwitchesOff splits a set of switched-off SET names into the Optimize
// rules to skip (Options.Disabled) and the scan rules to skip
// (BuildOptions.ScanRulesOff).
func SwitchesOff(off map[string]bool) (map[string]bool, index.RuleSet) {
	var rules map[string]bool
	var scan index.RuleSet
	for _, s := range Switches() {
		if !off[s.Name] {
			continue
		}
		if s.Rule != "" {
			if rules == nil {
				rules = map[string]bool{}
			}
			rules[s.Rule] = true
		} else {
			scan = scan.With(s.Scan)
		}
	}
	return rules, scan
}

// snakeCase turns "AnswerFromMetadata" into "answer_from_metadata".
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
