package json

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/columnar/columnartest"
	"github.com/b2sql/b2sql/index"
)

func TestScanFlat(t *testing.T) {
	tests := []struct {
		rec  string
		flat bool
		want string // col=text of the scanned values, in record order
	}{
		{`{"a":1,"b":"x","c":2}`, true, `0=1 1="x"`},
		{` { "c" : [1] , "a" : 2 } `, false, ``},
		{`{"b":"y\"z", "a" : -1.5e3 }`, true, `1="y\"z" 0=-1.5e3`},
		{`{"b":"\\","a":NaN}`, true, `1="\\" 0=NaN`},
		{`{"a":-inf,"b":null}`, true, `0=-inf 1=null`},
		{`{"a":true,"b":false,"a":3}`, true, `0=true 1=false 0=3`},
		{`{}`, true, ``},
		{`{"a\u0062":1}`, false, ``},
		{`{"a":{"x":1}}`, false, ``},
		{`{"a":1,}`, false, ``},
		{`{"a":tru}`, false, ``},
		{`{"a":"x}`, false, ``},
		{`{"a":1} 2`, false, ``},
		{`{"a":x}`, false, ``},
		{`[1]`, false, ``},
	}
	for _, tc := range tests {
		r := &reader{slot: map[string]int{"a": 0, "b": 1}}
		val := []byte(tc.rec)
		if got := r.scanFlat(val); got != tc.flat {
			t.Errorf("%s: flat %v, want %v", tc.rec, got, tc.flat)
			continue
		}
		if !tc.flat {
			continue
		}
		var parts []string
		for _, s := range r.spans {
			parts = append(parts, string(rune('0'+s.col))+"="+string(val[s.start:s.end]))
		}
		if got := strings.Join(parts, " "); got != tc.want {
			t.Errorf("%s: spans %q, want %q", tc.rec, got, tc.want)
		}
	}
}

// TestExtractAsParser: the extractor gives the parser's rows and errors,
// for every projection of the columns.
func TestExtractAsParser(t *testing.T) {
	good := strings.Join([]string{
		`{"i":1,"s":"x","f":1.5,"b":true,"d":"2024-01-05"}`,
		` { "s" : "y\"z\\" , "i" : -2 , "f" : -1.5e3 , "x" : [1, {"q": 2}] } `,
		`{"i":null,"s":"caf\u00e9","f":NaN,"b":false,"d":null}`,
		`{"f":-Inf,"i":3,"i":4,"s":null,"extra":"zz"}`,
		`{"b":"t","i":true,"f":"2.5","s":17}`,
		`{"n":{"deep":[1,2,{"k":"v"}]},"i":5}`,
		`{}`,
		`{"i":12345678901234}`,
		`{"i\u0031":9,"i":6}`,
	}, "\n") + "\n"
	cols := []Column{{Name: "i", Type: columnar.TInt64}, {Name: "s", Type: columnar.TVarchar},
		{Name: "f", Type: columnar.TFloat64}, {Name: "b", Type: columnar.TBool}, {Name: "d", Type: columnar.TDate}}
	bad := []string{
		`{"i":"x"}`, `{"i":1,}`, `{"i":tru}`, `{"s":"x}`, `{"i":1.5}`, `{"b":3}`,
	}
	cases := []struct{ name, data string }{{"good", good}}
	for i, b := range bad {
		cases = append(cases, struct{ name, data string }{"bad" + string(rune('0'+i)), good + b + "\n" + `{"i":7}` + "\n"})
	}
	projections := [][]int{{0, 1, 2, 3, 4}, {2}, {1, 0}, {4, 3}}
	for _, tc := range cases {
		p := filepath.Join(t.TempDir(), "x.ndjson")
		if err := os.WriteFile(p, []byte(tc.data), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, ign := range []bool{false, true} {
			for _, proj := range projections {
				got, want := readBoth(t, p, cols, proj, ign)
				if got != want {
					t.Errorf("%s ignore_errors=%v cols=%v: extractor gave\n%s\nparser\n%s", tc.name, ign, proj, got, want)
				}
				if tc.name == "good" && !ign && len(proj) == 5 && strings.Contains(want, "error") {
					t.Errorf("good records failed: %s", want)
				}
			}
		}
	}
}

// readBoth reads columns proj of file p with the extractor and with the
// parser alone, each as rows then any error.
func readBoth(t *testing.T, p string, cols []Column, proj []int, ign bool) (flat, parsed string) {
	t.Helper()
	read := func(on bool) string {
		defer func(old bool) { readFlat = old }(readFlat)
		readFlat = on
		tb, err := Open([]string{p}, Options{Columns: cols, IgnoreErrors: ign})
		if err != nil {
			return "open: " + err.Error()
		}
		rd, err := tb.Scan(context.Background(), index.ScanSpec{Cols: proj, Limit: -1})
		if err != nil {
			return "scan: " + err.Error()
		}
		defer rd.Close()
		rows, err := columnartest.ReadAll(context.Background(), rd)
		out := strings.Join(columnartest.Lines(rows), "\n")
		if err != nil {
			out += "\nerror: " + err.Error()
		}
		return out
	}
	return read(true), read(false)
}

// FuzzExtractAsParser: for any line, the extractor gives the parser's rows
// and errors.
func FuzzExtractAsParser(f *testing.F) {
	for _, s := range []string{`{"i":1,"s":"x"}`, `{"s":"a\"b\\","i":-1e3}`, `{"i":NaN,"s":null}`, `{"i":{"x":1}}`, `{"i\u0031":2}`, `{"i":1,}`} {
		f.Add(s, false)
	}
	cols := []Column{{Name: "i", Type: columnar.TFloat64}, {Name: "s", Type: columnar.TVarchar}}
	f.Fuzz(func(t *testing.T, line string, ign bool) {
		p := filepath.Join(t.TempDir(), "x.ndjson")
		if err := os.WriteFile(p, []byte(`{"i":0}`+"\n"+line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, proj := range [][]int{{0, 1}, {1}} {
			if got, want := readBoth(t, p, cols, proj, ign); got != want {
				t.Fatalf("%q cols=%v: extractor gave\n%s\nparser\n%s", line, proj, got, want)
			}
		}
	})
}
