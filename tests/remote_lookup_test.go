package tests

// The issue-22 target for remote Parquet: a point lookup on the 10M-row
// events file fetches less than 2% of it, and EXPLAIN ANALYZE reports the
// requests and bytes the server counted.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/demo"
	"github.com/b2sql/b2sql/storage/storagetest"
)

func TestRemotePointLookup(t *testing.T) {
	if testing.Short() {
		t.Skip("writes the 10M-row events file (390 MB)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "events.parquet")
	if err := demo.Generate(path, 10_000_000); err != nil {
		t.Fatal(err)
	}
	web := storagetest.NewHTTP(t, dir)
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const q = "SELECT * FROM %s WHERE id = 4567890"
	local, err := queryAll(t, db, fmt.Sprintf(q, "'"+path+"'"))
	if err != nil || len(local) != 1 || !strings.HasPrefix(local[0], "4567890\t") {
		t.Fatalf("local lookup: %q, %v", local, err)
	}
	web.Reset()
	plan, err := queryAll(t, db, "EXPLAIN ANALYZE "+fmt.Sprintf(q, "'"+web.Location("events.parquet")+"'"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	reqs, bytes := web.Requests.Load(), web.Bytes.Load()
	size := fileSize(t, path)
	m := regexp.MustCompile(`remote: (\d+) requests?, fetched [^;]* of ([\d.]+) MiB \(([\d.]+)%\)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("EXPLAIN ANALYZE shows no remote counters:\n%s", text)
	}
	if n, _ := strconv.ParseInt(m[1], 10, 64); n != reqs {
		t.Errorf("EXPLAIN ANALYZE counts %d requests, the server %d:\n%s", n, reqs, text)
	}
	// The file's size and the share fetched, as the server counted them.
	if mib, _ := strconv.ParseFloat(m[2], 64); math.Abs(mib-float64(size)/(1<<20)) > 0.1 {
		t.Errorf("EXPLAIN ANALYZE gives the file as %s MiB, it is %d bytes:\n%s", m[2], size, text)
	}
	if pct, _ := strconv.ParseFloat(m[3], 64); math.Abs(pct-100*float64(bytes)/float64(size)) > 0.1 {
		t.Errorf("EXPLAIN ANALYZE says %s%% fetched, the server served %d of %d bytes:\n%s", m[3], bytes, size, text)
	}
	if share := float64(bytes) / float64(size); share >= 0.02 {
		t.Errorf("point lookup fetched %d of %d bytes (%.2f%%) in %d requests; want < 2%%:\n%s", bytes, size, 100*share, reqs, text)
	}
	t.Logf("point lookup: %d requests, %d of %d bytes (%.2f%%)", reqs, bytes, size, 100*float64(bytes)/float64(size))
	got, err := queryAll(t, db, fmt.Sprintf(q, "'"+web.Location("events.parquet")+"'"))
	if err != nil || strings.Join(got, "\n") != strings.Join(local, "\n") {
		t.Errorf("remote lookup: %q, %v; local %q", got, err, local)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}
