package tests

// The public Parquet corpus (../shared/parquet-testing, read in place, see
// its README) through the SQL engine: every valid file answers SELECT *
// and count(*), every corrupt one fails with an error naming the file.
// formats/parquet's corpus tests check the reader in detail; these check
// what a user sees.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
)

// parquetCorpus returns the corpus directory (shared/parquet-testing beside
// the repository or a directory above it, or PARQUET_TESTING), or skips.
func parquetCorpus(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("PARQUET_TESTING"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		d := filepath.Join(dir, "shared", "parquet-testing")
		if st, err := os.Stat(filepath.Join(d, "files")); err == nil && st.IsDir() {
			return d
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Skip("parquet-testing corpus not found (../shared/parquet-testing; set PARQUET_TESTING): skipped")
		}
		dir = up
	}
}

// TestParquetCorpusWarning: a column whose logical type the reader does
// not know reads as its physical type, and the DB's warning function hears
// of it, once, naming the file and the column.
func TestParquetCorpusWarning(t *testing.T) {
	path := filepath.Join(parquetCorpus(t), "files", "unknown-logical-type.parquet")
	var warnings []string
	db, err := b2sql.Open("", b2sql.WithWarnings(func(msg string) { warnings = append(warnings, msg) }))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for range 2 {
		got, err := queryAll(t, db, "SELECT count(*) FROM '"+path+"'")
		if err != nil || !slices.Equal(got, []string{"3"}) {
			t.Fatalf("count(*) = %q, %v; DuckDB: 3", got, err)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], path) ||
		!strings.Contains(warnings[0], `column "column with unknown type": unknown logical type`) ||
		!strings.Contains(warnings[0], "read as its physical type BYTE_ARRAY") {
		t.Fatalf("warnings %q; want one naming the file and the column", warnings)
	}
}

func TestParquetCorpusSQL(t *testing.T) {
	corpus := parquetCorpus(t)
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	quote := func(p string) string { return "'" + strings.ReplaceAll(p, "'", "''") + "'" }

	// Files of files/ b2sql does not read, with what the error must say.
	unreadable := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(corpus, "files", "*.parquet"))
	for _, path := range files {
		name := filepath.Base(path)
		t.Run("files/"+name, func(t *testing.T) {
			_, err := queryAll(t, db, "SELECT * FROM "+quote(path))
			if want, ok := unreadable[name]; ok {
				if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) {
					t.Fatalf("SELECT *: %v; want an error naming the file and %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("SELECT *: %v", err)
			}
		})
	}

	// Values of the files this issue made readable, as DuckDB 1.5.6 gives
	// them (the LZ4 ones, which DuckDB cannot read, as it reads the LZ4_RAW
	// file the parquet-testing README says holds the same values).
	lz4 := []string{"1593604800\tabc\t42.0", "1593604800\tdef\t7.7", "1593604801\tabc\t42.125", "1593604801\tdef\t7.7"}
	for _, tc := range []struct {
		q    string
		want []string
	}{
		// FLOAT16 reads as FLOAT (DuckDB 1.5.6: NULL, 1.0, -2.0, nan, 0.0,
		// -1.0, -0.0, 2.0 and min 0.0, max nan, count 5 over x > -1).
		{"SELECT x::VARCHAR, typeof(x) FROM " + quote(filepath.Join(corpus, "files", "float16_nonzeros_and_nans.parquet")),
			[]string{"NULL\tFLOAT", "1.0\tFLOAT", "-2.0\tFLOAT", "nan\tFLOAT", "0.0\tFLOAT", "-1.0\tFLOAT", "-0.0\tFLOAT", "2.0\tFLOAT"}},
		{"SELECT min(x), max(x), count(x) FROM " + quote(filepath.Join(corpus, "files", "float16_nonzeros_and_nans.parquet")) + " WHERE x > -1",
			[]string{"0.0\tnan\t5"}},
		{`SELECT "column with known type", "column with unknown type"::VARCHAR FROM ` + quote(filepath.Join(corpus, "files", "unknown-logical-type.parquet")),
			[]string{"known string 1\tunknown string 1", "known string 2\tunknown string 2", "known string 3\tunknown string 3"}},
		// pyarrow 2.0's V2 pages flagged uncompressed but compressed (DuckDB
		// fails on them): the footer's statistics say 1..5, 'a'..'e', no NULLs.
		{"SELECT sum(col1), string_agg(col2, ''), sum(col3), string_agg(col4, '') FROM " + quote(filepath.Join(corpus, "files", "ARROW-17100.parquet")),
			[]string{"15\tabcde\t15.0\taaabb"}},
		{"SELECT value, count(*) FROM " + quote(filepath.Join(corpus, "files", "datapage_v2_empty_datapage.snappy.parquet")) + " GROUP BY value",
			[]string{"NULL\t1"}},
		{"SELECT c0, c1::VARCHAR, v11 FROM " + quote(filepath.Join(corpus, "files", "hadoop_lz4_compressed.parquet")), lz4},
		{"SELECT c0, c1::VARCHAR, v11 FROM " + quote(filepath.Join(corpus, "files", "non_hadoop_lz4_compressed.parquet")), lz4},
		{"SELECT count(*), count(DISTINCT a), min(a), max(a), sum(length(a)) FROM " + quote(filepath.Join(corpus, "files", "hadoop_lz4_compressed_larger.parquet")),
			[]string{"10000\t10000\t00087de7-10df-4979-94cf-79279f9745ce\tffffe6a0-e0c0-4e65-a9d4-f7f4c176aea2\t360000"}},
	} {
		got, err := queryAll(t, db, tc.q)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s\n= %q, %v\nwant (DuckDB) %q", tc.q, got, err, tc.want)
		}
	}

	bad, _ := filepath.Glob(filepath.Join(corpus, "bad", "*.parquet"))
	for _, path := range bad {
		name := filepath.Base(path)
		if name == "ARROW-GH-43605.parquet" { // readable: DuckDB gives 21186 rows of 0
			got, err := queryAll(t, db, "SELECT count(*), min(min_fl), max(min_fl) FROM "+quote(path))
			if err != nil || !slices.Equal(got, []string{"21186\t0\t0"}) {
				t.Errorf("%s: %q, %v; DuckDB: 21186 rows of 0", name, got, err)
			}
			continue
		}
		t.Run("bad/"+name, func(t *testing.T) {
			_, err := queryAll(t, db, "SELECT * FROM "+quote(path))
			if err == nil {
				t.Fatal("SELECT * succeeded")
			}
			msg := err.Error()
			if !strings.Contains(msg, path) || strings.Contains(msg, "panic") || strings.Contains(msg, "internal error") ||
				strings.Contains(msg, "no FROM clause") {
				t.Fatalf("SELECT *: %v; want an error naming the file and what is wrong", err)
			}
		})
	}
}
