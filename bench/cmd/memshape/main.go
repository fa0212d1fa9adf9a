// Command memshape runs the memory-bound query shapes of issue #17 in
// b2sql and in DuckDB, each in a process of its own under /usr/bin/time -v,
// and prints per shape and engine the wall time, CPU time, peak RSS and the
// answer (which must agree). Both engines read the same Parquet file as
// "events", with the same thread count and memory_limit.
//
//	cd bench && go run ./cmd/memshape -data /work/data/events10m/events.parquet
//	cd bench && go run ./cmd/memshape -limit 1GB -shapes count_distinct_title,top_titles
//
// The ORDER BY shapes write their rows to a Parquet file (COPY … TO) in a
// temp directory, as the issue asks, so that no terminal output is timed;
// their answer is the file's row count and first row, read back by DuckDB.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"text/tabwriter"
)

// shape is one query; {out} in SQL is replaced by a Parquet file path.
type shape struct {
	name, sql string
	copies    bool // writes {out}; its answer is read back from the file
}

var shapes = []shape{
	{"group_title", "SELECT count(*), sum(n), max(n) FROM (SELECT title, count(*) AS n FROM events GROUP BY title)", false},
	{"order_title_id", "COPY (SELECT * FROM events ORDER BY title, id) TO '{out}' (FORMAT parquet)", true},
	{"count_distinct_title", "SELECT count(*), count(DISTINCT title) FROM events", false},
	{"top_titles", "SELECT title, count(*) FROM events GROUP BY title ORDER BY 2 DESC, 1 LIMIT 10", false},
	{"order_title", "COPY (SELECT * FROM events ORDER BY title) TO '{out}' (FORMAT parquet)", true},
	{"self_join", "SELECT count(*) FROM events a JOIN events b ON a.user_id = b.user_id AND a.id < b.id", false},
}

func main() {
	data := flag.String("data", "/work/data/events10m/events.parquet", "the events Parquet file")
	threads := flag.Int("threads", 2, "threads for both engines")
	limit := flag.String("limit", "", "memory_limit for both engines ('' : each engine's default)")
	names := flag.String("shapes", "group_title,order_title_id", "comma list of shapes, or all")
	engines := flag.String("engines", "b2sql,duckdb", "engines to run")
	flag.Parse()
	tmp, err := os.MkdirTemp("", "memshape")
	check(err)
	defer os.RemoveAll(tmp)
	b2, duck := filepath.Join(tmp, "b2sql"), filepath.Join(tmp, "duck")
	// b2sql is built in its own module (the parent directory), DuckDB's
	// command in this one.
	build := func(dir, out, pkg string) {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Dir, cmd.Stderr = dir, os.Stderr
		check(cmd.Run())
	}
	build("..", b2, "./cmd/b2sql")
	build(".", duck, "./cmd/duck")
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("data %s, threads %d, memory_limit %q, load %s\n", *data, *threads, *limit, strings.Join(strings.Fields(string(load))[:3], " "))
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "shape\tengine\twall s\tcpu s\tpeak RSS MB\tanswer")
	for _, s := range shapes {
		if *names != "all" && !strings.Contains(","+*names+",", ","+s.name+",") {
			continue
		}
		for _, e := range strings.Split(*engines, ",") {
			out := filepath.Join(tmp, s.name+"-"+e+".parquet")
			q := strings.ReplaceAll(s.sql, "{out}", out)
			var script string
			var cmd *exec.Cmd
			switch e {
			case "b2sql":
				script = fmt.Sprintf("SET threads = %d;\n", *threads)
				if *limit != "" {
					script += fmt.Sprintf("SET memory_limit = '%s';\n", *limit)
				}
				script += fmt.Sprintf("SET temp_directory = '%s';\n%s;\n", tmp, q)
				cmd = exec.Command("/usr/bin/time", "-v", b2, "--bail", "-c", script, *data)
			case "duckdb":
				script = fmt.Sprintf("SET threads = %d;\n", *threads)
				if *limit != "" {
					script += fmt.Sprintf("SET memory_limit = '%s';\n", *limit)
				}
				script += fmt.Sprintf("SET temp_directory = '%s';\nCREATE VIEW events AS SELECT * FROM read_parquet('%s');\n%s;\n", tmp, *data, q)
				cmd = exec.Command("/usr/bin/time", "-v", duck, "-c", script)
			default:
				check(fmt.Errorf("unknown engine %q", e))
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			runErr := cmd.Run()
			wall, cpu, rss := timeFigures(stderr.String())
			answer := lastLine(stdout.String())
			if runErr != nil {
				answer = "FAILED: " + lastLine(stdout.String()+stderr.String())
			} else if s.copies {
				answer = readBack(duck, out)
			}
			fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%.0f\t%s\n", s.name, e, wall, cpu, rss, answer)
			fmt.Fprintf(os.Stderr, "%s %s: %.1f s, %.0f MB\n", s.name, e, wall, rss)
			os.Remove(out)
		}
	}
	tw.Flush()
}

var (
	reWall = regexp.MustCompile(`Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)`)
	reUser = regexp.MustCompile(`User time \(seconds\): (\S+)`)
	reSys  = regexp.MustCompile(`System time \(seconds\): (\S+)`)
	reRSS  = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)
)

// timeFigures reads /usr/bin/time -v's report: wall and CPU seconds, peak
// RSS in MB.
func timeFigures(s string) (wall, cpu, rss float64) {
	if m := reWall.FindStringSubmatch(s); m != nil {
		for _, part := range strings.Split(m[1], ":") {
			var f float64
			fmt.Sscan(part, &f)
			wall = wall*60 + f
		}
	}
	var u, sy float64
	if m := reUser.FindStringSubmatch(s); m != nil {
		fmt.Sscan(m[1], &u)
	}
	if m := reSys.FindStringSubmatch(s); m != nil {
		fmt.Sscan(m[1], &sy)
	}
	if m := reRSS.FindStringSubmatch(s); m != nil {
		fmt.Sscan(m[1], &rss)
		rss /= 1000
	}
	return wall, u + sy, rss
}

// readBack returns the row count and first row of a written Parquet file.
func readBack(duck, path string) string {
	out, err := exec.Command(duck, "-c", fmt.Sprintf("SELECT (SELECT count(*) FROM read_parquet('%[1]s')), * FROM (SELECT title, id FROM read_parquet('%[1]s') LIMIT 1)", path)).CombinedOutput()
	if err != nil {
		return "read back failed: " + lastLine(string(out))
	}
	return lastLine(string(out))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.ReplaceAll(strings.ReplaceAll(lines[len(lines)-1], "\t", " "), ",", " ")
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "memshape:", err)
		os.Exit(1)
	}
}
