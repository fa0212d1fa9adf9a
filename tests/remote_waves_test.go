package tests

// Issue 22: a lookup on a remote .b2z waits few round trips one after the
// other. With latency added to every request of the in-process S3
// server, the requests a query made are grouped into the chains it
// waited for (waves); a point lookup, a small range and a top-k past an
// OFFSET each wait for the zip directory, the members' headers and
// tails, and then one round of data: the blocks of every column the scan
// reads (SUMMARY pruning kept one or a few blocks, or the top-k's seeded
// candidates), each fetched with its chunk's header in the same round
// (the block's place guessed from the chunk's size), and a string
// column's bytes fetched with its offsets (guessed from the mean
// length). Before, the chain was five to eight reads long.

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/storage/storagetest"
)

func TestRemoteB2ZLookupWaves(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 400k-row .b2z and waits for latency")
	}
	dir := t.TempDir()
	ctx := context.Background()
	local, err := b2sql.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// id sorted (its SUMMARY index keeps one block for a point), price
	// random (chunks of 65536 doubles store ~300 KiB: larger than a chunk
	// fetched whole, so header and block are separate), title a string
	// of 30–70 bytes (a blob of several 2 MiB chunks).
	path := filepath.Join(dir, "t.b2z")
	if err := local.Exec(ctx, "COPY (SELECT i AS id, random()*1000 AS price, (i*7)%1000 AS k, "+
		"repeat('t', 30 + (i*13)%41) || i AS title FROM range(400000) r(i)) TO '"+path+"'"); err != nil {
		t.Fatal(err)
	}
	local.Close()
	s3 := storagetest.NewS3(t, "bucket")
	s3.PutFile(t, "t.b2z", path)
	db, err := b2sql.Open("", b2sql.WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Exec(ctx, s3.CreateSecret()); err != nil {
		t.Fatal(err)
	}
	const latency = 200 * time.Millisecond
	cases := []struct {
		name, q string
		waves   int
	}{
		{"point_star", "SELECT * FROM %s WHERE id = 234567", 3},
		{"point_cols", "SELECT id, price, title FROM %s WHERE id = 123456", 3},
		{"range", "SELECT count(*), sum(k), avg(price), max(title) FROM %s WHERE id BETWEEN 300000 AND 301000", 3},
		{"topn_offset", "SELECT id, price FROM %s WHERE price IS NOT NULL ORDER BY price DESC, id LIMIT 10 OFFSET 20", 3},
	}
	for _, c := range cases {
		want, err := queryAll(t, db, fmt.Sprintf(c.q, "'"+path+"'"))
		if err != nil {
			t.Fatalf("%s local: %v", c.name, err)
		}
		var mu sync.Mutex
		var reqs []storagetest.Request
		s3.SetTrace(func(r storagetest.Request) {
			mu.Lock()
			reqs = append(reqs, r)
			mu.Unlock()
		})
		s3.SetLatency(latency)
		start := time.Now()
		got, err := queryAll(t, db, fmt.Sprintf(c.q, "'s3://bucket/t.b2z'"))
		end := time.Now()
		s3.SetLatency(0)
		s3.SetTrace(nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: s3 %q, local %q", c.name, got, want)
		}
		mu.Lock()
		n, chain := waves(reqs, start, end)
		mu.Unlock()
		t.Logf("%s: %d requests, %d waves: %s", c.name, len(reqs), n, chain)
		if n > c.waves {
			t.Errorf("%s waited %d requests one after the other, want at most %d: %s", c.name, n, c.waves, chain)
		}
	}
}

// waves returns the longest chain of requests, each sent after the one
// before it was answered, among those sent while the query ran (from
// start to end), and the chain's ranges. With a latency added to every
// request far above the time between a reply and the request it allows,
// that is the number of round trips the query waited for one after the
// other.
func waves(reqs []storagetest.Request, start, end time.Time) (int, string) {
	var rs []storagetest.Request
	for _, r := range reqs {
		if !r.Start.Before(start) && r.Start.Before(end) {
			rs = append(rs, r)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Start.Before(rs[j].Start) })
	depth := make([]int, len(rs))
	prev := make([]int, len(rs))
	best := -1
	for i, r := range rs {
		depth[i], prev[i] = 1, -1
		for j := range i {
			if !rs[j].Start.Add(rs[j].Took).After(r.Start) && depth[j]+1 > depth[i] {
				depth[i], prev[i] = depth[j]+1, j
			}
		}
		if best < 0 || depth[i] > depth[best] {
			best = i
		}
	}
	if best < 0 {
		return 0, ""
	}
	var chain []string
	for i := best; i >= 0; i = prev[i] {
		chain = append([]string{rs[i].Range}, chain...)
	}
	return depth[best], strings.Join(chain, " → ")
}
