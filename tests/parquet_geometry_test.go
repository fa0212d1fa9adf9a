package tests

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
)

// TestParquetGeometry: the corpus's GEOMETRY and GEOGRAPHY columns read as
// GEOMETRY, each value shown as DuckDB 1.5.6 shows it (WKT) and given as
// the WKB DuckDB's st_aswkb gives (compared by md5 over all rows), and
// written back by COPY as a GEOMETRY column that reads the same.
func TestParquetGeometry(t *testing.T) {
	corpus := parquetCorpus(t)
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := filepath.Join(t.TempDir(), "geo.parquet")
	for _, tc := range []struct {
		file, col string
		want      string // DuckDB 1.5.6's answer to the query below
	}{
		{"geospatial.parquet", "geometry", "196\t164\t9677623d2cccc1d08751149def88a6ca\t7697e8db79901e33094ba7b84400ef5c\t140"},
		{"crs-geography.parquet", "geography", "1\t1\tb15923c9dd0bc6a767a6773b69c1749a\t20e826e69bbe02e1dd1cde887472c711\t1"},
	} {
		path := "'" + filepath.Join(corpus, "files", tc.file) + "'"
		got, err := queryAll(t, db, "SELECT typeof("+tc.col+") FROM "+path+" LIMIT 1")
		if err != nil || !slices.Equal(got, []string{"GEOMETRY"}) {
			t.Errorf("%s: type %q, %v; DuckDB: GEOMETRY", tc.file, got, err)
		}
		q := func(from string) string {
			return "SELECT count(*), count(g), md5(string_agg(coalesce(g::VARCHAR, 'NULL'), '|' ORDER BY w, g::VARCHAR)), " +
				"md5(string_agg(coalesce(st_aswkb(g)::VARCHAR, 'NULL'), '|' ORDER BY w, g::VARCHAR)), " +
				"count(*) FILTER (WHERE g::VARCHAR = w) FROM (SELECT " + tc.col + " AS g, wkt AS w FROM " + from + ")"
		}
		if got, err := queryAll(t, db, q(path)); err != nil || strings.Join(got, "\n") != tc.want {
			t.Errorf("%s: %q, %v; DuckDB: %q", tc.file, got, err, tc.want)
		}
		if _, err := queryAll(t, db, "COPY (SELECT * FROM "+path+") TO '"+out+"'"); err != nil {
			t.Fatal(err)
		}
		if got, err := queryAll(t, db, q("'"+out+"'")); err != nil || strings.Join(got, "\n") != tc.want {
			t.Errorf("%s written back: %q, %v; want %q", tc.file, got, err, tc.want)
		}
	}
}
