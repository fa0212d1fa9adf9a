package sql

import (
	"errors"
	"fmt"
	"regexp"
	"testing"
)

func TestIndexStatements(t *testing.T) {
	cases := []struct {
		src  string
		want string // %+v of the statement
	}{
		{"CREATE INDEX i ON t (x)", "&{Name:i NamePos:1:14 Table:t TablePos:1:19 Columns:[x] ColumnPos:[1:22] Kind: KindPos:0:0 IfNotExists:false}"},
		{"create index on t(x) using full;", "&{Name: NamePos:0:0 Table:t TablePos:1:17 Columns:[x] ColumnPos:[1:19] Kind:full KindPos:1:28 IfNotExists:false}"},
		{"CREATE INDEX IF NOT EXISTS s ON \"My T\" USING SUMMARY (\"a b\" DESC)", "&{Name:s NamePos:1:28 Table:My T TablePos:1:33 Columns:[a b] ColumnPos:[1:55] Kind:summary KindPos:1:46 IfNotExists:true}"},
		{"CREATE INDEX t1i0 ON t1(a1,b1)", "&{Name:t1i0 NamePos:1:14 Table:t1 TablePos:1:22 Columns:[a1 b1] ColumnPos:[1:25 1:28] Kind: KindPos:0:0 IfNotExists:false}"},
		{"DROP INDEX i", "&{Name:i NamePos:1:12 Table: TablePos:0:0 Column: ColumnPos:0:0 IfExists:false}"},
		{"DROP INDEX IF EXISTS ON t (x)", "&{Name: NamePos:0:0 Table:t TablePos:1:25 Column:x ColumnPos:1:28 IfExists:true}"},
		{"REINDEX", "&{Target: TargetPos:0:0 Column: ColumnPos:0:0 Pos:1:1}"},
		{"REINDEX t (x)", "&{Target:t TargetPos:1:9 Column:x ColumnPos:1:12 Pos:1:1}"},
		{"reindex t1i0", "&{Target:t1i0 TargetPos:1:9 Column: ColumnPos:0:0 Pos:1:1}"},
	}
	for _, tc := range cases {
		st, err := Parse(Source{Text: tc.src})
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		got := regexp.MustCompile(`\{Line:(\d+) Col:(\d+)\}`).ReplaceAllString(fmt.Sprintf("%+v", st), "$1:$2")
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestIndexStatementErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"CREATE INDEX i ON t", `line 1:20: syntax error at end of input (expected "(")`},
		{"CREATE INDEX i ON t (x) USING bucket", "line 1:31: unknown index kind \"bucket\" (FULL or SUMMARY)"},
		{"CREATE INDEX i ON t USING full (x) USING summary", "line 1:36: syntax error at or near \"USING\""},
		{"CREATE UNIQUE INDEX i ON t (x)", "line 1:8: UNIQUE indexes are not supported (b2sql indexes speed up reads; they enforce nothing)"},
		{"CREATE INDEX i t (x)", `line 1:16: syntax error at or near "t" (expected ON)`},
		{"DROP INDEX", "line 1:11: syntax error at end of input (expected a name)"},
		{"DROP INDEX ON t (a, b)", "line 1:21: DROP INDEX ON names one column"},
		{"REINDEX t (x) y", "line 1:15: syntax error at or near \"y\""},
		{"CREATE INDEX i ON t (x,)", `line 1:24: syntax error at or near ")" (expected an expression after ",")`},
	}
	for _, tc := range cases {
		_, err := Parse(Source{Text: tc.src})
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: err=%v", tc.src, err)
		}
		if err.Error() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.src, err, tc.want)
		}
	}
}
