package main

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/b2sql/b2sql/demo/tpch"
)

// tpchSQL holds the 22 TPC-H queries with the specification's validation
// substitution parameters, in the form DuckDB's tpch extension prints them
// (date arithmetic on constants already folded, Q15's view as a CTE).
//
//go:embed tpch/*.sql
var tpchSQL embed.FS

// tpchOrdered lists the queries whose ORDER BY is a total order of their
// result, compared row by row; the others (ORDER BY an aggregate that may
// tie) are compared as sorted row sets.
var tpchOrdered = map[int]bool{1: true, 2: true, 4: true, 7: true, 8: true, 9: true, 12: true,
	13: true, 14: true, 15: true, 16: true, 17: true, 19: true, 20: true, 21: true, 22: true}

// tpchQueries returns q01 … q22.
func tpchQueries() []query {
	var qs []query
	for n := 1; n <= 22; n++ {
		name := fmt.Sprintf("q%02d", n)
		b, err := fs.ReadFile(tpchSQL, "tpch/"+name+".sql")
		if err != nil {
			panic(err) // embedded at build time
		}
		sql := strings.TrimSuffix(strings.TrimSpace(string(b)), ";")
		qs = append(qs, query{Name: name, SQL: sql, Ordered: tpchOrdered[n]})
	}
	return qs
}

// stampFile marks a directory whose generation finished; it holds the
// scale factor. Each table file is renamed into place when complete, but
// only the stamp says that all eight are there and from the same run.
const stampFile = ".complete"

// ensureTPCH makes sure dir holds the eight TPC-H tables at scale factor
// sf, generating them unless a finished generation is there, and returns
// the table files by name.
func ensureTPCH(dir string, sf float64) (map[string]string, error) {
	tables := make(map[string]string, len(tpch.Tables))
	for _, t := range tpch.Tables {
		tables[t] = tpch.Path(dir, t, tpch.Parquet)
	}
	stamp := filepath.Join(dir, stampFile)
	if b, err := os.ReadFile(stamp); err == nil && strings.TrimSpace(string(b)) == strconv.FormatFloat(sf, 'g', -1, 64) {
		return tables, nil
	}
	fmt.Fprintf(os.Stderr, "compare: generating TPC-H SF %g into %s\n", sf, dir)
	start := time.Now()
	if err := tpch.Generate(dir, sf, tpch.Options{}); err != nil {
		return nil, err
	}
	if err := os.WriteFile(stamp, []byte(strconv.FormatFloat(sf, 'g', -1, 64)+"\n"), 0o644); err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "compare: generated in %s\n", time.Since(start).Round(time.Millisecond))
	return tables, nil
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}
