package parser_test

import (
	"testing"

	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/parser"
	"github.com/b2sql/b2sql/sql/parser/parsertest"
)

// roundTrip parses the formatted text of every statement of st and
// reports how the second parse differs, "" when the trees are Equal.
func roundTrip(stmts []ast.Stmt) string {
	for _, st := range stmts {
		text := ast.Format(st)
		again, err := parser.Parse(text)
		if err != nil {
			return "formatted text does not parse: " + err.Error() + "\n  " + text
		}
		if !ast.Equal(st, again) {
			return "trees differ after the round trip:\n  " + text + "\n  " + ast.Format(again)
		}
	}
	return ""
}

// TestRoundTripCorpus parses every statement of the corpus (tests/,
// testdata/slt, DuckDB's test files when present), prints it and parses
// the text again: the trees must be Equal.
func TestRoundTripCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("parses and prints every statement of the corpus")
	}
	recs, missing := parsertest.Corpus(".")
	for _, m := range missing {
		t.Logf("corpus: skipping %s (not present)", m)
	}
	parsed, failedOK, failedErr, stmts := 0, 0, 0, 0
	var shown int
	for _, r := range recs {
		st, err := parser.ParseScript(r.SQL)
		if err != nil {
			if r.Error {
				failedErr++
			} else {
				failedOK++
				if shown < 1000 && testing.Verbose() {
					shown++
					t.Logf("%s:%d: %v\n%s", r.File, r.Line, err, r.SQL)
				}
			}
			continue
		}
		parsed++
		stmts += len(st)
		if d := roundTrip(st); d != "" {
			t.Errorf("%s:%d: %s", r.File, r.Line, d)
		}
	}
	t.Logf("corpus: %d records, %d parsed (%d statements round-tripped), %d expected to succeed failed to parse, %d expected to fail failed to parse",
		len(recs), parsed, stmts, failedOK, failedErr)
	if len(recs) > 0 && parsed < len(recs)/2 {
		t.Fatalf("only %d of %d records parse", parsed, len(recs))
	}
}
