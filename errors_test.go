package b2sql_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/sql"
)

func TestErrorsAreTyped(t *testing.T) {
	db := openFixture(t, 10)
	tests := []struct {
		q         string
		kind      error
		line, col int
		msg       string
	}{
		{"SELECT x FROM t", b2sql.ErrUnknownColumn, 1, 8, `unknown column "x"`},
		{"SELECT i\nFROM nosuch", b2sql.ErrUnknownTable, 2, 6, `unknown table "nosuch"`},
		{"SELECT nofunc(i) FROM t", b2sql.ErrUnknownFunction, 1, 8, `unknown function "nofunc"`},
		{"SELECT i FROM t WHERE", b2sql.ErrSyntax, 1, 22, "syntax error at end of input"},
		{"SELECT s + 1 FROM t", b2sql.ErrType, 1, 8, ""},
	}
	for _, tc := range tests {
		t.Run(tc.q, func(t *testing.T) {
			_, err := db.Query(context.Background(), tc.q)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want kind %v", err, tc.kind)
			}
			var e *b2sql.Error
			if !errors.As(err, &e) {
				t.Fatalf("err %T is not *b2sql.Error", err)
			}
			if e.Pos.Line != tc.line || e.Pos.Col != tc.col {
				t.Errorf("Pos = %d:%d, want %d:%d (%v)", e.Pos.Line, e.Pos.Col, tc.line, tc.col, err)
			}
			if !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("Msg = %q, want it to contain %q", e.Msg, tc.msg)
			}
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "line ") {
				t.Errorf("Error() = %q, want one line starting with \"line \"", err.Error())
			}
			var se *sql.Error // the front end's error stays reachable
			if !errors.As(err, &se) {
				t.Errorf("errors.As(*sql.Error) failed for %v", err)
			}
		})
	}
}

func TestExplain(t *testing.T) {
	db := openFixture(t, 10)
	plan, err := db.Explain("SELECT i FROM t WHERE i > ?", 5)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "Scan") || !strings.Contains(plan, "5") {
		t.Errorf("Explain:\n%s", plan)
	}
	if _, err := db.Explain("SELECT nope FROM t"); !errors.Is(err, b2sql.ErrUnknownColumn) {
		t.Errorf("Explain of a bad query: %v", err)
	}
	if _, err := db.Explain("SET threads = 2"); !errors.Is(err, b2sql.ErrUnsupported) {
		t.Errorf("Explain of SET: %v", err)
	}
}
