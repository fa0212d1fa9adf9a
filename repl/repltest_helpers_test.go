package repl

import (
	"bytes"
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/demo"
)

var (
	eventsOnce sync.Once
	eventsDir  string
	eventsErr  error
)

// eventsDB opens a directory holding the demo table "events" (5,000 rows),
// generated once per test binary.
func eventsDB(t *testing.T) *b2sql.DB {
	t.Helper()
	eventsOnce.Do(func() {
		eventsDir, eventsErr = tempDirForPackage()
		if eventsErr == nil {
			eventsErr = demo.Generate(filepath.Join(eventsDir, "events.parquet"), 5000)
		}
	})
	if eventsErr != nil {
		t.Fatal(eventsErr)
	}
	db, err := b2sql.Open(eventsDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// testRunner is a Runner over db printing into buffers.
func testRunner(db *b2sql.DB) (*Runner, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	r := &Runner{DB: db, Out: &out, Err: &errb, Output: Output{Format: FormatCSV, Header: true}}
	return r, &out, &errb
}

func run(t *testing.T, r *Runner, script string) int {
	t.Helper()
	return r.RunScript(context.Background(), script)
}
