package tests

// Issue #23: b2nd arrays as one table, like every other format: a glob or
// a list of array files (their value column named after the first file),
// union_by_name, filename and hive partitions. Values by formula: file k
// (k = 0, 1, 2) holds the int64 values 1000k .. 1000k+999.

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/formats/b2"
)

func TestManyArrays(t *testing.T) {
	dir := t.TempDir()
	const n = 1000
	for k, name := range []string{"part=0/a.b2nd", "part=1/b.b2nd", "part=2/c.b2nd"} {
		data := make([]byte, 8*n)
		for i := range n {
			binary.LittleEndian.PutUint64(data[8*i:], uint64(k*n+i))
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := b2.WriteArray(p, "<i8", []int64{n}, data, nil); err != nil {
			t.Fatal(err)
		}
	}
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// sum of 0..2999 = 2999*3000/2; of 1000..1999 = 1499500.
	for _, tc := range []struct{ q, want string }{
		{"SELECT count(*), sum(a), min(a), max(a) FROM '%s/*/*.b2nd'", "3000\t4498500\t0\t2999"},
		{"SELECT part, count(*), sum(a) FROM '%s/*/*.b2nd' GROUP BY part ORDER BY part", "0\t1000\t499500\n1\t1000\t1499500\n2\t1000\t2499500"},
		{"SELECT sum(a) FROM '%s/*/*.b2nd' WHERE part = 1", "1499500"},
		{"SELECT count(*), min(b) FROM read_b2(['%[1]s/part=1/b.b2nd', '%[1]s/part=2/c.b2nd'], hive_partitioning = false)", "2000\t1000"},
		{"SELECT right(filename, 6), count(*) FROM read_b2('%s/part=?/[ab].b2nd', filename = true) GROUP BY ALL ORDER BY 1", "a.b2nd\t1000\nb.b2nd\t1000"},
		{"SELECT count(*), sum(a) FROM read_b2('%s/*/*.b2nd', union_by_name = true)", "3000\t4498500"},
	} {
		q := strings.ReplaceAll(tc.q, "%s", dir)
		q = strings.ReplaceAll(q, "%[1]s", dir)
		got, err := queryAll(t, db, q)
		if err != nil || strings.Join(got, "\n") != tc.want {
			t.Errorf("%s:\n got %q, %v\nwant %q", q, strings.Join(got, "\n"), err, tc.want)
		}
	}
	plan, err := queryAll(t, db, fmt.Sprintf("EXPLAIN SELECT sum(a) FROM '%s/*/*.b2nd' WHERE part = 1", dir))
	if err != nil || !strings.Contains(strings.Join(plan, "\n"), "files=1/3") {
		t.Errorf("EXPLAIN: %q, %v; want files=1/3", plan, err)
	}
}
