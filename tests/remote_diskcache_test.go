package tests

// Issue #22's on-disk cache: with SET remote_cache_directory, a query
// that opens a remote file again reads the ranges an earlier query
// fetched from disk instead of the server.

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/storage/storagetest"
)

func TestRemoteDiskCache(t *testing.T) {
	dir := t.TempDir()
	const rows = 100_000
	writeFixture(t, dir, "big", rows, "id BIGINT seq", "g INTEGER mod 7")
	web := storagetest.NewHTTP(t, dir)
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cache := filepath.Join(t.TempDir(), "cache")
	if err := db.Exec(context.Background(), fmt.Sprintf("SET remote_cache_directory = '%s'", cache)); err != nil {
		t.Fatal(err)
	}
	// Expected by formula: id = i, g = i % 7.
	var n, sum int64
	for i := range int64(rows) {
		if i%7 == 3 {
			n, sum = n+1, sum+i
		}
	}
	want := fmt.Sprintf("%d\t%d", n, sum)
	q := fmt.Sprintf("SELECT count(*), sum(id) FROM '%s' WHERE g = 3", web.Location("big.parquet"))
	var reqs [2]int64
	for run := range 2 {
		web.Reset()
		got, err := queryAll(t, db, q)
		if err != nil || strings.Join(got, "\n") != want {
			t.Fatalf("run %d: %q, %v; want %q", run, got, err, want)
		}
		reqs[run] = web.Requests.Load()
	}
	// The second run's only request is the open, which checks the
	// file's version (its Last-Modified) before any cached byte is used.
	if reqs[0] < 2 || reqs[1] != 1 {
		t.Fatalf("requests: first run %d, second %d; want the second to make only the open's", reqs[0], reqs[1])
	}
	got, err := queryAll(t, db, "SELECT current_setting('remote_cache_size')")
	if err != nil || len(got) != 1 || got[0] != "1.0 GiB" {
		t.Fatalf("remote_cache_size: %q, %v", got, err)
	}
}
