package repl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
)

func TestSplitMetaKeepsLinePositions(t *testing.T) {
	script := ".mode csv\nSELECT 1;\n.timer on\nSELECT\n.not_meta;\n"
	sqlText, metas := splitMeta(script)
	if sqlText != "\nSELECT 1;\n\nSELECT\n.not_meta;\n" {
		t.Fatalf("sql %q", sqlText)
	}
	if len(metas) != 2 || metas[0] != (metaLine{1, ".mode csv"}) || metas[1] != (metaLine{3, ".timer on"}) {
		t.Fatalf("metas %+v", metas)
	}
}

// TestSplitMetaAfterOpenConstructs: a statement can end on a line without
// ';' (a block comment or string opened after its ';' closes there), and a
// ';' inside a string spanning lines ends nothing; splitMeta scans only
// lines with a ';' or those continuing a quote or comment.
func TestSplitMetaAfterOpenConstructs(t *testing.T) {
	script := "SELECT 1; /* a\n b */\n.mode csv\nSELECT 'x\n;\n.not_meta\n';\n.timer on\nSELECT 2\n,3\n.not_meta2;\n"
	sqlText, metas := splitMeta(script)
	if want := "SELECT 1; /* a\n b */\n\nSELECT 'x\n;\n.not_meta\n';\n\nSELECT 2\n,3\n.not_meta2;\n"; sqlText != want {
		t.Fatalf("sql %q, want %q", sqlText, want)
	}
	if len(metas) != 2 || metas[0] != (metaLine{3, ".mode csv"}) || metas[1] != (metaLine{8, ".timer on"}) {
		t.Fatalf("metas %+v", metas)
	}
}

func TestScriptWithMetaCommands(t *testing.T) {
	r, out, errb := testRunner(eventsDB(t))
	failed := run(t, r, ".headers off\nSELECT 1 AS a;\n.mode json\nSELECT 2 AS b;\n.nullvalue -\n.mode csv\nSELECT NULL AS c;\nSELECT nope;\n")
	if failed != 1 {
		t.Fatalf("%d failures, stderr %q", failed, errb)
	}
	if want := "1\n[\n  {\"b\":2}\n]\n-\n"; out.String() != want {
		t.Fatalf("stdout %q, want %q", out, want)
	}
	// The carets underline the whole offending token, as DuckDB does.
	if !strings.Contains(errb.String(), "line 8:8: unknown column \"nope\"\n  SELECT nope;\n         ^^^^\n") {
		t.Fatalf("error not positioned in the whole script: %q", errb)
	}
}

func TestBailAndQuitStopTheScript(t *testing.T) {
	r, out, _ := testRunner(eventsDB(t))
	r.Bail = true
	if failed := run(t, r, "SELECT nope;\nSELECT 1 AS a;"); failed != 1 || out.Len() != 0 {
		t.Fatalf("bail: %d failures, output %q", failed, out)
	}
	r.Bail = false
	if failed := run(t, r, "SELECT 1 AS a;\n.quit\nSELECT 2 AS b;"); failed != 0 || out.String() != "a\n1\n" || !r.Quit() {
		t.Fatalf(".quit: %d failures, output %q", failed, out)
	}
}

func TestMetaCommands(t *testing.T) {
	db := eventsDB(t)
	dir := t.TempDir()
	outFile := filepath.Join(dir, "out.csv")
	script := filepath.Join(dir, "s.sql")
	os.WriteFile(script, []byte("SELECT 3 AS c;\n"), 0o644)
	r, out, errb := testRunner(db)
	r.OpenOptions = []b2sql.Option{b2sql.WithThreads(1)}
	steps := []struct {
		line, out, err string
	}{
		{".tables", "events\n", ""},
		{".schema events", "CREATE TABLE events(id BIGINT, ts TIMESTAMP, user_id INTEGER, region SMALLINT, category VARCHAR, title VARCHAR, price DOUBLE, qty INTEGER, temperature DOUBLE, flag BOOLEAN);\n", ""},
		{".describe events", "column_name,column_type,null,key,default,extra\nid,BIGINT,YES,,,\n", ""},
		{".read " + script, "c\n3\n", ""},
		{".output " + outFile, "", ""},
		{".read " + script, "", ""},
		{".output", "", ""},
		{".timer on", "", ""},
		{".read " + script, "c\n3\n", "Run Time: "},
		{".timer off", "", ""},
		{".mode line", "", ""},
		{".mode bogus", "", "unknown format"},
		{".maxrows x", "", "expected a count"},
		{".maxwidth auto", "", ""},
		{".headers maybe", "", "expected on or off"},
		{".explain SELECT count(*) FROM events", "Project", ""},
		{".nosuch", "", "unknown command"},
		{".open " + dir, "", "tables: "},
		{".open", "", "tables: "},
	}
	for _, s := range steps {
		out.Reset()
		errb.Reset()
		if err := r.Meta(context.Background(), s.line); err != nil {
			r.printError(s.line, err)
		}
		if !strings.HasPrefix(out.String(), s.out) || s.out == "" && out.Len() > 0 && !strings.HasPrefix(s.line, ".describe") {
			t.Errorf("%s: stdout %q, want prefix %q", s.line, out, s.out)
		}
		if s.err != "" && !strings.Contains(errb.String(), s.err) || s.err == "" && errb.Len() > 0 {
			t.Errorf("%s: stderr %q, want %q", s.line, errb, s.err)
		}
	}
	if b, _ := os.ReadFile(outFile); string(b) != "c\n3\n" {
		t.Errorf(".output file holds %q", b)
	}
	if r.Label != "memory" || len(r.DB.Tables()) != 0 {
		t.Errorf(".open with no path: label %q, tables %v", r.Label, r.DB.Tables())
	}
}

func TestExplainNext(t *testing.T) {
	r, out, _ := testRunner(eventsDB(t))
	r.Output.Format = FormatTable
	run(t, r, ".explain\nSELECT count(*) FROM events;\nSELECT 1 AS a;")
	got := out.String()
	if !strings.HasPrefix(got, "Project") || !strings.Contains(got, "│       1 │") {
		t.Fatalf("the first statement should be explained, the second run:\n%s", got)
	}
}

// TestFunctionsBind keeps the completion list honest: every function it
// offers must bind.
func TestFunctionsBind(t *testing.T) {
	db := eventsDB(t)
	// nextval's and currval's examples name a sequence.
	if err := db.Exec(context.Background(), "CREATE SEQUENCE seq"); err != nil {
		t.Fatal(err)
	}
	for _, f := range functions() {
		if f.example == "" {
			continue
		}
		rows, err := db.Query(context.Background(), "SELECT "+f.example+" FROM events LIMIT 1")
		if err != nil {
			t.Errorf("%s: %v", f.name, err)
			continue
		}
		rows.Close()
	}
}
