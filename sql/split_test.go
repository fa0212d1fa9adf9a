package sql

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		name   string
		script string
		want   []Source
	}{
		{"one", "SELECT 1", []Source{{"SELECT 1", 0, 1, 1}}},
		{"two", "SELECT 1; SELECT 2", []Source{{"SELECT 1", 0, 1, 1}, {"SELECT 2", 10, 1, 11}}},
		{"trailing semicolon", "SELECT 1;\n", []Source{{"SELECT 1", 0, 1, 1}}},
		{"newline", "SELECT 1;\n  SELECT 2;", []Source{{"SELECT 1", 0, 1, 1}, {"SELECT 2", 12, 2, 3}}},
		{"quoted semicolons", `SELECT ';'; SELECT "a;b", ` + "`c;d`", []Source{{"SELECT ';'", 0, 1, 1}, {`SELECT "a;b", ` + "`c;d`", 12, 1, 13}}},
		{"doubled quote", "SELECT 'it''s;'; SELECT 2", []Source{{"SELECT 'it''s;'", 0, 1, 1}, {"SELECT 2", 17, 1, 18}}},
		{"line comment", "SELECT 1 -- x; y\n; SELECT 2", []Source{{"SELECT 1 -- x; y\n", 0, 1, 1}, {"SELECT 2", 19, 2, 3}}},
		{"block comment", "SELECT /* ; */ 1; SELECT 2", []Source{{"SELECT /* ; */ 1", 0, 1, 1}, {"SELECT 2", 18, 1, 19}}},
		{"empty statements", " ; ;\n;", nil},
		{"comment only", "SELECT 1; -- done\n", []Source{{"SELECT 1", 0, 1, 1}}},
		{"runes", "SELECT 'é'; SELECT 2", []Source{{"SELECT 'é'", 0, 1, 1}, {"SELECT 2", 13, 1, 13}}},
		{"unterminated string", "SELECT 'a; SELECT 2", []Source{{"SELECT 'a; SELECT 2", 0, 1, 1}}},
		{"unterminated comment", "SELECT 1; /* x", []Source{{"SELECT 1", 0, 1, 1}, {"/* x", 10, 1, 11}}},
		{"dollar quotes", "SELECT $$a;b$$; SELECT $t$;$t$", []Source{{"SELECT $$a;b$$", 0, 1, 1}, {"SELECT $t$;$t$", 16, 1, 17}}},
		{"nested comment", "SELECT 1 /* a /* ; */ ; */; SELECT 2", []Source{{"SELECT 1 /* a /* ; */ ; */", 0, 1, 1}, {"SELECT 2", 28, 1, 29}}},
		{"digit separators", "SELECT 1_000; SELECT 2", []Source{{"SELECT 1_000", 0, 1, 1}, {"SELECT 2", 14, 1, 15}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Split(tc.script)
			if !reflect.DeepEqual(got, tc.want) {
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
