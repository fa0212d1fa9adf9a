package sql

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/sql/parser"
	"github.com/b2sql/b2sql/sql/parser/parsertest"
)

// TestLegacyFallbacks measures the migration off the vitess path: over
// every statement of the repository's .test files it counts, by kind of
// statement, those Parse still hands to parseLegacy. The kinds built from
// the syntax tree must never fall back.
func TestLegacyFallbacks(t *testing.T) {
	recs, err := parsertest.Records("../tests")
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[string]int{}
	total, legacy := 0, 0
	for _, r := range recs {
		for _, src := range Split(r.SQL) {
			tree, perr := parser.Parse(src.Text)
			kind := "(syntax error)"
			if perr == nil {
				kind = strings.TrimPrefix(fmt.Sprintf("%T", tree), "*ast.")
			}
			before := LegacyParses()
			_, _ = Parse(src)
			total++
			if LegacyParses() > before {
				legacy++
				byKind[kind]++
				if testing.Verbose() {
					t.Logf("%s:%d: %s: %s", r.File, r.Line, kind, src.Text)
				}
				switch kind {
				case "Set", "Reset", "Show", "Drop", "CreateIndex", "Reindex", "Attach", "Truncate", "Deallocate":
					t.Errorf("%s:%d: a %s statement took the legacy path: %s", r.File, r.Line, kind, src.Text)
				}
			}
		}
	}
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return byKind[kinds[i]] > byKind[kinds[j]] })
	var b strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&b, " %s %d", k, byKind[k])
	}
	t.Logf("%d of %d statements take the legacy path:%s", legacy, total, b.String())
}
