package repl

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	prompt "github.com/c-bata/go-prompt"
)

func suggest(c *completer, open, line string) []string {
	b := prompt.NewBuffer()
	b.InsertText(line, false, true)
	c.before = func() string { return open }
	var out []string
	for _, s := range c.Complete(*b.Document()) {
		out = append(out, s.Text)
	}
	return out
}

func TestCompletion(t *testing.T) {
	db := eventsDB(t)
	dir := t.TempDir()
	for _, f := range []string{"events_a.parquet", "events_b.parquet", "other.csv", ".hidden"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	os.Mkdir(filepath.Join(dir, "evsub"), 0o755)
	r, _, _ := testRunner(db)
	c := newCompleter(r, nil)
	cases := []struct {
		name, open, line string
		want, not        []string
	}{
		{"table after FROM", "", "SELECT * FROM ev", []string{"events"}, []string{"EXISTS"}},
		{"column of a named table", "", "SELECT us", nil, nil}, // no table named yet
		{"column when FROM is on an earlier line", "SELECT count(*) FROM events WHERE\n", "us", []string{"user_id"}, nil},
		{"qualified column", "SELECT 1 FROM events e WHERE\n", "e.te", []string{"e.temperature"}, []string{"temperature"}},
		{"table name as qualifier", "SELECT 1 FROM events WHERE\n", "events.pr", []string{"events.price"}, nil},
		{"keyword in the user's case", "", "sel", []string{"select"}, []string{"SELECT"}},
		{"keyword upper", "", "SEL", []string{"SELECT"}, nil},
		{"function", "", "SELECT date_t", []string{"date_trunc"}, nil},
		{"meta name", "", ".ta", []string{".tables"}, nil},
		{"meta argument", "", ".mode ma", []string{"markdown"}, nil},
		{"meta table argument", "", ".describe ev", []string{"events"}, nil},
		{"path in quotes", "", "SELECT * FROM '" + dir + "/ev", []string{dir + "/events_a.parquet", dir + "/events_b.parquet", dir + "/evsub/"}, []string{dir + "/.hidden"}},
		{"path in .open", "", ".open " + dir + "/ot", []string{dir + "/other.csv"}, nil},
		{"nothing in comments", "", "-- sel", nil, nil},
		{"nothing after a space", "", "SELECT ", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := suggest(c, tc.open, tc.line)
			if tc.want == nil && tc.not == nil && strings.Contains(tc.name, "nothing") && len(got) > 0 {
				t.Fatalf("got %q, want none", got)
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("%q not in %q", w, got)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(got, n) {
					t.Errorf("%q should not be in %q", n, got)
				}
			}
		})
	}
	// Functions carry their signature.
	b := prompt.NewBuffer()
	b.InsertText("SELECT substri", false, true)
	c.before = func() string { return "" }
	s := c.Complete(*b.Document())
	if len(s) == 0 || s[0].Text != "substring" || !strings.Contains(s[0].Description, "substring(string VARCHAR, start BIGINT[, length BIGINT]) → VARCHAR") {
		t.Errorf("function suggestion %+v", s)
	}
}

func TestPathCompletionIsBounded(t *testing.T) {
	dir := t.TempDir()
	for i := range 3 * maxDirEntries {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d", i)), nil, 0o644)
	}
	r, _, _ := testRunner(eventsDB(t))
	c := newCompleter(r, func() string { return "" })
	if n := len(c.listDir(dir + "/")); n > maxDirEntries {
		t.Fatalf("listed %d entries, bound is %d", n, maxDirEntries)
	}
	if got := suggest(c, "", "SELECT '"+dir+"/f"); len(got) == 0 || len(got) > maxSuggestions {
		t.Fatalf("%d suggestions", len(got))
	}
}

func TestTableRefs(t *testing.T) {
	cases := []struct {
		sql  string
		want []tableRef
	}{
		{"SELECT * FROM t", []tableRef{{name: "t"}}},
		{"SELECT * FROM t AS x WHERE", []tableRef{{name: "t", alias: "x"}}},
		{"SELECT * FROM a x, b y JOIN c ON", []tableRef{{name: "a", alias: "x"}, {name: "b", alias: "y"}, {name: "c"}}},
		{"SELECT * FROM 'f.parquet' p", []tableRef{{name: "f.parquet", path: true, alias: "p"}}},
		{"SELECT * FROM read_parquet('d/*.parquet') LIMIT 1", []tableRef{{name: "d/*.parquet", path: true}}},
		{"SELECT * FROM \"My T\" WHERE", []tableRef{{name: "My T"}}},
		{"SELECT 1 -- FROM t", nil},
	}
	for _, c := range cases {
		if got := tableRefs(c.sql); !slices.Equal(got, c.want) {
			t.Errorf("tableRefs(%q) = %+v, want %+v", c.sql, got, c.want)
		}
	}
}

// TestCompletionAttached: the tables of a database ATTACH made complete
// by their qualified names (db.t), from the database's name on.
func TestCompletionAttached(t *testing.T) {
	db := eventsDB(t)
	dir := filepath.Join(t.TempDir(), "wh.db")
	if err := db.Exec(t.Context(), "ATTACH '"+dir+"'; CREATE TABLE wh.sales AS SELECT 1 AS amount"); err != nil {
		t.Fatal(err)
	}
	r, _, _ := testRunner(db)
	c := newCompleter(r, nil)
	for _, line := range []string{"SELECT * FROM wh", "SELECT * FROM wh.sa", "SELECT * FROM events, WH."} {
		if got := suggest(c, "", line); !slices.Contains(got, "wh.sales") {
			t.Errorf("%q: %q, want wh.sales among them", line, got)
		}
	}
}
