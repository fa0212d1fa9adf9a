// Command hivecheck writes a hive-partitioned dataset with each engine —
// DuckDB's COPY … PARTITION_BY and b2sql's — and reads both datasets with
// both engines, checking that the four readings give the same answers
// (issue #23: a dataset either engine writes, either engine reads alike).
//
//	cd bench && go run ./cmd/hivecheck            # in a temporary directory
//	cd bench && go run ./cmd/hivecheck -dir /tmp/h -rows 100000
//
// It prints one line per query and dataset, and exits 1 on a difference.
package main

import (
	dsql "database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/b2sql/b2sql"
	_ "github.com/duckdb/duckdb-go/v2"
)

// source is the data both engines write (DuckDB's and b2sql's SQL alike).
const source = `SELECT i AS id, i %% 5 AS region, DATE '2024-01-01' + (i %% 3)::INT AS day,
  CASE WHEN i %% 7 = 0 THEN NULL ELSE 'c' || (i %% 4) END AS city, 'name ' || i AS name, (i %% 100) * 0.5 AS amount
  FROM range(%d) t(i)`

// queries read a dataset at %[1]s (a glob); every value is cast to text
// so that the engines' Go values compare alike.
var queries = []string{
	`SELECT count(*)::VARCHAR, sum(id)::VARCHAR, sum(amount)::VARCHAR FROM read_%[2]s('%[1]s')`,
	`SELECT region::VARCHAR, day::VARCHAR, count(*)::VARCHAR, sum(id)::VARCHAR, min(name) FROM read_%[2]s('%[1]s') GROUP BY region, day ORDER BY region, day`,
	`SELECT coalesce(city, 'NULL'), count(*)::VARCHAR FROM read_%[2]s('%[1]s') GROUP BY city ORDER BY city NULLS FIRST`,
	`SELECT count(*)::VARCHAR, sum(id)::VARCHAR FROM read_%[2]s('%[1]s') WHERE region IN (1, 3) AND day >= DATE '2024-01-02'`,
	`SELECT typeof(region), typeof(day) FROM read_%[2]s('%[1]s') LIMIT 1`,
}

func main() {
	dir := flag.String("dir", "", "directory for the datasets (default: a temporary one, removed)")
	rows := flag.Int("rows", 20000, "rows to write")
	flag.Parse()
	if *dir == "" {
		d, err := os.MkdirTemp("", "hivecheck")
		check(err)
		defer os.RemoveAll(d)
		*dir = d
	}
	duck, err := dsql.Open("duckdb", "")
	check(err)
	defer duck.Close()
	duck.SetMaxOpenConns(1)
	b2, err := dsql.Open(b2sql.DriverName, "")
	check(err)
	defer b2.Close()

	engines := []struct {
		name string
		db   *dsql.DB
	}{{"duckdb", duck}, {"b2sql", b2}}
	bad := false
	for _, format := range []string{"parquet", "csv"} {
		byWriter := map[string][][][]string{} // writer → per query, both engines' answers
		for _, w := range engines {
			out := filepath.Join(*dir, w.name+"_"+format)
			q := fmt.Sprintf("COPY (%s) TO '%s' (FORMAT %s, PARTITION_BY (region, day), OVERWRITE)", fmt.Sprintf(source, *rows), out, format)
			_, err := w.db.Exec(q)
			check(err)
			glob := filepath.ToSlash(out) + "/*/*/*." + format
			for _, qt := range queries {
				q := fmt.Sprintf(qt, glob, format)
				var answers [][]string
				for _, r := range engines {
					a, err := rowsOf(r.db, q)
					if err != nil {
						a = [][]string{{"error: " + err.Error()}}
					}
					answers = append(answers, a...)
					answers = append(answers, []string{"--"})
				}
				byWriter[w.name] = append(byWriter[w.name], answers)
				half := len(answers) / 2
				same := slices.EqualFunc(answers[:half], answers[half:], slices.Equal[[]string])
				status := "same"
				if !same {
					status, bad = "DIFFERENT", true
				}
				fmt.Printf("%-9s written by %-6s %-7s query %d: %s\n", status, w.name, format, len(byWriter[w.name]), strings.Join(strings.Fields(q), " ")[:70])
				if !same {
					fmt.Printf("  duckdb: %v\n  b2sql:  %v\n", answers[:half], answers[half:])
				}
			}
		}
		// The same rows written by either engine read the same.
		for i := range queries {
			same := slices.EqualFunc(byWriter["duckdb"][i], byWriter["b2sql"][i], slices.Equal[[]string])
			if !same {
				bad = true
			}
			fmt.Printf("%-9s %-7s query %d: DuckDB's dataset and b2sql's read alike: %v\n", map[bool]string{true: "same", false: "DIFFERENT"}[same], format, i+1, same)
		}
	}
	if bad {
		os.Exit(1)
	}
}

func rowsOf(db *dsql.DB, q string) ([][]string, error) {
	rs, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]string
	for rs.Next() {
		vals := make([]dsql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = v.String
			if !v.Valid {
				row[i] = "NULL"
			}
		}
		out = append(out, row)
	}
	return out, rs.Err()
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
