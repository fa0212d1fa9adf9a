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

// oldParse is how the module root parses a statement today (db.go parse):
// the index and write parsers, then Parse; a panic of the MySQL grammar
// is a failure too.
func oldParse(src Source) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	if _, ok, err := ParseIndex(src); ok {
		return err
	}
	if _, ok, err := ParseWrite(src); ok {
		return err
	}
	_, err = Parse(src)
	return err
}

// TestFrontEndCoverage counts, over DuckDB's test files, the records
// DuckDB runs without error whose statement the old front end (vitess
// behind the rewriter) and the new parser reject at parse time, and lists
// the new parser's remaining failures by class. The new parser must
// reject fewer.
func TestFrontEndCoverage(t *testing.T) {
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

var lineCol = regexp.MustCompile(`^line \d+:\d+: `)

// failureClass is an error message without its position.
func failureClass(msg string) string { return lineCol.ReplaceAllString(msg, "") }

// tpchQueries reads the 22 TPC-H queries of the bench module.
func tpchQueries(b *testing.B) []string {
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

// BenchmarkParseTPCH parses the 22 TPC-H queries with the old front end
// (lexer, rewriter, vitess) and with the new parser; one op is all 22.
func BenchmarkParseTPCH(b *testing.B) {
	qs := tpchQueries(b)
	b.Run("old", func(b *testing.B) {
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
	b.Run("new", func(b *testing.B) {
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
