package parser_test

import (
	"fmt"
	"reflect"
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
		for _, s := range st {
			if d := spanNesting(r.SQL, s); d != "" {
				t.Errorf("%s:%d: %s", r.File, r.Line, d)
				break
			}
		}
	}
	t.Logf("corpus: %d records, %d parsed (%d statements round-tripped), %d expected to succeed failed to parse, %d expected to fail failed to parse",
		len(recs), parsed, stmts, failedOK, failedErr)
	if len(recs) > 0 && parsed < len(recs)/2 {
		t.Fatalf("only %d of %d records parse", parsed, len(recs))
	}
}

var nodeType = reflect.TypeOf((*ast.Node)(nil)).Elem()

// spanNesting reports a node whose span is not inside its parent's (a
// span taken before the node's last part was parsed), "" when all nest.
func spanNesting(text string, n ast.Node) string {
	var walk func(v reflect.Value, parent ast.Span) string
	walk = func(v reflect.Value, parent ast.Span) string {
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if v.IsNil() {
				return ""
			}
			if v.Type().Implements(nodeType) {
				if n, ok := v.Interface().(ast.Node); ok {
					if s := n.Extent(); s != (ast.Span{}) {
						if s.Start < parent.Start || s.End > parent.End || s.End < s.Start {
							return fmt.Sprintf("%T %q lies outside its parent %q", n, text[max(0, s.Start):min(len(text), max(s.Start, s.End))], text[parent.Start:parent.End])
						}
						parent = s
					}
				}
			}
			return walk(v.Elem(), parent)
		case reflect.Slice:
			for i := range v.Len() {
				if d := walk(v.Index(i), parent); d != "" {
					return d
				}
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					if d := walk(v.Field(i), parent); d != "" {
						return d
					}
				}
			}
		}
		return ""
	}
	return walk(reflect.ValueOf(n), ast.Span{Start: 0, End: len(text)})
}
