package json

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/columnar/columnartest"
	"github.com/b2sql/b2sql/index"
)

func readAll(t *testing.T, tb *Table) ([]string, error) {
	t.Helper()
	cols := make([]int, len(tb.Schema()))
	for i := range cols {
		cols[i] = i
	}
	rd, err := tb.Scan(context.Background(), index.ScanSpec{Cols: cols, Limit: -1})
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	rows, err := columnartest.ReadAll(context.Background(), rd)
	return columnartest.Lines(rows), err
}

func schemaText(s columnar.Schema) string {
	var parts []string
	for _, f := range s {
		parts = append(parts, f.Name+" "+f.Type.String())
	}
	return strings.Join(parts, ", ")
}

// Expected answers are DuckDB 1.5's read_json_auto on the same text.
func TestInferAndRead(t *testing.T) {
	tests := []struct {
		name   string
		data   string
		opts   Options
		format string
		schema string
		rows   []string
	}{
		{"ndjson", `{"a":1,"b":"x","c":1.5,"d":true,"e":"2024-01-05","f":"2024-01-05 10:00:00","g":{"x":1},"h":[1,2]}` + "\n" +
			`{"a":2,"b":null,"c":2,"i":"late","e":"2024-01-06","f":"2024-01-05T10:00:01"}` + "\n", Options{}, "newline_delimited",
			"a BIGINT, b VARCHAR, c DOUBLE, d BOOLEAN, e DATE, f VARCHAR, g STRUCT(x BIGINT), h BIGINT[], i VARCHAR",
			[]string{`1|x|1.5|true|2024-01-05|2024-01-05 10:00:00|{'x': 1}|[1, 2]|NULL`, "2|NULL|2.0|NULL|2024-01-06|2024-01-05T10:00:01|NULL|NULL|late"}},
		{"nested", `{"s":{"a":[1,null],"b":{"c":"2024-01-01"}},"l":[{"k":1},{"k":2,"j":"x"}],"m":[[],null,[[1.5]]]}` + "\n" +
			`{"s":null,"l":[],"m":null}` + "\n" + `{"s":{"b":null},"l":null,"m":[[[2]]]}` + "\n", Options{}, "newline_delimited",
			"s STRUCT(a BIGINT[], b STRUCT(c DATE)), l STRUCT(k BIGINT, j VARCHAR)[], m DOUBLE[][][]",
			[]string{"{'a': [1, NULL], 'b': {'c': 2024-01-01}}|[{'k': 1, 'j': NULL}, {'k': 2, 'j': x}]|[[], NULL, [[1.5]]]",
				"NULL|[]|NULL", "{'a': NULL, 'b': NULL}|NULL|[[[2.0]]]"}},
		{"array of lists", `[{"a":[1,2]},{"a":[3]}]`, Options{}, "array", "a BIGINT[]", []string{"[1, 2]", "[3]"}},
		{"lists", "[1,2]\n[3]\n", Options{Format: "nd"}, "newline_delimited", "json BIGINT[]", []string{"[1, 2]", "[3]"}},
		{"list and object", "[1,2]\n{\"a\":1}\n", Options{Format: "nd"}, "newline_delimited", "json VARCHAR", []string{"[1,2]", `{"a":1}`}},
		{"array mixed", `[{"a":1},{"a":"x"}]`, Options{}, "array", "a VARCHAR", []string{`1`, `"x"`}},
		{"nulls", "{\"a\":1}\n{\"a\":null}\n{\"a\":12345678901234}\n", Options{}, "newline_delimited", "a BIGINT", []string{"1", "NULL", "12345678901234"}},
		{"scalars", "1\n2\n", Options{}, "newline_delimited", "json BIGINT", []string{"1", "2"}},
		{"all null", "{\"a\":null}\n", Options{}, "newline_delimited", "a VARCHAR", []string{"NULL"}},
		{"timestamp z", `{"f":"2024-01-05T10:00:00.000Z"}`, Options{}, "newline_delimited", "f TIMESTAMP", []string{"2024-01-05 10:00:00"}},
		{"time", `{"f":"12:00:00", "u":"abc", "n": 1e3, "m": -0}`, Options{}, "newline_delimited", "f TIME, u VARCHAR, n DOUBLE, m BIGINT", []string{"12:00:00|abc|1000.0|0"}},
		{"unstructured", "{\"a\":1}{\"a\":2}\n  {\"a\":3}", Options{}, "unstructured", "a BIGINT", []string{"1", "2", "3"}},
		{"pretty array", "[\n {\"a\": 1},\n {\"a\": 2}\n]", Options{}, "array", "a BIGINT", []string{"1", "2"}},
		{"case dup", `{"a": 1, "A": 2}`, Options{}, "newline_delimited", "a BIGINT, A_1 BIGINT", []string{"1|2"}},
		{"escapes", `{"s":"a\"b\\c\u00e9\n"}`, Options{}, "newline_delimited", "s VARCHAR", []string{"a\"b\\cé\n"}},
		{"records false", "{\"a\":1}\n", Options{Records: "false"}, "newline_delimited", "json STRUCT(a BIGINT)", []string{`{'a': 1}`}},
		{"columns", "{\"a\":\"5\",\"b\":2.5}\n", Options{Columns: []Column{{Name: "a", Type: columnar.TInt32}, {Name: "b", Type: columnar.TFloat64}}}, "newline_delimited", "a INTEGER, b DOUBLE", []string{"5|2.5"}},
		{"uuid and ubigint", `{"u":"5A1E5E5E-1111-2222-3333-444455556666","h":18446744073709551615,"w":"{5a1e5e5e-1111-2222-3333-444455556666}"}` + "\n" + `{"u":null,"h":-5,"w":"x"}`,
			Options{}, "newline_delimited", "u UUID, h HUGEINT, w VARCHAR",
			[]string{"5a1e5e5e-1111-2222-3333-444455556666|18446744073709551615|{5a1e5e5e-1111-2222-3333-444455556666}", "NULL|-5|x"}},
		{"dateformat infers", `{"d":"02/01/2024","e":"2024-01-05","t":"05/01/2024 10"}`, Options{DateFormat: "%d/%m/%Y", TimestampFormat: "%d/%m/%Y %H"},
			"newline_delimited", "d DATE, e VARCHAR, t TIMESTAMP", []string{"2024-01-02|2024-01-05|2024-01-05 10:00:00"}},
		{"crlf bom", "\xef\xbb\xbf{\"a\":1}\r\n{\"a\":2}\r\n", Options{}, "newline_delimited", "a BIGINT", []string{"1", "2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.json")
			if err := os.WriteFile(p, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, par := range []bool{true, false} {
				o := tc.opts
				o.Parallel = &par
				tb, err := Open([]string{p}, o)
				if err != nil {
					t.Fatal(err)
				}
				tb.chunkSize = 5
				if tb.Format() != tc.format {
					t.Errorf("format %s, want %s", tb.Format(), tc.format)
				}
				if got := schemaText(tb.Schema()); got != tc.schema {
					t.Fatalf("schema %q, want %q", got, tc.schema)
				}
				rows, err := readAll(t, tb)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(rows, "\n") != strings.Join(tc.rows, "\n") {
					t.Fatalf("parallel=%v rows\n%q\nwant\n%q", par, rows, tc.rows)
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(p, []byte("{\"a\":1}\n{\"a\":2}\n{\"a\":\"x\"}\n"), 0o644)
	tb, err := Open([]string{p}, Options{SampleSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = readAll(t, tb)
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Line != 3 || ve.Column != "a" || !errors.Is(err, ErrConvert) {
		t.Fatalf("got %v", err)
	}
	tb, _ = Open([]string{p}, Options{SampleSize: 1, IgnoreErrors: true})
	rows, err := readAll(t, tb)
	if err != nil || strings.Join(rows, ",") != "1,2,NULL" {
		t.Fatalf("ignore_errors: %q %v", rows, err)
	}
	os.WriteFile(p, []byte("{\"a\":1}\n{\"a\":\n"), 0o644)
	_, err = Open([]string{p}, Options{})
	if err == nil {
		t.Fatal("no error for a broken value")
	}
}

// TestStreamErrorLine: a value over maximum_object_size in a compressed
// (streamed) file is reported at the line it starts on; it said line 0
// (issue #23).
func TestStreamErrorLine(t *testing.T) {
	const k = 524280 // 8-byte lines up to 64 bytes before the first 4 MiB block ends
	var text bytes.Buffer
	for range k {
		text.WriteString("{\"a\":1}\n")
	}
	text.WriteString("{\"a\":\"" + strings.Repeat("x", 300) + "\"}\n{\"a\":2}\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(text.Bytes())
	zw.Close()
	p := filepath.Join(t.TempDir(), "big.ndjson.gz")
	if err := os.WriteFile(p, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := Open([]string{p}, Options{MaximumObjectSize: 32, Columns: []Column{{Name: "a", Type: columnar.TVarchar}}})
	if err == nil {
		_, err = readAll(t, tb)
	}
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Line != k+1 || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want a value too large at line %d", err, k+1)
	}
}
