package engine

import (
	"strings"

	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/planner"
)

// Rule switches: every optimizer rule (planner.Rules) and every scan fast
// path (index.ScanRule) has a snake_case name a user can switch off with
// `SET <rule> = off` or `SET disabled_rules = 'a,b'`; `SET pruning = off`
// switches them all off. Results never change, only the work done.

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

// ruleNames lists every switchable rule: optimizer rules, then scan rules.
func ruleNames() []string {
	var out []string
	for _, r := range planner.Rules {
		out = append(out, snakeCase(r.Name))
	}
	return append(out, index.ScanRuleNames()...)
}

// canonicalRule maps a user-written rule name (snake_case or the planner's
// CamelCase, any case) to its snake_case name.
func canonicalRule(name string) (string, bool) {
	want := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "_", "")
	for _, n := range ruleNames() {
		if strings.ReplaceAll(n, "_", "") == want {
			return n, true
		}
	}
	return "", false
}

// rulesOff splits the session's switched-off rules into planner rule
// names (planner.Options.Disabled) and scan rules.
func rulesOff(off map[string]bool) (map[string]bool, index.RuleSet) {
	var disabled map[string]bool
	var scan index.RuleSet
	for _, r := range planner.Rules {
		if off[snakeCase(r.Name)] {
			if disabled == nil {
				disabled = map[string]bool{}
			}
			disabled[r.Name] = true
		}
	}
	for n := range off {
		if r, ok := index.ParseScanRule(n); ok {
			scan = scan.With(r)
		}
	}
	return disabled, scan
}
