package sql

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/sql/parser"
	"github.com/b2sql/b2sql/sql/parser/parsertest"
)

// oldParse is how the module root parses a statement today (Parse, with
// its legacy fallback); a panic of the MySQL grammar is a failure too.
func oldParse(src Source) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	_, err = Parse(src)
	return err
}

// TestFrontEndCoverage counts, over DuckDB's test files, the records
// DuckDB runs without error whose statement the old front end (vitess
// behind the rewriter) and the new parser reject at parse time, and lists
// the new parser's remaining failures by class. The new parser must
// reject fewer.
func TestFrontEndCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the old front end over DuckDB's test files")
	}
	if _, err := os.Stat(parsertest.DuckDBTests); err != nil {
		t.Skipf("%s not present", parsertest.DuckDBTests)
	}
	recs, err := parsertest.Records(parsertest.DuckDBTests)
	if err != nil {
		t.Fatal(err)
	}
	var ok, oldSyntax, oldUnsupported, oldOther, newFail int
	classes := map[string][]string{}
	for _, r := range recs {
		if r.Error {
			continue
		}
		ok++
		for _, src := range Split(r.SQL) {
			if err := oldParse(src); err != nil {
				switch {
				case errors.Is(err, ErrSyntax):
					oldSyntax++
				case errors.Is(err, ErrUnsupported):
					oldUnsupported++
				default:
					oldOther++
				}
				break
			}
		}
		if _, err := parser.ParseScript(r.SQL); err != nil {
			newFail++
			c := failureClass(err.Error())
			classes[c] = append(classes[c], fmt.Sprintf("%s:%d", strings.TrimPrefix(r.File, parsertest.DuckDBTests+"/"), r.Line))
		}
	}
	t.Logf("duckdb-tests: %d records DuckDB expects to succeed", ok)
	t.Logf("old front end: %d rejected at parse time (%d syntax errors, %d \"not supported\", %d other)",
		oldSyntax+oldUnsupported+oldOther, oldSyntax, oldUnsupported, oldOther)
	t.Logf("new parser:    %d rejected", newFail)
	keys := make([]string, 0, len(classes))
	for k := range classes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(classes[keys[i]]) > len(classes[keys[j]]) })
	for _, k := range keys {
		t.Logf("  %3d  %s  (e.g. %s)", len(classes[k]), k, classes[k][0])
	}
	if newFail >= oldSyntax+oldUnsupported+oldOther {
		t.Errorf("the new parser rejects %d records, the old front end %d", newFail, oldSyntax+oldUnsupported+oldOther)
	}
}

// TestNothingAcceptedIsLost: every statement of the repository's own test
// files (tests/, testdata/slt) that the old front end parses, the new
// parser parses too (records that expect an error are left out: there the
// new parser may reject at parse time what the binder rejects today, as
// DuckDB's parser does, e.g. VALUES lists of different lengths).
func TestNothingAcceptedIsLost(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the old front end over the corpus")
	}
	recs, err := parsertest.Records("../tests")
	if err != nil {
		t.Fatal(err)
	}
	slt, err := parsertest.Records("../testdata/slt")
	if err != nil {
		t.Fatal(err)
	}
	// Every third SQLite record: their 11k records are a few shapes over
	// and over, and the old parser takes ~0.4 ms a statement.
	for i := 0; i < len(slt); i += 3 {
		recs = append(recs, slt[i])
	}
	if len(recs) < 1000 {
		t.Fatalf("only %d records read", len(recs))
	}
	accepted := 0
	for _, r := range recs {
		if r.Error {
			continue
		}
		for _, src := range Split(r.SQL) {
			if oldParse(src) != nil {
				continue
			}
			accepted++
			if _, err := parser.Parse(src.Text); err != nil {
				t.Errorf("%s:%d: the old front end parses this, the new parser does not: %v\n%s", r.File, r.Line, err, src.Text)
			}
		}
	}
	t.Logf("%d statements the old front end parses, all parsed by the new parser", accepted)
}

var lineCol = regexp.MustCompile(`^line \d+:\d+: `)

// failureClass is an error message without its position.
func failureClass(msg string) string { return lineCol.ReplaceAllString(msg, "") }

// tpchQueries reads the 22 TPC-H queries of the bench module.
func tpchQueries(b testing.TB) []string {
	paths, _ := filepath.Glob("../bench/cmd/compare/tpch/q*.sql")
	if len(paths) != 22 {
		b.Skipf("TPC-H queries not found (%d files)", len(paths))
	}
	var qs []string
	for _, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		qs = append(qs, strings.TrimSpace(string(text)))
	}
	return qs
}

// BenchmarkParseTPCH parses the 22 TPC-H queries with Parse (the syntax
// tree and the Statement built from it) and with sql/parser alone; one op
// is all 22.
func BenchmarkParseTPCH(b *testing.B) {
	qs := tpchQueries(b)
	b.Run("Parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, q := range qs {
				if _, err := Parse(Source{Text: q, Line: 1, Col: 1}); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(qs)), "µs/query")
	})
	b.Run("parser", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, q := range qs {
				if _, err := parser.Parse(q); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(qs)), "µs/query")
	})
}

// TestParserErrorsDuckDBExpects: statements DuckDB's tests expect to
// fail with a Parser Error are rejected by the new parser too (those it
// accepts are listed; binder-level checks belong to the binder).
func TestParserErrorsDuckDBExpects(t *testing.T) {
	if _, err := os.Stat(parsertest.DuckDBTests); err != nil {
		t.Skipf("%s not present", parsertest.DuckDBTests)
	}
	recs, err := parsertest.Records(parsertest.DuckDBTests)
	if err != nil {
		t.Fatal(err)
	}
	var want, rejected int
	for _, r := range recs {
		if !r.Error || !strings.Contains(r.Expected, "Parser Error") {
			continue
		}
		want++
		if _, err := parser.ParseScript(r.SQL); err != nil {
			rejected++
		} else {
			t.Logf("accepted: %s:%d: %s\n  DuckDB: %s", strings.TrimPrefix(r.File, parsertest.DuckDBTests+"/"), r.Line, r.SQL, r.Expected)
		}
	}
	t.Logf("%d of %d statements DuckDB rejects with a Parser Error are rejected", rejected, want)
}

// TestSyntaxErrorsOfTests: the syntax errors the repository's .test files
// expect (statement error … syntax error …) are what the new parser says,
// message and position.
func TestSyntaxErrorsOfTests(t *testing.T) {
	recs, err := parsertest.Records("../tests")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range recs {
		if !r.Error || !strings.Contains(r.Expected, "syntax error") {
			continue
		}
		n++
		_, err := parser.ParseScript(r.SQL)
		switch {
		case err == nil:
			t.Logf("%s:%d: parses; the binder must reject it (%s)", r.File, r.Line, r.Expected)
		case !strings.Contains(err.Error(), r.Expected):
			t.Errorf("%s:%d: got %q, the test expects %q", r.File, r.Line, err, r.Expected)
		}
	}
	t.Logf("%d records expect a syntax error", n)
}
