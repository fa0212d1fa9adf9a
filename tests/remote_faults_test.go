package tests

// Issue 22's faults, through SQL on both remote forms: a 5xx on a range
// is retried and the answer is right; an object replaced while a query
// reads it is a clear error naming it, never an answer mixing two files.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/storage/storagetest"
)

func TestRemoteRetriesAndReplacedObject(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// 400,000 rows of a random double: about 3 MB, more than the 1 MiB a
	// remote open fetches from the end, so the query reads ranges after
	// the open. sum(id) over 0..399999 = 79999800000.
	path := filepath.Join(dir, "f.parquet")
	other := filepath.Join(dir, "other.parquet")
	for _, p := range []string{path, other} {
		if err := db.Exec(ctx, "COPY (SELECT i AS id, random() AS r FROM range(400000) t(i)) TO '"+p+"' (ROW_GROUP_SIZE 100000)"); err != nil {
			t.Fatal(err)
		}
	}
	if fileSize(t, path) < 2<<20 {
		t.Fatalf("the fixture is %d bytes: its data would come with the footer", fileSize(t, path))
	}
	s3 := storagetest.NewS3(t, "bucket")
	s3.PutFile(t, "f.parquet", path)
	web := storagetest.NewHTTP(t, dir)
	if err := db.Exec(ctx, s3.CreateSecret()); err != nil {
		t.Fatal(err)
	}
	const q = "SELECT count(*), sum(id) FROM '%s'"
	type server struct {
		name     string
		counters *storagetest.Counters
		loc      string
		replace  func() // puts other's bytes where the object was
		restore  func()
	}
	otherBytes, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	origBytes, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	servers := []server{
		{"s3", &s3.Counters, "s3://bucket/f.parquet",
			func() { s3.PutBytes("f.parquet", otherBytes) },
			func() { s3.PutBytes("f.parquet", origBytes) }},
		{"http", &web.Counters, web.Location("f.parquet"),
			func() {
				// The file server sends no ETag: its Last-Modified (a
				// second later) names the new version.
				os.WriteFile(path, otherBytes, 0o644)
				later := time.Now().Add(time.Hour)
				os.Chtimes(path, later, later)
			},
			func() { os.WriteFile(path, origBytes, 0o644) }},
	}
	for _, s := range servers {
		// Two ranged GETs answer 503: both are retried.
		s.counters.Fail5xx.Store(2)
		got, err := queryAll(t, db, strings.Replace(q, "%s", s.loc, 1))
		if err != nil || strings.Join(got, "\n") != "400000\t79999800000" {
			t.Errorf("%s with two 5xx answers: %q, %v", s.name, got, err)
		}
		if n := s.counters.Fail5xx.Load(); n != 0 {
			t.Errorf("%s: %d of the 2 failures left: the query made no ranged GET after them", s.name, 2-n)
		}
		// The object is replaced right after the open's suffix request;
		// each request waits 50 ms at the server first, so every ranged
		// read of the query comes after the replacement.
		var replaced atomic.Bool
		s.counters.SetLatency(50 * time.Millisecond)
		s.counters.SetTrace(func(r storagetest.Request) {
			if strings.HasPrefix(r.Range, "bytes=-") && replaced.CompareAndSwap(false, true) {
				s.replace()
			}
		})
		got, err = queryAll(t, db, strings.Replace(q, "%s", s.loc, 1))
		s.counters.SetTrace(nil)
		s.counters.SetLatency(0)
		s.restore()
		if !replaced.Load() {
			t.Fatalf("%s: no suffix request seen", s.name)
		}
		if err == nil || !strings.Contains(err.Error(), "changed while it was being read") || !strings.Contains(err.Error(), s.loc) {
			t.Errorf("%s replaced mid-query: want an error naming %s that says it changed; got %q, %v", s.name, s.loc, got, err)
		}
	}
}
