// Command textscan times b2sql and DuckDB on queries straight over a CSV
// or NDJSON file (issue #23: a 1 GB CSV and the same rows as NDJSON, 2
// threads, b2sql within 1.5× of DuckDB, the CSV scan under 300 MB peak
// RSS). Every engine × file × query runs in its own process under
// /usr/bin/time -v, so each peak RSS is that run's alone; the answers of
// the two engines are compared.
//
//	cd bench && go run ./cmd/textscan -files /work/data/events10m_text/events.csv,/work/data/events10m_text/events.ndjson
//
// The files are the demo events table, e.g. written by DuckDB from
// `b2sql gen`'s Parquet: COPY (FROM 'events.parquet') TO 'events.csv'
// (HEADER) and TO 'events.ndjson' (FORMAT json).
package main

import (
	"bytes"
	dsql "database/sql"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/b2sql/b2sql"
	_ "github.com/duckdb/duckdb-go/v2"
)

var queries = []struct{ name, sql string }{
	{"count", "SELECT count(*) FROM '%s'"},
	{"filtered_sum", "SELECT sum(price) FROM '%s' WHERE region = 3"},
	{"group_by", "SELECT category, count(*), sum(qty) FROM '%s' GROUP BY category ORDER BY category"},
}

func main() {
	files := flag.String("files", "", "comma-separated CSV/NDJSON files")
	threads := flag.Int("threads", 2, "threads for both engines")
	only := flag.String("queries", "", "comma-separated query names (default: all)")
	child := flag.String("child", "", "internal: engine:query:file to run in this process")
	flag.Parse()
	if *child != "" {
		runChild(*child, *threads)
		return
	}
	self, err := os.Executable()
	check(err)
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("threads=%d load before: %s\n", *threads, strings.TrimSpace(string(load)))
	fmt.Printf("%-14s %-13s %-7s %9s %9s %10s  %s\n", "file", "query", "engine", "wall s", "cpu s", "peak RSS", "answer")
	for _, f := range strings.Split(*files, ",") {
		for _, q := range queries {
			if *only != "" && !strings.Contains(","+*only+",", ","+q.name+",") {
				continue
			}
			var answers []string
			var walls []float64
			for _, engine := range []string{"duckdb", "b2sql"} {
				cmd := exec.Command("/usr/bin/time", "-v", self, "-threads", strconv.Itoa(*threads), "-child", engine+":"+q.name+":"+f)
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				if err := cmd.Run(); err != nil {
					fmt.Printf("%s %s %s: %v\n%s", f, q.name, engine, err, errb.String())
					continue
				}
				// The child prints "wall cpu answer"; time -v the peak RSS.
				parts := strings.SplitN(strings.TrimSpace(out.String()), " ", 3)
				rss := regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`).FindStringSubmatch(errb.String())
				mb := "?"
				if rss != nil {
					kb, _ := strconv.Atoi(rss[1])
					mb = fmt.Sprintf("%d MB", kb/1024)
				}
				wall, _ := strconv.ParseFloat(parts[0], 64)
				walls = append(walls, wall)
				answers = append(answers, parts[2])
				short := parts[2]
				if len(short) > 40 {
					short = short[:40] + "…"
				}
				fmt.Printf("%-14s %-13s %-7s %9s %9s %10s  %s\n", base(f), q.name, engine, parts[0], parts[1], mb, short)
			}
			if len(answers) == 2 {
				fmt.Printf("%-14s %-13s ratio b2sql/duckdb wall %.2f, answers equal: %v\n", base(f), q.name, walls[1]/walls[0], sameAnswer(answers[0], answers[1]))
			}
		}
	}
	load, _ = os.ReadFile("/proc/loadavg")
	fmt.Printf("load after: %s\n", strings.TrimSpace(string(load)))
}

func base(p string) string { return p[strings.LastIndex(p, "/")+1:] }

// runChild runs one query once on one engine and prints its wall and CPU
// seconds and its answer.
func runChild(spec string, threads int) {
	parts := strings.SplitN(spec, ":", 3)
	engine, name, file := parts[0], parts[1], parts[2]
	var q string
	for _, x := range queries {
		if x.name == name {
			q = fmt.Sprintf(x.sql, file)
		}
	}
	var db *dsql.DB
	var err error
	if engine == "duckdb" {
		db, err = dsql.Open("duckdb", "")
		check(err)
		db.SetMaxOpenConns(1)
		_, err = db.Exec(fmt.Sprintf("SET threads = %d", threads))
	} else {
		db, err = dsql.Open(b2sql.DriverName, "")
		check(err)
		db.SetMaxOpenConns(1)
		_, err = db.Exec(fmt.Sprintf("SET threads = %d", threads))
	}
	check(err)
	cpu0 := cpuTime()
	start := time.Now()
	rows, err := db.Query(q)
	check(err)
	cols, _ := rows.Columns()
	var answer []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		check(rows.Scan(ptrs...))
		var cells []string
		for _, v := range vals {
			switch x := v.(type) {
			case nil:
				cells = append(cells, "NULL")
			case []byte:
				cells = append(cells, string(x))
			case float64:
				cells = append(cells, strconv.FormatFloat(x, 'g', -1, 64))
			default: // integers, *big.Int (DuckDB's HUGEINT sums), strings
				cells = append(cells, fmt.Sprint(x))
			}
		}
		answer = append(answer, strings.Join(cells, ","))
	}
	check(rows.Err())
	wall := time.Since(start).Seconds()
	fmt.Printf("%.2f %.2f %s\n", wall, cpuTime()-cpu0, strings.Join(answer, ";"))
}

func cpuTime() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// sameAnswer compares answers cell by cell, numbers within 1e-9 relative
// (the engines sum in different orders).
func sameAnswer(a, b string) bool {
	ca, cb := strings.FieldsFunc(a, sep), strings.FieldsFunc(b, sep)
	if len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if ca[i] == cb[i] {
			continue
		}
		x, e1 := strconv.ParseFloat(ca[i], 64)
		y, e2 := strconv.ParseFloat(cb[i], 64)
		if e1 != nil || e2 != nil || math.Abs(x-y) > 1e-9*math.Max(math.Abs(x), math.Abs(y)) {
			return false
		}
	}
	return true
}

func sep(r rune) bool { return r == ',' || r == ';' }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
