package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the command in-process with no terminal attached.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestCommandFormats(t *testing.T) {
	q := "SELECT 1 AS a, 'x,y' AS b, NULL AS c"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--format", "csv"}, "a,b,c\n1,\"x,y\",\n"},
		{[]string{"--format", "csv", "--header=false", "--nullvalue", "NULL"}, "1,\"x,y\",NULL\n"},
		{[]string{"--format", "tsv"}, "a\tb\tc\n1\tx,y\t\n"},
		{[]string{"--format", "ndjson"}, "{\"a\":1,\"b\":\"x,y\",\"c\":null}\n"},
		{[]string{"--format", "json"}, "[\n  {\"a\":1,\"b\":\"x,y\",\"c\":null}\n]\n"},
		{[]string{"--format", "markdown"}, "|   a | b   | c    |\n| --: | --- | ---- |\n|   1 | x,y | NULL |\n"},
	}
	for _, c := range cases {
		args := append(append([]string{}, c.args...), "-c", q, "--demo-rows", "0")
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || out != c.want {
			t.Errorf("%v: exit %d, stdout %q (stderr %q), want %q", c.args, code, out, errs, c.want)
		}
	}
}

func TestScriptErrorKeepsEarlierOutput(t *testing.T) {
	code, out, errs := runCLI(t, "", "--demo-rows", "0", "-c", "SELECT 41 + 1 AS answer;\nSELECT nope;\nSELECT 2 AS two")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if out != "answer\n42\ntwo\n2\n" {
		t.Fatalf("stdout %q", out)
	}
	if !strings.Contains(errs, "line 2:8") || !strings.Contains(errs, "nope") {
		t.Fatalf("stderr %q should point at line 2:8", errs)
	}
}

func TestBailStopsAtFirstError(t *testing.T) {
	code, out, _ := runCLI(t, "", "--demo-rows", "0", "--bail", "-c", "SELECT nope; SELECT 2 AS two")
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q; want 1 and nothing", code, out)
	}
}

func TestStdinScript(t *testing.T) {
	code, out, errs := runCLI(t, "SELECT 'a' || 'b' AS s;\nSELECT 7 // 2 AS q, 7 / 2 AS f;\n", "--demo-rows", "0")
	if code != 0 || out != "s\nab\nq,f\n3,3.5\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestOutputFileAndScriptFile(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.sql")
	os.WriteFile(script, []byte("SELECT 1 AS a;\n.mode json\nSELECT 2 AS b;\n"), 0o644)
	outFile := filepath.Join(dir, "out.txt")
	code, out, errs := runCLI(t, "", "--demo-rows", "0", "-f", script, "--output", outFile)
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if b, _ := os.ReadFile(outFile); string(b) != "a\n1\n[\n  {\"b\":2}\n]\n" {
		t.Fatalf("output file %q", b)
	}
}

func TestVersionAndHelp(t *testing.T) {
	if code, out, _ := runCLI(t, "", "--version"); code != 0 || out != "b2sql "+version+"\n" {
		t.Fatalf("--version: exit %d, %q", code, out)
	}
	code, out, _ := runCLI(t, "", "--help")
	if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "-bail") {
		t.Fatalf("--help: exit %d, %q", code, out)
	}
	if code, _, errs := runCLI(t, "", "--nosuchflag"); code != 2 || !strings.Contains(errs, "Usage:") {
		t.Fatalf("bad flag: exit %d, stderr %q", code, errs)
	}
}

func TestNonInteractiveOutputIsPlain(t *testing.T) {
	// Piped: csv, no prompt, no escape sequences, no progress bar.
	code, out, errs := runCLI(t, "SELECT 1 AS a;\n", "--demo-rows", "0", "--timer")
	if code != 0 || out != "a\n1\n" || strings.Contains(errs, "\x1b") || strings.Contains(errs, ">") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if !strings.Contains(errs, "Run Time: ") || !strings.Contains(errs, "1 row\n") {
		t.Fatalf("--timer: stderr %q", errs)
	}
}
