//go:build linux || darwin || freebsd || netbsd || openbsd

package repl

import (
	"context"
	"testing"

	"github.com/b2sql/b2sql"
)

// The prompt marks an open transaction "*" and an aborted one "!".
func TestPromptTxMark(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	step := func(q, want string) {
		t.Helper()
		db.Exec(ctx, q) // some steps fail on purpose
		if got := txMark(db); got != want {
			t.Errorf("after %s: mark %q, want %q", q, got, want)
		}
	}
	step("CREATE TABLE t (i INTEGER)", "")
	step("BEGIN", "*")
	step("INSERT INTO t VALUES (1)", "*")
	step("INSERT INTO t VALUES ('x')", "!") // a conversion error aborts it
	step("ROLLBACK", "")
}
