// Command convert measures b2sql's table conversions against DuckDB writing
// the same rows to Parquet: wall time, CPU time and peak RSS of each step,
// each step in its own child process so that its peak RSS is its own. b2sql
// steps run the b2sql command (built from ../cmd/b2sql at start), so that
// their RSS does not include the DuckDB library linked into this binary.
//
//	cd bench && go run ./cmd/convert -rows 20000000 -threads 2
//
// Steps: b2sql Parquet → .b2d (CTable), b2sql .b2d → Parquet, b2sql
// Parquet → Parquet, DuckDB Parquet → Parquet. The source is the demo
// events table (generated on first use, as cmd/compare does).
package main

import (
	"context"
	dsql "database/sql"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/bench/internal/proc"
	"github.com/b2sql/b2sql/demo"
	_ "github.com/duckdb/duckdb-go/v2"
)

type step struct {
	name   string
	engine string // "b2sql" or "duckdb"
	from   string // file names inside -dir
	to     string
}

var steps = []step{
	{"parquet → b2d", "b2sql", "events.parquet", "events_conv.b2d"},
	{"b2d → parquet", "b2sql", "events_conv.b2d", "events_b2sql.parquet"},
	{"parquet → parquet", "b2sql", "events.parquet", "events_b2sql2.parquet"},
	{"parquet → parquet", "duckdb", "events.parquet", "events_duck.parquet"},
}

func main() {
	rows := flag.Int64("rows", 20_000_000, "rows of the events table")
	dir := flag.String("dir", "data", "where events.parquet lives and outputs go")
	threads := flag.Int("threads", 2, "threads for both engines")
	child := flag.Int("step", -1, "internal: run one step in this process")
	flag.Parse()
	if *child >= 0 {
		if err := runStep(steps[*child], *dir, *threads); err != nil {
			fmt.Fprintln(os.Stderr, "convert:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*rows, *dir, *threads); err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		os.Exit(1)
	}
}

func run(rows int64, dir string, threads int) error {
	src := filepath.Join(dir, "events.parquet")
	if err := ensureEvents(src, rows); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "b2sql-convert")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cli := filepath.Join(tmp, "b2sql")
	// Built in the main module (run from bench/, as the README says): the
	// bench module's go.sum does not cover the CLI's own dependencies.
	build := exec.Command("go", "build", "-o", cli, "./cmd/b2sql")
	build.Dir = ".."
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the b2sql command: %w", err)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "step\tengine\twall\tCPU\tpeak RSS\toutput\t\n")
	for i, s := range steps {
		os.RemoveAll(filepath.Join(dir, s.to))
		cmd := exec.Command(self, "-step", strconv.Itoa(i), "-dir", dir, "-threads", strconv.Itoa(threads))
		if s.engine == "b2sql" {
			cmd = exec.Command(cli, "-threads", strconv.Itoa(threads), "-c", copySQL(s, dir))
		}
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s (%s): %w", s.name, s.engine, err)
		}
		wall := time.Since(start)
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		fmt.Fprintf(tw, "%s\t%s\t%.2fs\t%.2fs\t%d MB\t%d MB\t\n", s.name, s.engine,
			wall.Seconds(), cpu.Seconds(), ru.Maxrss/1024, size(filepath.Join(dir, s.to))>>20)
	}
	fmt.Fprintf(tw, "(%d rows, %d threads; load average at the end: %s)\t\t\t\t\t\t\n", rows, threads, proc.LoadAvg())
	return tw.Flush()
}

func runStep(s step, dir string, threads int) error {
	ctx := context.Background()
	if s.engine == "duckdb" {
		db, err := dsql.Open("duckdb", "")
		if err != nil {
			return err
		}
		defer db.Close()
		if _, err := db.ExecContext(ctx, fmt.Sprintf("SET threads = %d", threads)); err != nil {
			return err
		}
		_, err = db.ExecContext(ctx, copySQL(s, dir)+" (FORMAT parquet)")
		return err
	}
	return fmt.Errorf("step %q runs the b2sql command, not this one", s.name)
}

// copySQL is the step's statement, the same text for both engines.
func copySQL(s step, dir string) string {
	return fmt.Sprintf("COPY (SELECT * FROM '%s') TO '%s'", filepath.Join(dir, s.from), filepath.Join(dir, s.to))
}

// ensureEvents generates the demo events table at path unless a file with
// rows rows is there.
func ensureEvents(path string, rows int64) error {
	db, err := b2sql.Open("")
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := os.Stat(path); err == nil {
		r, err := db.Query(context.Background(), fmt.Sprintf("SELECT count(*) FROM '%s'", path))
		if err == nil {
			var have int64
			ok := r.Next()
			if ok {
				err = r.Scan(&have)
			}
			r.Close()
			if ok && err == nil && have == rows {
				return nil
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "convert: generating %d rows into %s\n", rows, path)
	return demo.Generate(path, rows)
}

func size(path string) int64 {
	var n int64
	filepath.Walk(path, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}
