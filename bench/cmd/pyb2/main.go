// Command pyb2 times b2sql on the issue-19 table that python-blosc2 writes
// (20M rows: id, temperature with a FULL index, price, qty, region, and
// category as dictionary() and, in a second copy, utf8()), one SQL query per
// python-blosc2 call of bench/cmd/pyb2/time20m.py, and prints each
// answer beside the timing so that the two sides can be compared. With
// -py, the JSON that script writes is read and the report gives both
// engines' times and the ratio python-blosc2 / b2sql (above 1: b2sql is
// faster), in wall time and in CPU time (all threads of the process),
// which other work on a shared machine disturbs less.
//
//	python bench/cmd/pyb2/time20m.py make /work/data          # once
//	python bench/cmd/pyb2/time20m.py time /work/data /work/data/pyb2_times.json
//	cd bench && go run ./cmd/pyb2 -dict /work/data/pyb2_20m.b2d -utf8 /work/data/pyb2_20m_utf8.b2d -py /work/data/pyb2_times.json
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/bench/internal/proc"
)

type op struct{ name, call, sql string }

var ops = []op{
	{"column reduce", "t['price'].sum()", "SELECT sum(price) FROM t"},
	{"filtered sum", "t['price'].sum(where=t.region == 3)", "SELECT sum(price) FROM t WHERE region = 3"},
	{"count through FULL", "len(t.where('temperature > 40'))", "SELECT count(*) FROM t WHERE temperature > 40"},
	{"max from index", "t['temperature'].max()", "SELECT max(temperature) FROM t"},
	{"group by dictionary()", "t.group_by('category').agg(n, sum(qty))", "SELECT category, count(*), sum(qty) FROM t GROUP BY category ORDER BY category"},
	{"top-10 through FULL", "t.sorted_slice('temperature', slice(0, 10), ascending=False)", "SELECT temperature, id FROM t ORDER BY temperature DESC LIMIT 10"},
	{"group by utf8()", "same on the utf8 copy", "SELECT category, count(*), sum(qty) FROM u GROUP BY category ORDER BY category"},
	{"IN of 5 values", "t['category'].isin(VALS).sum()", "SELECT count(*) FROM t WHERE category IN ('cat_01', 'cat_07', 'cat_13', 'cat_22', 'cat_39')"},
}

func main() {
	dictPath := flag.String("dict", "/work/data/pyb2_20m.b2d", "the table with category as dictionary()")
	utf8Path := flag.String("utf8", "/work/data/pyb2_20m_utf8.b2d", "the copy with category as utf8()")
	threads := flag.Int("threads", 2, "threads")
	runs := flag.Int("runs", 5, "timed runs per query (best is reported)")
	pyJSON := flag.String("py", "", "python-blosc2 timings written by bench/cmd/pyb2/time20m.py")
	only := flag.String("ops", "", "comma list of operation numbers (1–8) to run; empty: all")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the timed runs to this file")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		check(err)
		check(pprof.StartCPUProfile(f))
		defer pprof.StopCPUProfile()
	}
	db, err := b2sql.Open("", b2sql.WithThreads(*threads))
	check(err)
	check(db.RegisterTable("t", *dictPath))
	check(db.RegisterTable("u", *utf8Path))
	py := map[string]struct {
		MS     float64         `json:"ms"`
		CPUMS  float64         `json:"cpu_ms"`
		Answer json.RawMessage `json:"answer"`
	}{}
	if *pyJSON != "" {
		raw, err := os.ReadFile(*pyJSON)
		check(err)
		check(json.Unmarshal(raw, &py))
	}
	ctx := context.Background()
	fmt.Printf("load %s, %d threads, best of %d warm runs\n\n", proc.LoadAvg(), *threads, *runs)
	fmt.Println("| operation | python-blosc2 call | python-blosc2 | b2sql | b2sql faster by | python-blosc2 CPU | b2sql CPU | faster by (CPU) |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	var answers []string
	for k, o := range ops {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), strconv.Itoa(k+1)) {
			continue
		}
		ans := run(ctx, db, o.sql) // warm-up, and the answer compared
		best, bestCPU := time.Duration(1<<62), time.Duration(1<<62)
		for i := 0; i < *runs; i++ {
			t0, c0 := time.Now(), proc.CPUTime()
			run(ctx, db, o.sql)
			best, bestCPU = min(best, time.Since(t0)), min(bestCPU, proc.CPUTime()-c0)
		}
		ms, cpuMS := float64(best.Microseconds())/1000, float64(bestCPU.Microseconds())/1000
		pyCell, ratio, pyCPU, ratioCPU := "", "", "", ""
		if p, ok := py[o.name]; ok {
			pyCell, ratio = fmt.Sprintf("%.2f ms", p.MS), fmt.Sprintf("%.2f×", p.MS/ms)
			if p.CPUMS > 0 {
				pyCPU, ratioCPU = fmt.Sprintf("%.2f ms", p.CPUMS), fmt.Sprintf("%.2f×", p.CPUMS/max(cpuMS, 0.001))
			}
			answers = append(answers, fmt.Sprintf("%s:\n  python-blosc2 %s\n  b2sql         %s", o.name, p.Answer, ans))
		} else {
			answers = append(answers, fmt.Sprintf("%s:\n  b2sql %s", o.name, ans))
		}
		fmt.Printf("| %s | `%s` | %s | %.2f ms | %s | %s | %.2f ms | %s |\n", o.name, o.call, pyCell, ms, ratio, pyCPU, cpuMS, ratioCPU)
	}
	fmt.Println()
	fmt.Println(strings.Join(answers, "\n"))
}

// run executes q and renders its rows.
func run(ctx context.Context, db *b2sql.DB, q string) string {
	rows, err := db.Query(ctx, q)
	check(err)
	var sb strings.Builder
	for rows.Next() {
		fmt.Fprint(&sb, rows.Values())
	}
	check(rows.Err())
	return sb.String()
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "pyb2:", err)
		os.Exit(1)
	}
}
