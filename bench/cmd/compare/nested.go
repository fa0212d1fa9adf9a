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

// nestedData locates list10m.parquet (id BIGINT, l INTEGER[]: row i
// holds the i % 10 values i % 1000 + 31·k, k = 0, 1, …, so 45M elements
// and 50,000 rows holding 7) in dir. It is not generated here; on the
// team's machine it is in /work/data/nested10m.
func nestedData(dir string) (string, map[string]string, error) {
	path, err := filepath.Abs(filepath.Join(dir, "list10m.parquet"))
	if err != nil {
		return "", nil, err
	}
	if _, err := os.Stat(path); err != nil {
		return "", nil, fmt.Errorf("-suite nested reads %s: %w (see nestedData for how it was written)", path, err)
	}
	return path, map[string]string{"lists": path}, nil
}
