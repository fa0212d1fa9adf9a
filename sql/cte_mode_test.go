package sql

import (
	"testing"

	"github.com/b2sql/b2sql/planner"
)

func TestCTEModes(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want map[string]planner.CTEMode
		drop int // keyword tokens the rewrite drops
	}{
		{"WITH a AS (SELECT 1) SELECT * FROM a", nil, 0},
		{"WITH a AS MATERIALIZED (SELECT 1) SELECT * FROM a", map[string]planner.CTEMode{"a": planner.CTEMaterialized}, 1},
		{"with A as not materialized (select 1) select * from a", map[string]planner.CTEMode{"a": planner.CTENotMaterialized}, 2},
		{"WITH a(x, y) AS MATERIALIZED (SELECT 1, 2), \"B\" AS NOT MATERIALIZED (SELECT 3) SELECT * FROM a, \"B\"",
			map[string]planner.CTEMode{"a": planner.CTEMaterialized, "b": planner.CTENotMaterialized}, 3},
		// a column named materialized is not a keyword
		{"WITH a AS (SELECT 1 AS materialized) SELECT materialized FROM a", nil, 0},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			toks, err := lex(Source{Text: tc.sql, Line: 1, Col: 1})
			if err != nil {
				t.Fatal(err)
			}
			got := cteModes(toks)
			if len(got) != len(tc.want) {
				t.Fatalf("modes %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("mode of %s = %d, want %d", k, got[k], v)
				}
			}
			if n := len(cteModeTokens(toks)); n != tc.drop {
				t.Errorf("%d tokens dropped, want %d", n, tc.drop)
			}
			if _, err := Parse(Source{Text: tc.sql, Line: 1, Col: 1}); err != nil {
				t.Errorf("parse: %v", err)
			}
		})
	}
}
