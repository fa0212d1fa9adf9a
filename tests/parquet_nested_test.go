package tests

// Nested columns of the public Parquet corpus (../shared/parquet-testing,
// read in place) through SQL, against DuckDB 1.5.6's answers: DESCRIBE,
// SELECT *, and per nested column count, count(DISTINCT), ORDER BY and
// GROUP BY over it, CAST AS VARCHAR. The answers are in
// testdata/parquet_nested_sql.txt, made by -update-duckdb with the bench
// module's DuckDB (DUCK=path of `cd bench && go build ./cmd/duck`).

import (
	"bufio"
	"context"
	"crypto/md5"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
)

var updateNestedDuckDB = flag.Bool("update-duckdb", false, "regenerate testdata/parquet_nested_sql.txt with DuckDB ($DUCK)")

const nestedSQLGolden = "testdata/parquet_nested_sql.txt"

// nestedSQLAnswer is one query over one corpus file ({f} in the query is
// the file's quoted path) and DuckDB's answer: the row count and the MD5
// of the rows (cells tab-joined, NULL as NULL, rows newline-joined; of
// DESCRIBE only the name and type columns).
type nestedSQLAnswer struct {
	file, query string
	rows        int
	md5         string
}

func TestParquetNestedSQL(t *testing.T) {
	dir := filepath.Join(parquetCorpus(t), "files")
	if *updateNestedDuckDB {
		writeNestedSQLGolden(t, dir)
	}
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, w := range readNestedSQLGolden(t) {
		q := strings.ReplaceAll(w.query, "{f}", quoteSQL(filepath.Join(dir, w.file)))
		t.Run(w.file+"/"+w.query, func(t *testing.T) {
			if why := nestedSQLKnownDifferent[w.file+"\t"+w.query]; why != "" {
				t.Skip(why)
			}
			if why := nestedSQLKnownDifferent[w.file]; why != "" {
				t.Skip(why)
			}
			rows, err := nestedSQLRows(db, q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if strings.HasPrefix(w.query, "DESCRIBE") {
				rows = firstCells(rows, 2)
			}
			if got := (nestedSQLAnswer{w.file, w.query, len(rows), md5Rows(rows)}); got != w {
				t.Errorf("%s:\ngot %d rows md5 %s, DuckDB %d rows md5 %s; first rows:\n%s", q, got.rows, got.md5, w.rows, w.md5, strings.Join(rows[:min(len(rows), 5)], "\n"))
			}
		})
	}
}

// nestedSQLKnownDifferent are the queries (file, or file and query) whose
// answers differ from DuckDB's for reasons outside nested types, each with
// why.
var nestedSQLKnownDifferent = map[string]string{}

// nestedSQLRows runs q and renders each row as DuckDB's VARCHAR text of
// its values, tab-joined.
func nestedSQLRows(db *b2sql.DB, q string) ([]string, error) {
	rows, err := db.Query(context.Background(), q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var cells []string
		for _, v := range rows.Values() {
			cells = append(cells, v.String())
		}
		out = append(out, strings.Join(cells, "\t"))
	}
	return out, rows.Err()
}

func firstCells(rows []string, n int) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(strings.SplitN(r, "\t", n+1)[:min(n, strings.Count(r, "\t")+1)], "\t")
	}
	return out
}

func md5Rows(rows []string) string {
	h := md5.Sum([]byte(strings.Join(rows, "\n")))
	return hex.EncodeToString(h[:])
}

func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func quoteIdentSQL(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func readNestedSQLGolden(t *testing.T) []nestedSQLAnswer {
	f, err := os.Open(nestedSQLGolden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []nestedSQLAnswer
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		p := strings.Split(line, "\t")
		if len(p) != 4 {
			t.Fatalf("%s: bad line %q", nestedSQLGolden, line)
		}
		n, err := strconv.Atoi(p[2])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, nestedSQLAnswer{p[0], p[1], n, p[3]})
	}
	return out
}

// writeNestedSQLGolden asks DuckDB the queries over every corpus file
// DuckDB reads with a LIST, STRUCT or MAP column.
func writeNestedSQLGolden(t *testing.T, dir string) {
	duck := os.Getenv("DUCK")
	if duck == "" {
		t.Fatal("-update-duckdb needs DUCK (cd bench && go build -o /tmp/duck ./cmd/duck)")
	}
	run := func(sql string) ([]string, bool) {
		out, err := exec.Command(duck, "-c", "SET threads=1; "+sql).Output()
		if err != nil {
			return nil, false
		}
		s := strings.TrimSuffix(string(out), "\n")
		if s == "" {
			return nil, true
		}
		return strings.Split(s, "\n"), true
	}
	var b strings.Builder
	b.WriteString("# DuckDB 1.5.6's answers over the nested columns of ../shared/parquet-testing/files\n")
	b.WriteString("# file, query ({f}: the file), rows, md5 of the rows (see parquet_nested_test.go)\n")
	b.WriteString("# made by DUCK=… go test ./tests -run TestParquetNestedSQL -update-duckdb\n")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.parquet"))
	for _, p := range paths {
		f := quoteSQL(p)
		desc, ok := run("DESCRIBE SELECT * FROM " + f)
		if !ok {
			continue
		}
		var nested []string
		for _, line := range desc {
			c := strings.Split(line, "\t")
			if len(c) >= 2 && (strings.HasSuffix(c[1], "]") || strings.HasPrefix(c[1], "STRUCT(") || strings.HasPrefix(c[1], "MAP(")) {
				nested = append(nested, c[0])
			}
		}
		if len(nested) == 0 {
			continue
		}
		queries := []string{"DESCRIBE SELECT * FROM {f}", "SELECT * FROM {f}"}
		for _, c := range nested {
			c = quoteIdentSQL(c)
			queries = append(queries,
				fmt.Sprintf("SELECT count(%s), count(DISTINCT %s) FROM {f}", c, c),
				fmt.Sprintf("SELECT CAST(%s AS VARCHAR) FROM {f}", c),
				fmt.Sprintf("SELECT %s FROM {f} ORDER BY %s", c, c),
				fmt.Sprintf("SELECT %s FROM {f} ORDER BY %s DESC NULLS FIRST", c, c),
				fmt.Sprintf("SELECT %s, count(*) FROM {f} GROUP BY %s ORDER BY %s", c, c, c),
			)
		}
		for _, q := range queries {
			rows, ok := run(strings.ReplaceAll(q, "{f}", f))
			if !ok {
				continue
			}
			if strings.HasPrefix(q, "DESCRIBE") {
				rows = firstCells(rows, 2)
			}
			fmt.Fprintf(&b, "%s\t%s\t%d\t%s\n", filepath.Base(p), q, len(rows), md5Rows(rows))
		}
	}
	if err := os.WriteFile(nestedSQLGolden, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestParquetVariantCorpus: the corpus' VARIANT files (parquet-mr 1.16,
// shredded) read as JSON text, DuckDB 1.5.6's CAST(var AS JSON) of each
// (`SELECT id, CAST(var AS JSON) FROM 'shredded_variant-case-012.parquet'`
// gives 1, 9876543210; case-046 gives 1, {"a":null,"b":""}). DuckDB types
// the column VARIANT, b2sql VARCHAR (formats/parquet/variant.go).
func TestParquetVariantCorpus(t *testing.T) {
	dir := filepath.Join(parquetCorpus(t), "files")
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for file, want := range map[string]string{
		"shredded_variant-case-012.parquet": "1\t9876543210",
		"shredded_variant-case-046.parquet": "1\t{\"a\":null,\"b\":\"\"}",
	} {
		rows, err := nestedSQLRows(db, "SELECT id, var FROM "+quoteSQL(filepath.Join(dir, file)))
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if got := strings.Join(rows, "\n"); got != want {
			t.Errorf("%s: got %q, want %q", file, got, want)
		}
	}
}
