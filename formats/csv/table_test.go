package csv

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

// readAll scans every column of t and returns the rows as text (NULL for
// NULL), checking the batch contract on the way.
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

func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Expected schemas and rows are DuckDB 1.5's answers to read_csv_auto on
// the same text (/work/bin/duck).
func TestSniffAndRead(t *testing.T) {
	tests := []struct {
		name   string
		data   string
		opts   Options
		schema string
		rows   []string
	}{
		{"types", "a,b,c,d,e,f,g\n1,1.5,2024-01-05,true,12:30:00,2024-01-05 10:00:00,x\n2,,2024-01-06,false,13:00:00,2024-01-05T10:00:01,\"y,z\"\n",
			Options{}, "a BIGINT, b DOUBLE, c DATE, d BOOLEAN, e TIME, f TIMESTAMP, g VARCHAR",
			[]string{"1|1.5|2024-01-05|true|12:30:00|2024-01-05 10:00:00|x", "2|NULL|2024-01-06|false|13:00:00|2024-01-05 10:00:01|y,z"}},
		{"semicolon", "a;b\n1;x\n\\N;y\n", Options{}, "a VARCHAR, b VARCHAR", []string{`1|x`, `\N|y`}},
		{"nullstr", "a;b\n1;x\n\\N;y\n", Options{NullStr: []string{`\N`}}, "a BIGINT, b VARCHAR", []string{`1|x`, `NULL|y`}},
		{"tab", "a\tb\n1\t\n", Options{}, "a BIGINT, b VARCHAR", []string{"1|NULL"}},
		{"no header", "1,2\n3,4\n", Options{}, "column0 BIGINT, column1 BIGINT", []string{"1|2", "3|4"}},
		{"header forced", "1,2\n3,4\n", Options{Header: Some(true)}, "1 BIGINT, 2 BIGINT", []string{"3|4"}},
		{"all text header", "a,\nx,y\nz,w\n", Options{}, "a VARCHAR, column1 VARCHAR", []string{"x|y", "z|w"}},
		{"dup names", "a,a\nx,y\n", Options{}, "a VARCHAR, a_1 VARCHAR", []string{"x|y"}},
		{"quoted newline", "a,b\n\"x\ny\",1\n\"he said \"\"hi\"\"\",2\n", Options{}, "a VARCHAR, b BIGINT", []string{"x\ny|1", `he said "hi"|2`}},
		{"crlf bom", "\xef\xbb\xbfa,b\r\n1,x\r\n2,y\r\n", Options{}, "a BIGINT, b VARCHAR", []string{"1|x", "2|y"}},
		{"ragged padded", "a,b\n1,2\n3\n4,5,6\n", Options{NullPadding: true}, "a BIGINT, b BIGINT, column2 BIGINT", []string{"1|2|NULL", "3|NULL|NULL", "4|5|6"}},
		{"day first", "d\n01/06/2024\n02/07/2024\n", Options{}, "d DATE", []string{"2024-06-01", "2024-07-02"}},
		{"month first", "d\n12/25/2024\n01/06/2024\n", Options{}, "d DATE", []string{"2024-12-25", "2024-01-06"}},
		{"dots", "d\n25.12.2024\n", Options{}, "d DATE", []string{"2024-12-25"}},
		{"slash iso", "d\n2024/12/25\n", Options{}, "d DATE", []string{"2024-12-25"}},
		{"ts no candidate", "t\n12/25/2024 10:30:00\n", Options{}, "t VARCHAR", []string{"12/25/2024 10:30:00"}},
		{"two-digit year first", "d\n01-02-24\n13-02-24\n", Options{}, "d DATE", []string{"2001-02-24", "2013-02-24"}},
		{"two-digit year month first", "d\n01-02-24\n12-31-23\n", Options{}, "d DATE", []string{"2024-01-02", "2023-12-31"}},
		{"ts two-digit year", "t\n01/02/24 03:04:05\n", Options{}, "t TIMESTAMP", []string{"2001-02-24 03:04:05"}},
		{"timestamptz", "t\n2024-01-02 03:04:05+02\n2024-01-02T03:04:05Z\n", Options{}, "t TIMESTAMP WITH TIME ZONE", []string{"2024-01-02 01:04:05+00", "2024-01-02 03:04:05+00"}},
		{"junk lines found", "Report 2024\n\na,b\n1,2\n3,4\n", Options{}, "a BIGINT, b BIGINT", []string{"1|2", "3|4"}},
		{"short header skipped", "a,b\n1,2,3\n4,5,6\n", Options{}, "column0 BIGINT, column1 BIGINT, column2 BIGINT", []string{"1|2|3", "4|5|6"}},
		{"comment found", "# a comment\na,b\n1,2\n# another\n3,4\n", Options{}, "a BIGINT, b BIGINT", []string{"1|2", "3|4"}},
		{"numbers", "a,b,c,d,e,f\n1,T,1.50,9999999999999999999,-5,1e3\n0,f,2.25,1,+3,NaN\n", Options{},
			"a BIGINT, b BOOLEAN, c DOUBLE, d DOUBLE, e VARCHAR, f DOUBLE", []string{"1|true|1.5|1e+19|-5|1000.0", "0|false|2.25|1.0|+3|nan"}},
		{"blank lines", "a,b\n1,2\n\n3,4\n", Options{}, "a BIGINT, b BIGINT", []string{"1|2", "3|4"}},
		{"blank single", "a\n\n1\n\n2\n", Options{}, "a BIGINT", []string{"NULL", "1", "NULL", "2"}},
		{"quoted empty is null", "a,b\n\"\",x\n,y\n", Options{}, "a VARCHAR, b VARCHAR", []string{"NULL|x", "NULL|y"}},
		{"dateformat", "d\n20240105\n", Options{DateFormat: "%Y%m%d"}, "d DATE", []string{"2024-01-05"}},
		{"types override", "a,b\n1,2\n", Options{Types: map[string]columnar.Type{"b": columnar.TVarchar}}, "a BIGINT, b VARCHAR", []string{"1|2"}},
		{"columns", "1,2\n", Options{Columns: []Column{{"x", columnar.TInt32}, {"y", columnar.DecimalType(5, 2)}}}, "x INTEGER, y DECIMAL(5,2)", []string{"1|2.00"}},
		{"skip", "junk\nmore\na,b\n1,2\n", Options{Skip: 2}, "a BIGINT, b BIGINT", []string{"1|2"}},
		{"comment", "# a comment\na,b\n1,2\n# another\n3,4\n", Options{Comment: Some(byte('#'))}, "a BIGINT, b BIGINT", []string{"1|2", "3|4"}},
		{"names", "1,2\n", Options{Names: []string{"p"}}, "p BIGINT, column1 BIGINT", []string{"1|2"}},
		{"all varchar", "a\n1\n", Options{AllVarchar: true}, "a VARCHAR", []string{"1"}},
		{"decimal sep", "a;b\n1,5;2\n", Options{Delim: Some(byte(';')), DecimalSep: ','}, "a DOUBLE, b BIGINT", []string{"1.5|2"}},
		{"escape backslash", "a,b\n\"x\\\"y\",1\n", Options{Escape: Some(byte('\\'))}, "a VARCHAR, b BIGINT", []string{`x"y|1`}},
		{"pipe", "a|b\n1|x\n", Options{}, "a BIGINT, b VARCHAR", []string{"1|x"}},
		{"single quote", "a,b\n'x,y',1\n'z',2\n", Options{}, "a VARCHAR, b BIGINT", []string{"x,y|1", "z|2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, "x.csv", tc.data)
			for _, par := range []bool{true, false} {
				o := tc.opts
				o.Parallel = Some(par)
				tb, err := Open([]string{p}, o)
				if err != nil {
					t.Fatal(err)
				}
				tb.chunkSize = 7 // many tiny ranges: boundaries everywhere
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
	p := writeFile(t, "late.csv", "a,b\n1,x\n2,y\nfoo,z\n")
	tb, err := Open([]string{p}, Options{Columns: []Column{{"a", columnar.TInt64}, {"b", columnar.TVarchar}}, Header: Some(true)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = readAll(t, tb)
	var re *RecordError
	if !errors.As(err, &re) || re.Line != 4 || re.Column != 1 || !errors.Is(err, ErrConvert) {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), "late.csv: line 4, column 1 (\"a\")") {
		t.Fatalf("message %q", err)
	}
	o := Options{Columns: []Column{{"a", columnar.TInt64}, {"b", columnar.TVarchar}}, Header: Some(true), IgnoreErrors: true, StoreRejects: true}
	tb, _ = Open([]string{p}, o)
	rows, err := readAll(t, tb)
	if err != nil || strings.Join(rows, ",") != "1|x,2|y" {
		t.Fatalf("ignore_errors: %q %v", rows, err)
	}
	rj := tb.Rejects()
	if len(rj) != 1 || rj[0].Line != 4 || rj[0].ErrorType != "CAST" {
		t.Fatalf("rejects %+v", rj)
	}

	p = writeFile(t, "q.csv", "a,b\n1,\"x\n2,y\n")
	tb, err = Open([]string{p}, Options{Quote: Some(byte('"')), Header: Some(true), Columns: []Column{{"a", columnar.TVarchar}, {"b", columnar.TVarchar}}})
	if err == nil {
		_, err = readAll(t, tb)
	}
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("unterminated quote: %v", err)
	}
	p = writeFile(t, "r.csv", "a,b\n1,2\n3\n")
	tb, _ = Open([]string{p}, Options{Header: Some(true), Columns: []Column{{"a", columnar.TInt64}, {"b", columnar.TInt64}}})
	_, err = readAll(t, tb)
	if !errors.As(err, &re) || re.Line != 3 || !errors.Is(err, ErrMalformed) {
		t.Fatalf("ragged: %v", err)
	}
	// A header that is not text (gzip bytes read as CSV) is refused, as
	// DuckDB refuses it, instead of naming a column with it.
	p = writeFile(t, "bin.csv", "a\xff\xfe,b\n1,2\n")
	if _, err = Open([]string{p}, Options{}); !errors.Is(err, ErrMalformed) {
		t.Fatalf("binary header: %v", err)
	}
}

// TestUnterminatedQuoteLine: an unterminated quoted field is reported at
// the line its record starts on, whether the file is read in ranges or
// as a stream (gzip); the stream said line 0 (issue #23).
func TestUnterminatedQuoteLine(t *testing.T) {
	const text = "a,b\n1,x\n2,y\n3,\"z\n4,w\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	for _, p := range []string{writeFile(t, "q.csv", text), writeFile(t, "q.csv.gz", gz.String())} {
		tb, err := Open([]string{p}, Options{Delim: Some(byte(',')), Quote: Some(byte('"')), Header: Some(true), Columns: []Column{{"a", columnar.TVarchar}, {"b", columnar.TVarchar}}})
		if err == nil {
			_, err = readAll(t, tb)
		}
		var re *RecordError
		if !errors.As(err, &re) || re.Line != 4 || !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v, want a malformed record at line 4", filepath.Base(p), err)
		}
	}
}
