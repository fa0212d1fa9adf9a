package sql

import (
	"testing"
)

// TestRewrite pins the DuckDB → MySQL rewrites and checks that every
// rewritten offset maps back into the original statement.
func TestRewrite(t *testing.T) {
	cases := []struct{ in, out string }{
		{"SELECT a FROM 'x/y.parquet'", "SELECT a FROM `x/y.parquet`"},
		{"SELECT a::BIGINT", "SELECT a COLLATE 'b2sql:cast:BIGINT'"},
		{"SELECT a::decimal(10, 2)::varchar", "SELECT a COLLATE 'b2sql:cast:DECIMAL(10,2)' COLLATE 'b2sql:cast:VARCHAR'"},
		{"SELECT CAST(a + 1 AS INT)", "SELECT ((a + 1 ) COLLATE 'b2sql:cast:INTEGER')"},
		{"SELECT TRY_CAST(s AS DOUBLE PRECISION)", "SELECT ((s ) COLLATE 'b2sql:try_cast:DOUBLE')"},
		{"SELECT CAST(CAST(a AS INT) AS TEXT)", "SELECT ((((a ) COLLATE 'b2sql:cast:INTEGER') ) COLLATE 'b2sql:cast:VARCHAR')"},
		{"SELECT DATE '2024-01-01'", "SELECT      '2024-01-01' COLLATE 'b2sql:lit:DATE'"},
		{"SELECT INTERVAL '1 day', INTERVAL 3 DAY", "SELECT INTERVAL '1 day' b2sql_nounit, INTERVAL 3 DAY"},
		{"SELECT EXTRACT(year FROM d)", "SELECT date_part('year' , d)"},
		{"SELECT a || b, a // b, a == b", "SELECT a |  b, a  DIV  b, a =  b"},
		{"SELECT s ILIKE 'x' AND s NOT ILIKE 'y'", "SELECT s REGEXP 'x' AND s NOT REGEXP 'y'"},
		{"SELECT 'a\\b'", "SELECT 'a\\\\b'"},
		{"SELECT a FROM t ORDER BY a DESC NULLS FIRST, b NULLS LAST", "SELECT a FROM t ORDER BY a DESC            , b           "},
		{"SELECT a FROM t OFFSET 3", "SELECT a FROM t LIMIT 9223372036854775807 OFFSET 3"},
		{"SELECT a, count(*) FROM t GROUP BY ALL", "SELECT a, count(*) FROM t             "},
		{"SELECT key, t.table FROM t -- note\n", "SELECT `key`, t.`table` FROM t        \n"},
		{"SELECT''", "SELECT ''"},
		{"SELECT [1, [2]][1]", "SELECT b2sql_ast(7, 18, b2sql_ast(7, 15 , 1  , b2sql_ast(11, 14 , 2 ) ) , 1 )"},
		{"SELECT {'a': x, b: 2}", "SELECT b2sql_ast(7, 21      ,  x     ,  2 )"},
		{"SELECT f(l, x -> x + 1, k := 3)", "SELECT f(l, b2sql_ast(12, 22           ), b2sql_ast(24, 30      ,  3))"},
		{"SELECT CAST(a AS INT[])::STRUCT(x INT)[]", "SELECT b2sql_ast(7, 40, b2sql_ast(7, 23      , a          )                 )"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			rw := mustRewrite(t, tc.in)
			if rw.text != tc.out {
				t.Errorf("rewrite\n got %q\nwant %q", rw.text, tc.out)
			}
			for r := 0; r <= len(rw.text); r++ {
				if o := rw.orig(r); o < 0 || o > len(tc.in) {
					t.Fatalf("offset %d maps to %d, outside the input", r, o)
				}
			}
		})
	}
}

// mustRewrite lexes and rewrites one statement's text, failing the test
// on an error.
func mustRewrite(t *testing.T, text string) *rewritten {
	t.Helper()
	src := Source{Text: text, Line: 1, Col: 1}
	toks, err := lex(src)
	if err != nil {
		t.Fatal(err)
	}
	rw, err := rewrite(src, toks)
	if err != nil {
		t.Fatal(err)
	}
	return rw
}

func TestRewriteMeta(t *testing.T) {
	rw := mustRewrite(t, "SELECT a FROM 'events' ORDER BY a NULLS FIRST, (b) DESC, c NULLS LAST")
	if !rw.paths["events"] {
		t.Errorf("paths %v, want events", rw.paths)
	}
	if want := map[int]bool{0: true, 2: false}; len(rw.nulls) != 2 || rw.nulls[0] != want[0] || rw.nulls[2] != want[2] {
		t.Errorf("nulls %v, want %v", rw.nulls, want)
	}
}

func TestLex(t *testing.T) {
	src := Source{Text: `SELECT "a""b", 'it''s', x1.y_2, 1.5e-3, .5, <= <> != :: || -- c` + "\n/* d */ é"}
	toks, err := lex(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind tokKind
		val  string
	}{
		{tkIdent, "SELECT"}, {tkQIdent, `a"b`}, {tkOp, ","}, {tkString, "it's"}, {tkOp, ","},
		{tkIdent, "x1"}, {tkOp, "."}, {tkIdent, "y_2"}, {tkOp, ","}, {tkNumber, "1.5e-3"}, {tkOp, ","},
		{tkNumber, ".5"}, {tkOp, ","}, {tkOp, "<="}, {tkOp, "<>"}, {tkOp, "!="}, {tkOp, "::"}, {tkOp, "||"},
		{tkIdent, "é"},
	}
	if len(toks) != len(want) {
		t.Fatalf("%d tokens, want %d: %+v", len(toks), len(want), toks)
	}
	for i, w := range want {
		if toks[i].kind != w.kind || toks[i].val != w.val {
			t.Errorf("token %d = %d %q, want %d %q", i, toks[i].kind, toks[i].val, w.kind, w.val)
		}
		if toks[i].kind != tkString && toks[i].kind != tkQIdent && src.Text[toks[i].off:toks[i].end] != toks[i].val {
			t.Errorf("token %d spans %q", i, src.Text[toks[i].off:toks[i].end])
		}
	}
}
