package index

import (
	"fmt"
	"strings"
)

// ScanRule names one fast path a scan may take. Each can be switched off
// by the user (SET <rule> = off, or SET disabled_rules = 'a,b'), which must
// never change a result, only the work done: the rules-off test matrix runs
// every query file both ways.
type ScanRule uint8

const (
	BlockPruning        ScanRule = iota // skip row groups / blocks by min/max statistics (SUMMARY, footers)
	PageIndex                           // skip Parquet pages by ColumnIndex/OffsetIndex
	BloomFilter                         // skip Parquet row groups by bloom filter (=, IN)
	LateMaterialization                 // decode filter columns first, the rest only for selected rows
	IndexLookup                         // FULL (sorted) index: predicate -> row positions -> blocks
	SortedLimit                         // ORDER BY col LIMIT k streamed from a FULL index
	TopKPruning                         // top-k skips units whose min/max cannot beat the k-th value
	DictCodes                           // dictionary columns filtered/grouped on codes
	JoinFilter                          // a hash join's build keys (range, bitmap/bloom) filter the probe scan
	NumScanRules
)

var scanRuleNames = [NumScanRules]string{
	BlockPruning:        "block_pruning",
	PageIndex:           "page_index",
	BloomFilter:         "bloom_filter",
	LateMaterialization: "late_materialization",
	IndexLookup:         "index_lookup",
	SortedLimit:         "sorted_limit",
	TopKPruning:         "topk_pruning",
	DictCodes:           "dict_codes",
	JoinFilter:          "join_filter",
}

func (r ScanRule) String() string {
	if r < NumScanRules {
		return scanRuleNames[r]
	}
	return fmt.Sprintf("rule%d", r)
}

// ParseScanRule finds a scan rule by its name (case-insensitive).
func ParseScanRule(name string) (ScanRule, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for r, n := range scanRuleNames {
		if n == name {
			return ScanRule(r), true
		}
	}
	return 0, false
}

// ScanRuleNames lists every scan rule name, in rule order.
func ScanRuleNames() []string { return append([]string(nil), scanRuleNames[:]...) }

// RuleSet is a set of scan rules (a bit per rule).
type RuleSet uint32

// Has reports whether r is in the set.
func (s RuleSet) Has(r ScanRule) bool { return s&(1<<r) != 0 }

// With returns the set plus r.
func (s RuleSet) With(r ScanRule) RuleSet { return s | 1<<r }

// Names lists the set's rules, in rule order.
func (s RuleSet) Names() []string {
	var out []string
	for r := ScanRule(0); r < NumScanRules; r++ {
		if s.Has(r) {
			out = append(out, r.String())
		}
	}
	return out
}

// On reports whether the scan may use rule r: neither every rule is off
// (NoPrune) nor r alone.
func (s ScanSpec) On(r ScanRule) bool { return !s.NoPrune && !s.Off.Has(r) }
