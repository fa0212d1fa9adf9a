// Command compare runs a fixed query set against b2sql and DuckDB over the
// same demo Parquet file and prints, per query, both engines' median times,
// their ratio, the row count and whether the answers agree.
//
//	cd bench && go run ./cmd/compare -rows 10000000 -threads 2
//
// Each engine runs each query once as a warm-up (its result is the one
// compared) and then -runs times, timed; the median is reported. With
// -rules-off a second b2sql database runs with SET pruning = off, adding its
// time and the ratio rules-on/rules-off.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/b2sql/b2sql/bench/internal/proc"
)

type options struct {
	rows     int64
	dir      string
	threads  int
	runs     int
	queries  string
	format   string
	rulesOff bool
	timeout  time.Duration
	budget   time.Duration
	metric   string
	suite    string        // "events" or "tpch"
	sf       float64       // TPC-H scale factor
	b2d      string        // events as a CTable for b2sql ("" = the Parquet file)
	remote   bool          // b2sql local vs b2sql over S3 (remote.go)
	latency  time.Duration // added per S3 request in the second remote run
	trace    string        // with -remote: where to write every request of the latency run
	profile  string        // CPU profile of the whole run (DuckDB's time shows as cgo calls)
	peakRSS  bool          // also run each query in a child process per engine for its peak RSS (peakrss.go)
	child    string        // run as such a child: the engine ("b2sql" or "DuckDB")
}

func main() {
	var o options
	flag.Int64Var(&o.rows, "rows", 10_000_000, "rows of the generated events table")
	flag.StringVar(&o.dir, "dir", "", "data directory holding events.parquet (default bench/data)")
	flag.IntVar(&o.threads, "threads", 2, "threads for both engines")
	flag.IntVar(&o.runs, "runs", 5, "timed runs per query and engine, after one warm-up")
	flag.StringVar(&o.queries, "queries", "all", "queries to run: all, or a comma-separated list of names")
	flag.StringVar(&o.format, "format", "table", "output format: table or markdown")
	flag.BoolVar(&o.rulesOff, "rules-off", false, "also time b2sql with SET pruning = off")
	flag.DurationVar(&o.timeout, "timeout", 5*time.Minute, "limit for one run of one query")
	flag.DurationVar(&o.budget, "budget", time.Minute,
		"time budget for the timed runs of one query on one engine; fewer runs are made when the warm-up shows they would exceed it")
	flag.StringVar(&o.metric, "metric", "both",
		"times reported: wall (elapsed), cpu (user+system CPU time of the process, less disturbed by other load on the machine) or both")
	flag.StringVar(&o.suite, "suite", "events", "query suite: events (the demo table), tpch (the 22 TPC-H queries) or nested (issue 21's LIST<INT> queries over -dir's lists.parquet or list10m.parquet)")
	flag.Float64Var(&o.sf, "sf", 1, "TPC-H scale factor (with -suite tpch)")
	flag.StringVar(&o.b2d, "b2d", "",
		"with -suite events: b2sql reads events from this CTable (.b2d or .b2z; written from events.parquet when missing) while DuckDB reads the Parquet file; with -remote, both b2sql runs read it")
	flag.BoolVar(&o.remote, "remote", false, "compare b2sql over local files with b2sql over the same files on an in-process S3 server, instead of DuckDB")
	flag.DurationVar(&o.latency, "latency", 20*time.Millisecond, "with -remote: latency added to every S3 request in the second run")
	flag.StringVar(&o.trace, "trace", "", "with -remote: write every S3 request of the run with -latency to this file (query, start and duration in ms from the run's start, bytes, range, object path)")
	flag.BoolVar(&o.peakRSS, "peak-rss", false,
		"also run each query once more per engine, each in a process of its own (warm-up and one run), and report each engine's peak RSS for it")
	flag.StringVar(&o.child, "child", "", "internal: run the selected queries in this process on one engine only (b2sql or DuckDB; none: open neither), for -peak-rss")
	flag.StringVar(&o.profile, "cpuprofile", "",
		"write a CPU profile of the whole run to this file (DuckDB's own time shows as runtime.cgocall)")
	flag.Parse()
	if o.profile != "" {
		f, err := os.Create(o.profile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "compare:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(context.Background(), o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func run(ctx context.Context, o options, w io.Writer) error {
	if o.rows <= 0 || o.threads <= 0 || o.runs <= 0 {
		return errors.New("-rows, -threads and -runs must be positive")
	}
	if o.format != "table" && o.format != "markdown" {
		return fmt.Errorf("unknown -format %q (formats: table, markdown)", o.format)
	}
	if o.metric != "wall" && o.metric != "cpu" && o.metric != "both" {
		return fmt.Errorf("unknown -metric %q (metrics: wall, cpu, both)", o.metric)
	}
	if o.suite != "events" && o.suite != "tpch" && o.suite != "nested" {
		return fmt.Errorf("unknown -suite %q (suites: events, tpch, nested)", o.suite)
	}
	if o.suite == "tpch" && !(o.sf > 0) {
		return errors.New("-sf must be positive")
	}
	all := queries(o.rows)
	switch o.suite {
	case "tpch":
		all = tpchQueries()
	case "nested":
		all = nestedQueries() // nested.go
	}
	qs, err := selectQueries(all, o.queries)
	if err != nil {
		return err
	}
	if o.dir == "" {
		o.dir = defaultDataDir()
	}
	if o.child != "" {
		return runChild(ctx, o, qs) // peakrss.go
	}

	duck, err := openDuckDB(ctx, o.threads)
	if err != nil {
		return err
	}
	defer duck.Close()
	// tables maps each table name to its file; path is what the header shows.
	var tables map[string]string
	var path string
	if o.suite == "nested" {
		if path, tables, err = nestedData(o.dir); err != nil {
			return err
		}
	} else if o.suite == "tpch" {
		if path, err = filepath.Abs(filepath.Join(o.dir, fmt.Sprintf("tpch-sf%g", o.sf))); err != nil {
			return err
		}
		if tables, err = ensureTPCH(path, o.sf); err != nil {
			return err
		}
	} else {
		if path, err = filepath.Abs(filepath.Join(o.dir, "events.parquet")); err != nil {
			return err
		}
		if err := ensureData(ctx, duck, path, o.rows); err != nil {
			return err
		}
		tables = map[string]string{"events": path}
	}
	b2tables := tables
	if o.b2d != "" && o.suite == "events" {
		if err := ensureB2D(ctx, o.b2d, path, o.threads); err != nil {
			return err
		}
		b2tables = map[string]string{"events": o.b2d}
		path += " (b2sql: " + o.b2d + ")"
	}
	if o.remote {
		return runRemote(ctx, o, w, qs, b2tables) // remote.go
	}
	if err := duck.views(ctx, tables); err != nil {
		return err
	}

	engines := []engine{nil, duck, nil}
	on, err := openB2SQL(ctx, "b2sql", b2tables, o.threads)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare: b2sql:", err)
		engines[0] = brokenEngine{"b2sql", err}
	} else {
		defer on.Close()
		engines[0] = on
	}
	if o.rulesOff {
		off, err := openB2SQL(ctx, "b2sql rules off", b2tables, o.threads, "SET pruning = off")
		if err != nil {
			fmt.Fprintln(os.Stderr, "compare: b2sql rules off:", err)
			engines[2] = brokenEngine{"b2sql rules off", err}
		} else {
			defer off.Close()
			engines[2] = off
		}
	} else {
		engines = engines[:2]
	}

	var size int64
	for _, p := range tables {
		size += fileSize(p)
	}
	hdr := header{
		rows: o.rows, threads: o.threads, runs: o.runs, path: path, size: size,
		duck: duck.Version(ctx), duckGo: moduleVersion("github.com/duckdb/duckdb-go/v2"),
		rulesOff: o.rulesOff, metric: o.metric, loadStart: proc.LoadAvg(),
	}
	switch o.suite {
	case "tpch":
		hdr.data = fmt.Sprintf("TPC-H SF %g", o.sf)
	case "nested":
		hdr.data = "lists (id BIGINT, l INTEGER[])"
	}

	var outs []outcome
	for i, q := range qs {
		out := outcome{q: q, m: make([]measurement, len(engines))}
		for j, e := range engines {
			out.m[j] = measure(ctx, e, q, o)
			m := out.m[j]
			if m.err != nil {
				fmt.Fprintf(os.Stderr, "[%d/%d] %-20s %-16s error: %s\n", i+1, len(qs), q.Name, e.Name(), firstLine(m.err.Error()))
			} else {
				fmt.Fprintf(os.Stderr, "[%d/%d] %-20s %-16s wall %s cpu %s (%d runs)\n",
					i+1, len(qs), q.Name, e.Name(), fmtDur(m.wall), fmtDur(m.cpu), m.runs)
			}
		}
		if out.m[0].err == nil && out.m[1].err == nil {
			out.diff = diff(out.m[0].res, out.m[1].res, q.Ordered, "b2sql", "DuckDB")
		}
		if o.rulesOff && out.m[2].err == nil && out.m[1].err == nil {
			out.offDiff = diff(out.m[2].res, out.m[1].res, q.Ordered, "b2sql(off)", "DuckDB")
		}
		outs = append(outs, out)
	}
	if o.peakRSS {
		hdr.peakRSS = true
		if len(outs) > 0 {
			base := measurement{}
			base.rss, base.rssErr = childPeakRSS(ctx, o, outs[0].q.Name, "none")
			hdr.rssBase = rssCell(base)
		}
		for i := range outs {
			for j, name := range []string{"b2sql", "DuckDB"} {
				outs[i].m[j].rss, outs[i].m[j].rssErr = childPeakRSS(ctx, o, outs[i].q.Name, name) // peakrss.go
				fmt.Fprintf(os.Stderr, "[%d/%d] %-20s %-16s peak RSS %s\n", i+1, len(outs), outs[i].q.Name, name, rssCell(outs[i].m[j]))
			}
		}
	}
	hdr.loadEnd = proc.LoadAvg()
	report(w, o.format, hdr, outs)
	return nil
}

// measurement is one engine's outcome for one query.
type measurement struct {
	res  *result // from the warm-up run
	err  error
	wall time.Duration // median elapsed time
	cpu  time.Duration // median CPU time of the whole process
	runs int           // timed runs made (fewer than -runs when over -budget)
	rows int
	// rss is the peak resident set of a process that ran only this query
	// on only this engine (-peak-rss), in bytes; rssErr why there is none.
	rss    int64
	rssErr error
}

// time returns the median of the given metric ("wall" or "cpu").
func (m measurement) time(metric string) time.Duration {
	if metric == "cpu" {
		return m.cpu
	}
	return m.wall
}

type outcome struct {
	q       query
	m       []measurement // b2sql, DuckDB[, b2sql rules off]
	diff    string        // b2sql vs DuckDB; "" when they agree
	offDiff string        // b2sql rules off vs DuckDB
}

func measure(ctx context.Context, e engine, q query, o options) measurement {
	var m measurement
	runtime.GC()
	rctx, cancel := context.WithTimeout(ctx, o.timeout)
	start := time.Now()
	m.res, m.err = e.Run(rctx, q.SQL)
	warm := time.Since(start)
	timedOut := errors.Is(rctx.Err(), context.DeadlineExceeded)
	cancel()
	if m.err != nil {
		if timedOut {
			m.err = fmt.Errorf("timed out after %s: %w", o.timeout, m.err)
		}
		return m
	}
	m.rows = len(m.res.Rows)
	n := o.runs
	if warm > 0 && time.Duration(n)*warm > o.budget {
		n = max(1, int(o.budget/warm))
	}
	walls := make([]time.Duration, 0, n)
	cpus := make([]time.Duration, 0, n)
	for range n {
		runtime.GC()
		rctx, cancel := context.WithTimeout(ctx, o.timeout)
		c0 := proc.CPUTime()
		start := time.Now()
		_, err := e.Drain(rctx, q.SQL)
		d := time.Since(start)
		c := proc.CPUTime() - c0
		cancel()
		if err != nil {
			m.err = fmt.Errorf("timed run: %w", err)
			return m
		}
		walls = append(walls, d)
		cpus = append(cpus, c)
	}
	m.runs = n
	m.wall = median(walls)
	m.cpu = median(cpus)
	return m
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// brokenEngine stands in for an engine that failed to open, so that every
// query row reports the error and the other engine still runs.
type brokenEngine struct {
	name string
	err  error
}

func (b brokenEngine) Name() string                                 { return b.name }
func (b brokenEngine) Run(context.Context, string) (*result, error) { return nil, b.err }
func (b brokenEngine) Drain(context.Context, string) (int64, error) { return 0, b.err }
func (b brokenEngine) Close() error                                 { return nil }

// defaultDataDir is bench/data: ./data when run inside bench/, else
// bench/data under the working directory.
func defaultDataDir() string {
	if b, err := os.ReadFile("go.mod"); err == nil &&
		strings.Contains(string(b), "module github.com/b2sql/b2sql/bench\n") {
		return "data"
	}
	if dir, err := os.Getwd(); err == nil {
		for d := dir; ; d = filepath.Dir(d) {
			if b, err := os.ReadFile(filepath.Join(d, "bench", "go.mod")); err == nil &&
				strings.Contains(string(b), "module github.com/b2sql/b2sql/bench\n") {
				return filepath.Join(d, "bench", "data")
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return filepath.Join("bench", "data")
}

func moduleVersion(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == path {
				return d.Version
			}
		}
	}
	return "?"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
