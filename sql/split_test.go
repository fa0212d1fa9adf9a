package sql

import (
	"fmt"
	"reflect"
	"testing"
)

// at is what TestSplit compares of a Source.
type at struct {
	Text              string
	Offset, Line, Col int
}

func TestSplit(t *testing.T) {
	cases := []struct {
		name   string
		script string
		want   []at
	}{
		{"one", "SELECT 1", []at{{"SELECT 1", 0, 1, 1}}},
		{"two", "SELECT 1; SELECT 2", []at{{"SELECT 1", 0, 1, 1}, {"SELECT 2", 10, 1, 11}}},
		{"trailing semicolon", "SELECT 1;\n", []at{{"SELECT 1", 0, 1, 1}}},
		{"newline", "SELECT 1;\n  SELECT 2;", []at{{"SELECT 1", 0, 1, 1}, {"SELECT 2", 12, 2, 3}}},
		{"quoted semicolons", `SELECT ';'; SELECT "a;b", ` + "`c;d`", []at{{"SELECT ';'", 0, 1, 1}, {`SELECT "a;b", ` + "`c;d`", 12, 1, 13}}},
		{"doubled quote", "SELECT 'it''s;'; SELECT 2", []at{{"SELECT 'it''s;'", 0, 1, 1}, {"SELECT 2", 17, 1, 18}}},
		{"line comment", "SELECT 1 -- x; y\n; SELECT 2", []at{{"SELECT 1 -- x; y\n", 0, 1, 1}, {"SELECT 2", 19, 2, 3}}},
		{"block comment", "SELECT /* ; */ 1; SELECT 2", []at{{"SELECT /* ; */ 1", 0, 1, 1}, {"SELECT 2", 18, 1, 19}}},
		{"empty statements", " ; ;\n;", nil},
		{"comment only", "SELECT 1; -- done\n", []at{{"SELECT 1", 0, 1, 1}}},
		{"runes", "SELECT 'é'; SELECT 2", []at{{"SELECT 'é'", 0, 1, 1}, {"SELECT 2", 13, 1, 13}}},
		{"unterminated string", "SELECT 'a; SELECT 2", []at{{"SELECT 'a; SELECT 2", 0, 1, 1}}},
		{"unterminated comment", "SELECT 1; /* x", []at{{"SELECT 1", 0, 1, 1}, {"/* x", 10, 1, 11}}},
		{"dollar quotes", "SELECT $$a;b$$; SELECT $t$;$t$", []at{{"SELECT $$a;b$$", 0, 1, 1}, {"SELECT $t$;$t$", 16, 1, 17}}},
		{"nested comment", "SELECT 1 /* a /* ; */ ; */; SELECT 2", []at{{"SELECT 1 /* a /* ; */ ; */", 0, 1, 1}, {"SELECT 2", 28, 1, 29}}},
		{"digit separators", "SELECT 1_000; SELECT 2", []at{{"SELECT 1_000", 0, 1, 1}, {"SELECT 2", 14, 1, 15}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Split(tc.script)
			var gotAt []at
			for _, s := range got {
				gotAt = append(gotAt, at{s.Text, s.Offset, s.Line, s.Col})
			}
			if !reflect.DeepEqual(gotAt, tc.want) {
				t.Errorf("Split(%q)\n got %+v\nwant %+v", tc.script, got, tc.want)
			}
			for _, s := range got {
				if tc.script[s.Offset:s.Offset+len(s.Text)] != s.Text {
					t.Errorf("offset %d does not locate %q", s.Offset, s.Text)
				}
			}
		})
	}
}

// TestSplitParse checks that a statement parsed from the tokens Split
// lexed (the script's one lexer pass) is the statement parsed from its
// text alone, errors and their positions included (the syntax trees are
// compared in sql/parser's TestSplitPieces).
func TestSplitParse(t *testing.T) {
	script := "SELECT 1 AS a;\n  SELECT x + FROM t;\nCREATE SECRET s (TYPE s3, KEY_ID 'k');\n" +
		"SELECT 'é', $$;$$ /* ; */;\nINSERT INTO t VALUES (1)  ;\nSELECT 'open"
	for _, src := range Split(script) {
		got, gerr := Parse(src)
		alone := Source{Text: src.Text, Offset: src.Offset, Line: src.Line, Col: src.Col}
		want, werr := Parse(alone)
		if reflect.TypeOf(got) != reflect.TypeOf(want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("%q: from Split's tokens %v, %v; lexed alone %v, %v", src.Text, got, gerr, want, werr)
		}
	}
	for _, tc := range []struct{ stmt, err string }{
		{"SELECT x + FROM t", `line 2:14: syntax error at or near "FROM" (expected an expression after "+")`},
		{"SELECT 'open", "line 6:8: unterminated quoted string"},
	} {
		var found bool
		for _, src := range Split(script) {
			if src.Text == tc.stmt {
				found = true
				if _, err := Parse(src); fmt.Sprint(err) != tc.err {
					t.Errorf("%q: got %v, want %s", tc.stmt, err, tc.err)
				}
			}
		}
		if !found {
			t.Errorf("%q not split out", tc.stmt)
		}
	}
}
