package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// nestedQueries are issue 21's performance queries over a LIST<INT>
// column: len, unnest and a list_contains filter.
func nestedQueries() []query {
	return []query{
		{Name: "sum_len", SQL: "SELECT sum(len(l)) FROM lists"},
		{Name: "unnest_sum", SQL: "SELECT count(*), sum(x) FROM (SELECT unnest(l) AS x FROM lists)"},
		{Name: "contains_filter", SQL: "SELECT count(*) FROM lists WHERE list_contains(l, 7)"},
	}
}

// nestedData locates the lists table (id BIGINT, l INTEGER[]) in dir:
// lists.parquet, as the team's /work/data/lists10m holds it (DuckDB COPY,
// 10M rows of 0–6 elements (x*31+i)%1000, see /work/team/DATA.md), or
// list10m.parquet (row i holds the i % 10 values i % 1000 + 31·k). It is
// not generated here.
func nestedData(dir string) (string, map[string]string, error) {
	var tried []string
	for _, name := range []string{"lists.parquet", "list10m.parquet"} {
		path, err := filepath.Abs(filepath.Join(dir, name))
		if err != nil {
			return "", nil, err
		}
		if _, err := os.Stat(path); err == nil {
			return path, map[string]string{"lists": path}, nil
		}
		tried = append(tried, path)
	}
	return "", nil, fmt.Errorf("-suite nested reads lists.parquet or list10m.parquet in %s: neither exists (tried %v; see nestedData for how they were written)", dir, tried)
}
