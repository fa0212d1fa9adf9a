package b2sql_test

import (
	"testing"

	"github.com/b2sql/b2sql"
)

// RETURNING, DEFAULT and ON CONFLICT … DO UPDATE through the API: values
// worked out by hand from the statements.
func TestReturningDefaultsUpsert(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, `CREATE TABLE kv (k INTEGER PRIMARY KEY, v VARCHAR DEFAULT 'none', n INTEGER DEFAULT 40 + 2)`)
	mustExec(t, db, `INSERT INTO kv VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)`)
	for _, tc := range []struct{ name, q, want string }{
		{"params", `INSERT INTO kv (k) VALUES (4) RETURNING k * 10, v, n`, "40|none|42"},
		// INSERT OR REPLACE changes the row in place: the scan order keeps it second.
		{"replace in place", `INSERT OR REPLACE INTO kv VALUES (2, 'B', 0) RETURNING *`, "2|B|0"},
		{"order", `SELECT k, v FROM kv`, "1|a\n2|B\n3|c\n4|none"},
		// k 3 exists: n = 3 * 100 + 5, v kept; k 5 is new.
		{"upsert", `INSERT INTO kv VALUES (3, 'x', 5), (5, 'y', 6) ON CONFLICT (k) DO UPDATE SET n = kv.n * 100 + excluded.n RETURNING k, v, n`, "3|c|305\n5|y|6"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := queryText(t, db, tc.q); got != tc.want {
				t.Errorf("%s:\n got %q\nwant %q", tc.q, got, tc.want)
			}
		})
	}
	// Markers in DO UPDATE and RETURNING number after those of the rows.
	rows, err := db.Query(t.Context(), `INSERT INTO kv VALUES (?, ?, 7) ON CONFLICT DO UPDATE SET n = excluded.n + ? RETURNING k + ?, v, n`, 1, "z", 100, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]any
	for rows.Next() {
		var k, n int64
		var v string
		if err := rows.Scan(&k, &v, &n); err != nil {
			t.Fatal(err)
		}
		got = append(got, []any{k, v, n})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	// k = 1 exists: n becomes 7 + 100, v stays 'a'; RETURNING adds 1000 to k.
	if len(got) != 1 || got[0][0] != int64(1001) || got[0][1] != "a" || got[0][2] != int64(107) {
		t.Errorf("upsert with parameters returned %v, want [[1001 a 107]]", got)
	}
}
