package repl

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

func render(t *testing.T, o Output, query string) (string, int64) {
	t.Helper()
	db := eventsDB(t)
	rows, err := db.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b bytes.Buffer
	n, err := o.Render(&b, rows)
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), n
}

func TestGridMaxRowsCountsTheRest(t *testing.T) {
	got, n := render(t, Output{Format: FormatTable, Header: true, MaxRows: 3}, "SELECT id, title FROM events")
	if n != 5000 {
		t.Fatalf("counted %d rows, want 5000", n)
	}
	if !strings.Contains(got, "… 4997 more rows (5000 total)") {
		t.Fatalf("no remainder line:\n%s", got)
	}
	if lines := strings.Count(got, "\n"); lines != 3+3+2+1 {
		t.Fatalf("%d lines, want 3 rows + header, types, rule + top, bottom + footer:\n%s", lines, got)
	}
}

func TestGridAlignsNumbersRight(t *testing.T) {
	got, _ := render(t, Output{Format: FormatTable, Header: true},
		"SELECT id * id * 100 AS n, substring('long text', 1, CAST(id * 4 AS INTEGER)) AS s, nullif(id, 1) AS z FROM events WHERE id IN (1, 2) ORDER BY id")
	lines := strings.Split(got, "\n")
	if len(lines) < 6 {
		t.Fatalf("short table:\n%s", got)
	}
	if !strings.Contains(lines[4], "│    100 │ long     │") || !strings.Contains(lines[5], "│    400 │ long tex │") {
		t.Errorf("numbers not right-aligned or text not left-aligned:\n%s", got)
	}
	if !strings.Contains(lines[4], "NULL │") || !strings.Contains(lines[5], "     2 │") {
		t.Errorf("NULL or number column wrong:\n%s", got)
	}
}

func TestGridFitsMaxWidth(t *testing.T) {
	for _, w := range []int{120, 80, 40, 20} {
		got, _ := render(t, Output{Format: FormatTable, Header: true, MaxRows: 5, MaxWidth: w}, "SELECT * FROM events")
		for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
			if strings.HasPrefix(l, "…") {
				continue
			}
			if cw := runewidth.StringWidth(l); cw > w {
				t.Errorf("width %d: line is %d wide: %s", w, cw, l)
			}
		}
		if w <= 40 && !strings.Contains(got, "more columns") {
			t.Errorf("width %d: dropped columns not reported:\n%s", w, got)
		}
		if !strings.Contains(got, "…") {
			t.Errorf("width %d: nothing truncated:\n%s", w, got)
		}
	}
}

func TestFitWidthsCutsTextBeforeNumbers(t *testing.T) {
	width := []int{10, 30, 12}
	shown := fitWidths(width, []bool{true, false, true}, 1+13+20+15)
	if shown != 3 || width[0] != 10 || width[2] != 12 || width[1] != 17 {
		t.Fatalf("shown %d widths %v", shown, width)
	}
}

func TestLineMode(t *testing.T) {
	got, _ := render(t, Output{Format: FormatLine}, "SELECT id AS a, nullif(id, 1) AS long_name FROM events WHERE id IN (1, 2) ORDER BY id")
	want := "        a = 1\nlong_name = NULL\n\n        a = 2\nlong_name = 2\n"
	if got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

func TestNullValueInTables(t *testing.T) {
	got, _ := render(t, Output{Format: FormatTable, NullValue: "∅"}, "SELECT NULL AS x")
	if !strings.Contains(got, "∅") || strings.Contains(got, "NULL") {
		t.Fatalf("nullvalue not used:\n%s", got)
	}
}

func TestCellTextEscapesLineBreaks(t *testing.T) {
	if got := cellText("a\nb\tc|d", true); got != `a\nb\tc\|d` {
		t.Fatal(got)
	}
}

func TestMarkdownReportsHiddenRows(t *testing.T) {
	got, _ := render(t, Output{Format: FormatMarkdown, MaxRows: 2}, "SELECT id FROM events")
	if !strings.HasSuffix(got, "\n… 4998 more rows (5000 total)\n") || strings.Count(got, "\n") != 6 {
		t.Fatalf("got\n%s", got)
	}
}

// A DOUBLE in JSON output is written as COPY TO json writes it (DuckDB
// 1.5: COPY (SELECT -0.0::DOUBLE a, 2.0::DOUBLE b, [-0.0::DOUBLE] c,
// 1e300::DOUBLE d) TO '/dev/stdout' (FORMAT json) writes
// {"a":-0.0,"b":2.0,"c":[-0.0],"d":1e300}), the same at the top level as
// inside a list.
func TestJSONDoubles(t *testing.T) {
	got, _ := render(t, Output{Format: FormatNDJSON}, "SELECT -0.0::DOUBLE a, 2.0::DOUBLE b, [-0.0::DOUBLE] c, 1e300::DOUBLE d")
	if want := `{"a":-0.0,"b":2.0,"c":[-0.0],"d":1e300}` + "\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// JSON has no NaN or infinities: a DOUBLE that is one is written as its
// text, "nan", "inf" or "-inf", inside a list or struct as at the top
// level, so that the output parses (DuckDB's JSON writer puts a bare NaN
// there, which no JSON reader takes; b2sql's output failed to encode). A
// string holding NaN is left as it is.
func TestJSONNonFiniteInNested(t *testing.T) {
	got, _ := render(t, Output{Format: FormatNDJSON}, `SELECT ['nan'::DOUBLE, 'inf'::DOUBLE, '-inf'::DOUBLE, 1.5] e, {'x': 'NaN "Infinity', 'y': 'nan'::DOUBLE} s, 'inf'::DOUBLE f`)
	want := `{"e":["nan","inf","-inf",1.5],"s":{"x":"NaN \"Infinity","y":"nan"},"f":"inf"}` + "\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Errorf("output does not parse: %v", err)
	}
}
