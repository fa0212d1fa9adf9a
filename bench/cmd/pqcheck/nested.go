package main

import (
	"context"
	dsql "database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/index"
)

// genNested is a DuckDB query making nested columns with NULLs and empty
// lists at every level, lists long and short, and leaves of many types.
const genNested = `SELECT i,
	CASE WHEN i%7=0 THEN NULL WHEN i%11=0 THEN [] ELSE [CASE WHEN i%5=0 THEN NULL ELSE i END, i*2] END AS l,
	CASE WHEN i%13=0 THEN NULL ELSE [CASE WHEN i%3=0 THEN NULL WHEN i%4=0 THEN [] ELSE ['a'||i, NULL] END, ['x']] END AS ll,
	CASE WHEN i%6=0 THEN NULL ELSE {'a': CASE WHEN i%4=0 THEN NULL ELSE i::INTEGER END,
		'b': CASE WHEN i%9=0 THEN NULL ELSE [i::DOUBLE/3] END,
		'c': {'d': CASE WHEN i%2=0 THEN 'e'||i END}} END AS s,
	CASE WHEN i%8=0 THEN NULL WHEN i%10=0 THEN MAP {}::MAP(VARCHAR, BIGINT[]) ELSE MAP {'k'||i: CASE WHEN i%3=0 THEN NULL ELSE [i] END, 'z': [1, 2]} END AS m,
	CASE WHEN i%5=0 THEN NULL ELSE [{'x': i, 'y': 'v'||i}, NULL, {'x': NULL, 'y': NULL}] END AS ls,
	range(i % 40) AS rl,
	[DATE '2024-01-01' + (i%100)::INTEGER, NULL] AS ld,
	[i%2=0, NULL] AS lb,
	[(i/100)::DECIMAL(10,2), (i%997/7)::DECIMAL(4,1)] AS ldec,
	[TIMESTAMP '2024-01-01' + to_seconds(i), NULL] AS lts,
	[i::FLOAT/4, (i % 100)::SMALLINT, (i%200)::UTINYINT] AS lnum,
	CASE WHEN i%3=0 THEN NULL ELSE MAP {i: {'p': 'q'||i}} END AS mi
FROM range(ROWS) t(i)`

// checkNested has DuckDB write a file of nested columns (rows rows), then
// for it and every file of the corpus dir: b2sql reads the file and writes
// it again with its own writer, and DuckDB compares every nested column of
// the copy with the original (type, and the text of every row in file
// order). It reports whether all matched.
func checkNested(db *dsql.DB, corpus, tmp string, rows int64) bool {
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SET threads=1"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return false
	}
	gen := filepath.Join(tmp, "pqcheck_nested_src.parquet")
	q := strings.Replace(genNested, "ROWS", fmt.Sprint(rows), 1)
	if _, err := db.Exec("COPY (" + q + ") TO '" + gen + "' (ROW_GROUP_SIZE 100000)"); err != nil {
		fmt.Fprintln(os.Stderr, "duckdb:", err)
		return false
	}
	files := []string{gen}
	if corpus != "" {
		more, _ := filepath.Glob(filepath.Join(corpus, "*.parquet"))
		files = append(files, more...)
	}
	ok := true
	checked := 0
	for _, src := range files {
		out := filepath.Join(tmp, "pqcheck_nested_copy.parquet")
		cols, err := copyFile(src, out)
		if err != nil {
			if src == gen {
				fmt.Printf("%-45s MISMATCH %v\n", filepath.Base(src), err)
				ok = false
			}
			continue // a corpus file b2sql does not read or write whole
		}
		for _, c := range cols {
			q := func(f string) (typ, text string) {
				id := `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
				if err := db.QueryRow(fmt.Sprintf(`SELECT column_type FROM (DESCRIBE SELECT %s FROM '%s')`, id, f)).Scan(&typ); err != nil {
					return "error", err.Error()
				}
				if err := db.QueryRow(fmt.Sprintf(`SELECT count(%s) || ' ' || md5(coalesce(string_agg(coalesce(CAST(%s AS VARCHAR), 'NULL'), chr(10)), '')) FROM '%s'`, id, id, f)).Scan(&text); err != nil {
					return typ, err.Error()
				}
				return typ, text
			}
			wt, wx := q(src)
			gt, gx := q(out)
			status := "ok"
			switch {
			case wt == "error" || wt == "VARIANT":
				// DuckDB does not read the original, or reads it as a
				// VARIANT, which b2sql reads as its STRUCT storage.
				fmt.Printf("%-45s skipped: DuckDB reads the original as %s %s\n", filepath.Base(src)+"/"+c, wt, wx)
				continue
			case wt != gt || wx != gx:
				status, ok = "MISMATCH", false
			}
			checked++
			fmt.Printf("%-45s %-8s %-30s %s\n", filepath.Base(src)+"/"+c, status, gt, gx)
			if status != "ok" {
				fmt.Printf("%45s want     %-30s %s\n", "", wt, wx)
			}
		}
	}
	fmt.Printf("%d nested columns written by b2sql and read by DuckDB\n", checked)
	return ok
}

// copyFile reads src with b2sql and writes every column to dst, returning
// the names of the nested columns.
func copyFile(src, dst string) ([]string, error) {
	t, err := parquet.Open(src)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	sc := t.Schema()
	var nested []string
	all := make([]int, len(sc))
	out := make(columnar.Schema, len(sc))
	for i, f := range sc {
		all[i] = i
		f.Nullable = true
		out[i] = f
		if f.Type.IsNested() {
			nested = append(nested, f.Name)
		}
	}
	if len(nested) == 0 {
		return nil, errors.New("no nested column")
	}
	ctx := context.Background()
	r, err := t.Scan(ctx, index.ScanSpec{Cols: all, Limit: -1, Threads: 1})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	w, err := parquet.NewWriter(dst, out, parquet.WriterOptions{})
	if err != nil {
		return nil, err
	}
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil {
			err = w.Write(b)
		}
		if err != nil {
			w.Abort()
			return nil, err
		}
	}
	return nested, w.Close()
}
