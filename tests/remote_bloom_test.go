package tests

// A remote Parquet scan reads a bloom filter only where it could skip a
// row group: for `d IN (…)` on a column whose row groups hold every value
// of their narrow integer range, and for `m = …` on a string column of a
// few values repeated throughout (a small dictionary page), the filters
// always answer "maybe", and fetching them cost a request per row group
// and a round trip before any data (#22). For a sparse column they still
// skip.

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/storage/storagetest"
)

func TestRemoteBloomOnlyWhereItCanSkip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.parquet")
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// 40 row groups of 50,000 rows; d spans 0..9 in each (5,000 rows per
	// value); m is 'mode' and i % 7 (7 strings, about 7,100 rows each per
	// group); u is 'k' and a number spread over 0..10,000,018 (50,000
	// values per group; a string, so that the writer gives it a bloom
	// filter, which it leaves out for integers DELTA encodes well). The
	// file must be larger than the 1 MiB a remote open fetches from its
	// end, or the bloom filters would come with the footer.
	if _, err := queryAll(t, db, "COPY (SELECT (i % 10)::INTEGER AS d, 'mode' || (i % 7) AS m, 'k' || ((i * 7919) % 10000019) AS u FROM range(2000000) t(i)) TO '"+path+"' (ROW_GROUP_SIZE 50000)"); err != nil {
		t.Fatal(err)
	}
	blooms, err := queryAll(t, db, "SELECT path_in_schema, bloom_filter_offset, bloom_filter_length FROM parquet_metadata('"+path+"') WHERE bloom_filter_offset IS NOT NULL")
	if err != nil {
		t.Fatal(err)
	}
	type span struct{ lo, hi int64 }
	bloomOf := map[string][]span{}
	for _, r := range blooms {
		f := strings.Split(r, "\t")
		off, _ := strconv.ParseInt(f[1], 10, 64)
		n, _ := strconv.ParseInt(f[2], 10, 64)
		bloomOf[f[0]] = append(bloomOf[f[0]], span{off, off + n})
	}
	if len(bloomOf["d"]) != 40 || len(bloomOf["m"]) != 40 || len(bloomOf["u"]) != 40 {
		t.Fatalf("the writer should put a bloom filter on d, m and u in each of 40 row groups: %q", blooms)
	}
	web := storagetest.NewHTTP(t, dir)
	var mu sync.Mutex
	var ranges []string
	web.SetTrace(func(r storagetest.Request) {
		mu.Lock()
		ranges = append(ranges, r.Range)
		mu.Unlock()
	})
	// touched counts the requests that cover a bloom filter of col.
	touched := func(col string) int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, r := range ranges {
			var lo, hi int64
			if _, err := fmt.Sscanf(r, "bytes=%d-%d", &lo, &hi); err != nil {
				continue // the suffix request: the footer
			}
			for _, b := range bloomOf[col] {
				if lo < b.hi && b.lo <= hi {
					n++
					break
				}
			}
		}
		return n
	}
	loc := "'" + web.Location("b.parquet") + "'"
	for _, c := range []struct {
		where, col string
		want       string // count(*), by hand
		reads      bool   // whether the bloom filters are read
	}{
		// d IN (1, 5, 7): 3 values × 200,000 rows.
		{"d IN (1, 5, 7)", "d", "600000", false},
		{"d = 4", "d", "200000", false},
		// 2,000,000 = 7 × 285,714 + 2: i % 7 is 0 or 1 for 285,715
		// values of i, each other residue for 285,714. 'mode35' sorts inside every group's range ('mode0' to
		// 'mode6') and is in none: its row groups are read, and no row
		// matches.
		{"m = 'mode3'", "m", "285714", false},
		{"m IN ('mode1', 'mode5')", "m", "571429", false},
		{"m = 'mode35'", "m", "0", false},
		// 'k5000000' sorts inside every group's u range (their minima are
		// at most 'k1000264', their maxima at least 'k9999750') and no
		// i < 2,000,000 has (i*7919) % 10000019 = 5000000; 5000004 is
		// there once, at i = 1,868,295 (both checked by enumeration).
		{"u = 'k5000000'", "u", "0", true},
		{"u = 'k5000004'", "u", "1", true},
	} {
		mu.Lock()
		ranges = nil
		mu.Unlock()
		got, err := queryAll(t, db, "SELECT count(*) FROM "+loc+" WHERE "+c.where)
		if err != nil || len(got) != 1 || got[0] != c.want {
			t.Errorf("WHERE %s: %q, %v; want %s", c.where, got, err, c.want)
			continue
		}
		if n := touched(c.col); (n > 0) != c.reads {
			t.Errorf("WHERE %s: %d requests read %s's bloom filters; want them read: %v (requests %q)", c.where, n, c.col, c.reads, ranges)
		}
	}
}
