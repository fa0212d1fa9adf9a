package repl

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestHistoryDedupBoundPersist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "history")
	h, err := LoadHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"SELECT 1;", "SELECT 2;", "SELECT 1;", "SELECT 1;", "  ", "SELECT 'a\nb\\n';"} {
		if err := h.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"SELECT 2;", "SELECT 1;", "SELECT 'a\nb\\n';"}
	if !slices.Equal(h.Entries(), want) {
		t.Fatalf("entries %q, want %q", h.Entries(), want)
	}
	again, err := LoadHistory(path)
	if err != nil || !slices.Equal(again.Entries(), want) {
		t.Fatalf("reloaded %q (%v), want %q", again.Entries(), err, want)
	}
	for i := range HistoryLimit + 10 {
		h.add(fmt.Sprintf("SELECT %d;", i))
	}
	if err := h.Add("last;"); err != nil {
		t.Fatal(err)
	}
	again, _ = LoadHistory(path)
	if n := len(again.Entries()); n != HistoryLimit || again.Entries()[n-1] != "last;" {
		t.Fatalf("%d entries after overflow, last %q", n, again.Entries()[n-1])
	}
	if i := again.Search("select 1999", HistoryLimit); i < 0 || again.Entries()[i] != "SELECT 1999;" {
		t.Fatalf("search found %d", i)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".history-*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

func TestDefaultHistoryPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/state")
	if got := DefaultHistoryPath(); got != "/state/b2sql/history" {
		t.Fatal(got)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	t.Setenv("HOME", "/home/x")
	if d, err := os.UserConfigDir(); err == nil {
		if got := DefaultHistoryPath(); got != filepath.Join(d, "b2sql", "history") {
			t.Fatal(got)
		}
	}
}

func TestFlatten(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT a,\n  b\nFROM t;\n", "SELECT a, b FROM t;"},
		{"SELECT 1 -- one\n + 1;", "SELECT 1 + 1;"},
		{"SELECT '--x\n y';", "SELECT '--x\n y';"},
		{"SELECT $$a -- b\nc$$, 1 /* x\n /* y */ */ + 2;", "SELECT $$a -- b\nc$$, 1 + 2;"},
		{"SELECT a.b\n\tFROM t;", "SELECT a.b FROM t;"},
	}
	for _, c := range cases {
		if got := flatten(c.in); got != c.want {
			t.Errorf("flatten(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
