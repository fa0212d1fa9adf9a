package sql

import (
	"strings"
	"testing"
)

// macroCat is a MacroCatalog of the macros its CREATE statements make.
type macroCat map[string]*Macro

func (c macroCat) Macro(k string) (*Macro, bool) { m, ok := c[strings.ToLower(k)]; return m, ok }
func (c macroCat) HasMacros() bool               { return len(c) > 0 }
func (c macroCat) Macros() []*Macro              { return nil }

func newMacroCat(t *testing.T, creates ...string) macroCat {
	t.Helper()
	c := macroCat{}
	for _, text := range creates {
		st, err := Parse(Source{Text: text, Line: 1, Col: 1})
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		cm := st.(*CreateMacro)
		c[strings.ToLower(cm.Key)] = cm.Macro
	}
	return c
}

func TestExpandMacrosText(t *testing.T) {
	cat := newMacroCat(t,
		"CREATE MACRO twice(x) AS x * 2",
		"CREATE MACRO nest(x) AS twice(x) + 1",
		"CREATE MACRO d(a, b := 10) AS a - b",
		"CREATE MACRO typed(a INTEGER) AS a",
		"CREATE MACRO mx(a) AS 1 + max(a)",
		"CREATE MACRO tm(n) AS TABLE SELECT i FROM range(n) r(i)",
		"CREATE MACRO lam(x) AS list_transform(x, x -> x + 1)",
	)
	for _, c := range []struct{ in, out string }{
		{"SELECT twice(1)", `SELECT ((1) * 2) AS "twice(1)"`},
		{"SELECT twice(1) AS a, 3", "SELECT ((1) * 2) AS a, 3"},
		{"SELECT nest(y) FROM t", `SELECT (((y) * 2) + 1) AS "nest(y)" FROM t`},
		{"SELECT d(1), d(b := 2, a := 1)", `SELECT ((1) - (10)) AS "d(1)", ((1) - (2)) AS "d(b := 2, a := 1)"`},
		{"SELECT typed('7')", `SELECT (CAST(('7') AS INTEGER)) AS "typed('7')"`},
		{"SELECT mx(a) OVER (ORDER BY a) FROM t", `SELECT (1 + max((a)) OVER (ORDER BY a)) AS "mx(a) OVER (ORDER BY a)" FROM t`},
		{"SELECT * FROM tm(3)", `SELECT * FROM (SELECT i FROM range((3)) r(i)) AS "tm"`},
		{"SELECT * FROM tm(3) AS x", `SELECT * FROM (SELECT i FROM range((3)) r(i)) AS x`},
		{"SELECT lam([1])", `SELECT (list_transform(([1]), x -> x + 1)) AS "lam([1])"`},
		{"SELECT 1 WHERE twice(2) = 4", `SELECT 1 WHERE ((2) * 2) = 4`},
	} {
		x, ok, err := ExpandMacros(Source{Text: c.in, Line: 1, Col: 1}, cat)
		if err != nil || !ok {
			t.Errorf("%s: ok %v, err %v", c.in, ok, err)
			continue
		}
		if x.Src.Text != c.out {
			t.Errorf("%s:\n got %s\nwant %s", c.in, x.Src.Text, c.out)
		}
	}
	if _, ok, err := ExpandMacros(Source{Text: "SELECT abs(1) FROM t", Line: 1, Col: 1}, cat); ok || err != nil {
		t.Errorf("a statement without macro calls: ok %v, err %v", ok, err)
	}
}

// TestExpandMacrosPositions checks the way back: a position in a copied
// argument is the argument's, in a body the call's, through two rounds.
func TestExpandMacrosPositions(t *testing.T) {
	cat := newMacroCat(t, "CREATE MACRO twice(x) AS x * 2", "CREATE MACRO nest(x) AS twice(x) + bad_fn(x)")
	in := "SELECT 1,\n  nest(col_q + 1)"
	x, ok, err := ExpandMacros(Source{Text: in, Line: 3, Col: 1}, cat)
	if err != nil || !ok {
		t.Fatalf("ok %v, err %v", ok, err)
	}
	// Every copy of col_q maps to the written col_q (line 4, column 8);
	// the item's name (AS "…") is not a copy.
	txt := x.Src.Text[:strings.Index(x.Src.Text, ` AS "`)]
	n := 0
	for off := strings.Index(txt, "col_q"); off >= 0; {
		n++
		e := x.MapError(errAt(x.Src, off, ErrUnknownColumn, "x"))
		if p := e.(*Error).Pos; p != (Pos{4, 8}) {
			t.Errorf("col_q at %d of %q maps to %v, want 4:8", off, txt, p)
		}
		next := strings.Index(txt[off+1:], "col_q")
		if next < 0 {
			break
		}
		off += 1 + next
	}
	if n != 2 {
		t.Fatalf("col_q copied %d times into %q, want 2", n, txt)
	}
	// bad_fn, written by nest's body, and the * 2 of twice's body (a
	// second round) both map to the call of nest (line 4, column 3).
	for _, s := range []string{"bad_fn", "* 2"} {
		off := strings.Index(txt, s)
		e := x.MapError(errAt(x.Src, off, ErrUnknownFunction, "x"))
		if p := e.(*Error).Pos; p != (Pos{4, 3}) {
			t.Errorf("%s maps to %v, want 4:3", s, p)
		}
	}
	// Text after the call keeps its place.
	y, _, _ := ExpandMacros(Source{Text: "SELECT nest(1), zz", Line: 1, Col: 1}, cat)
	off := strings.Index(y.Src.Text, "zz")
	if p := y.MapError(errAt(y.Src, off, ErrUnknownColumn, "x")).(*Error).Pos; p != (Pos{1, 17}) {
		t.Errorf("zz maps to %v, want 1:17", p)
	}
}
