package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/bench/internal/proc"
)

// With -peak-rss, each query runs once more per engine in a child process
// of its own (this command with -child), so that its peak resident set is
// that query's on that engine alone: the engine opened on the same files
// with the same threads, the query run as the timed runs are (a warm-up
// and one drained run), nothing else. The child prints its peak
// (proc.PeakRSS) as its last line. Both children are this binary, which
// links both engines: the header reports the peak of a child that opens
// neither (-child none), the part of every figure that is neither's.

// childPeakRSS runs query name on engine in a child process and returns
// the child's peak RSS in bytes.
func childPeakRSS(ctx context.Context, o options, name, engine string) (int64, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, err
	}
	args := []string{"-child", engine, "-queries", name, "-suite", o.suite, "-dir", o.dir,
		"-threads", strconv.Itoa(o.threads), "-rows", strconv.FormatInt(o.rows, 10),
		"-sf", strconv.FormatFloat(o.sf, 'g', -1, 64), "-timeout", o.timeout.String()}
	if o.b2d != "" {
		args = append(args, "-b2d", o.b2d)
	}
	cmd := exec.CommandContext(ctx, self, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%v: %s", err, firstLine(strings.TrimSpace(stderr.String())))
	}
	rss, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(stdout.String()), "peak_rss "), 10, 64)
	if err != nil || rss == 0 {
		return 0, fmt.Errorf("this system does not report a process's peak RSS")
	}
	return rss, nil
}

// runChild is the child's side: open one engine on the suite's files (the
// parent made sure they exist) and run each selected query as measure
// does, a warm-up and one drained run.
func runChild(ctx context.Context, o options, qs []query) error {
	var tables map[string]string
	var err error
	switch o.suite {
	case "tpch":
		tables, err = ensureTPCH(filepath.Join(o.dir, fmt.Sprintf("tpch-sf%g", o.sf)), o.sf)
	case "nested":
		_, tables, err = nestedData(o.dir)
	default:
		tables = map[string]string{"events": filepath.Join(o.dir, "events.parquet")}
		if o.b2d != "" && o.child == "b2sql" {
			tables = map[string]string{"events": o.b2d}
		}
	}
	if err != nil {
		return err
	}
	var e engine
	switch o.child {
	case "none": // the baseline: this binary started, no engine opened
		fmt.Printf("peak_rss %d\n", proc.PeakRSS())
		return nil
	case "b2sql":
		b2, err := openB2SQL(ctx, "b2sql", tables, o.threads)
		if err != nil {
			return err
		}
		e = b2
	case "DuckDB":
		duck, err := openDuckDB(ctx, o.threads)
		if err != nil {
			return err
		}
		if err := duck.views(ctx, tables); err != nil {
			duck.Close()
			return err
		}
		e = duck
	default:
		return fmt.Errorf("unknown -child engine %q (b2sql, DuckDB, none)", o.child)
	}
	defer e.Close()
	o.runs, o.budget = 1, 1<<62
	for _, q := range qs {
		if m := measure(ctx, e, q, o); m.err != nil {
			return m.err
		}
	}
	fmt.Printf("peak_rss %d\n", proc.PeakRSS())
	return nil
}

// rssCell shows a peak RSS in MB, or "-" when there is none.
func rssCell(m measurement) string {
	if m.rssErr != nil || m.rss == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f MB", float64(m.rss)/1e6)
}
