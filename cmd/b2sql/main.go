// Command b2sql queries Parquet and blosc2 files with SQL.
//
//	b2sql                       interactive session over the demo dataset
//	b2sql data/                 register every table file in data/
//	b2sql -c "SELECT …" f.parquet
//	b2sql -f script.sql data/
//	cat script.sql | b2sql data/
//	b2sql gen --rows 10000000 --out data/
//	b2sql inspect file.b2nd
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/demo"
	"github.com/b2sql/b2sql/repl"
)

const version = "0.1.0"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "gen":
			return runGen(args[1:], stderr)
		case "inspect":
			return runInspect(args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("b2sql", flag.ContinueOnError)
	fs.SetOutput(stderr)
	command := fs.String("c", "", "run the SQL statements in `SQL` and exit")
	file := fs.String("f", "", "run the SQL script in `FILE` and exit")
	format := fs.String("format", "", "output format: table, csv, tsv, json, ndjson, markdown, line (default: table on a terminal, csv otherwise)")
	header := fs.Bool("header", true, "print column names")
	nullValue := fs.String("nullvalue", "", "text printed for NULL (default: empty in csv/tsv, NULL in tables)")
	output := fs.String("output", "", "write results to `FILE` instead of standard output")
	threads := fs.Int("threads", 0, "worker threads (default: all CPUs)")
	memLimit := fs.String("memory-limit", "", "memory a query may hold before it spills or fails, e.g. `4GB`, 50% or none (default: 80% of RAM or of the cgroup limit)")
	tempDir := fs.String("temp-directory", "", "`DIR` where queries spill to disk (default: the system's temp directory; '' disables spilling)")
	timer := fs.Bool("timer", false, "print each statement's run time and row count")
	bail := fs.Bool("bail", false, "stop at the first error (default: report each error and go on; exit status 1 if any failed)")
	history := fs.String("history", "", "interactive history `FILE` (default: $XDG_STATE_HOME/b2sql/history or the user config dir; - for none)")
	demoRows := fs.Int64("demo-rows", 1_000_000, "rows in the built-in demo dataset used when no PATH is given (0: none)")
	showVersion := fs.Bool("version", false, "print the version and exit")
	noRemote := fs.Bool("no-remote", false, "read no s3://, gs://, r2:// or http(s):// location")
	remoteHosts := fs.String("remote-hosts", "", "comma-separated `HOSTS` remote locations may name (*.example.com for subdomains); others are refused")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `b2sql %s — SQL over Parquet and blosc2 files

Usage:
  b2sql [flags] [PATH ...]        PATH: table files, globs or directories of them
  b2sql gen --rows N --out DIR    write the demo "events" table as Parquet
  b2sql gen --tpch SF --out DIR [--format parquet|b2d]
                                  write the eight TPC-H tables at scale factor SF
  b2sql inspect FILE              print a blosc2 file's layout

With no PATH, b2sql opens the built-in demo dataset (table "events").
On a terminal it starts an interactive session (type .help there);
with -c, -f or a script on standard input it runs the script and exits.

Examples:
  b2sql                                       explore the demo "events" table
  b2sql data/                                 every .parquet file in data/ as a table
  b2sql -c "SELECT category, count(*) FROM events GROUP BY 1 ORDER BY 2 DESC LIMIT 5"
  b2sql -c "SELECT * FROM 'data/x.parquet' LIMIT 10"
  b2sql -f report.sql --format markdown --output report.md data/
  cat script.sql | b2sql --format json --bail data/

Flags:
`, version)
		fs.PrintDefaults()
	}
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" || a == "--h" {
			fs.SetOutput(stdout) // asked for: help is the output, not an error
		}
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	fs.SetOutput(stderr)
	if *showVersion {
		fmt.Fprintln(stdout, "b2sql", version)
		return 0
	}
	var opts []b2sql.Option
	if *threads > 0 {
		opts = append(opts, b2sql.WithThreads(*threads))
	}
	if *noRemote {
		opts = append(opts, b2sql.WithoutRemote())
	}
	if *remoteHosts != "" {
		opts = append(opts, b2sql.WithRemoteHosts(strings.Split(*remoteHosts, ",")...))
	}
	db, err := b2sql.Open("", opts...)
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	if err := applySettings(db, fs, map[string]string{"memory-limit": *memLimit, "temp-directory": *tempDir}); err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 2
	}
	paths := fs.Args()
	label := "memory"
	if len(paths) == 0 && *demoRows > 0 {
		label = "demo"
		p, err := demo.EnsureCached(*demoRows)
		if err != nil {
			fmt.Fprintln(stderr, "Error: preparing the demo dataset:", err)
			return 1
		}
		if err := db.RegisterTable("events", p); err != nil {
			fmt.Fprintln(stderr, "Error:", err)
			return 1
		}
	}
	for _, p := range paths {
		if err := register(db, p); err != nil {
			fmt.Fprintln(stderr, "Error:", err)
			return 1
		}
	}
	if len(paths) > 0 {
		label = paths[0]
		if len(paths) > 1 {
			label += " …"
		}
	}
	interactive := *command == "" && *file == "" && isTerminal(stdin)
	out := repl.Output{Format: repl.FormatCSV, Header: *header, NullValue: *nullValue}
	r := &repl.Runner{DB: db, Label: label, OpenOptions: opts, Out: stdout, Err: stderr, Timer: *timer, Bail: *bail}
	defer func() { r.DB.Close() }()
	if isTerminal(stdout) && *output == "" {
		out.Format = repl.FormatTable
		out.MaxRows = 40
		r.AutoWidth = true
	}
	if *format != "" {
		f, err := repl.ParseFormat(*format)
		if err != nil {
			fmt.Fprintln(stderr, "Error:", err)
			return 2
		}
		out.Format = f
	}
	r.Output = out
	if *output != "" {
		f, err := os.Create(*output)
		if err != nil {
			fmt.Fprintln(stderr, "Error:", err)
			return 1
		}
		defer f.Close()
		r.Out = f
	}
	defer r.Close()
	if interactive {
		r.Progress = isTerminal(stderr)
		banner := fmt.Sprintf("b2sql %s — tables: %s\nEnd statements with ';'. .help for commands, Tab to complete, Ctrl-D to leave.", version, strings.Join(db.Tables(), ", "))
		err := r.Prompt(repl.PromptOptions{HistoryPath: *history, Banner: banner})
		if err == nil {
			return 0
		}
		if !errors.Is(err, repl.ErrNoTerminal) {
			fmt.Fprintln(stderr, "Error:", err)
			return 1
		}
		// A terminal on stdin but no controlling one: read it as a script.
	}
	// Ctrl-C cancels the running statement and stops the script.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var script string
	switch {
	case *command != "":
		script = *command
	case *file != "":
		b, err := os.ReadFile(*file)
		if err != nil {
			fmt.Fprintln(stderr, "Error:", err)
			return 1
		}
		script = string(b)
	default:
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintln(stderr, "Error:", err)
			return 1
		}
		script = string(b)
	}
	failed := r.RunScript(ctx, script)
	if ctx.Err() != nil {
		return 130
	}
	return exitCode(failed)
}

func exitCode(failed int) int {
	if failed > 0 {
		return 1
	}
	return 0
}

// register adds a file or glob; a directory is attached (every table
// file in it registered, and new tables written there).
func register(db *b2sql.DB, p string) error {
	st, err := os.Stat(p)
	if err == nil && st.IsDir() {
		return db.Attach(p)
	}
	return db.RegisterTable(tableName(p), p)
}

func tableName(p string) string {
	base := filepath.Base(p)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	base = strings.NewReplacer("*", "", "?", "", "-", "_", " ", "_").Replace(base)
	return base
}

func isTerminal(f any) bool {
	if x, ok := f.(*os.File); ok {
		return term.IsTerminal(int(x.Fd()))
	}
	return false
}

func runGen(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("b2sql gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rows := fs.Int64("rows", 1_000_000, "number of rows")
	out := fs.String("out", ".", "output directory (writes events.parquet)")
	sf := fs.Float64("tpch", 0, "write the eight TPC-H tables at this scale factor instead of events")
	format := fs.String("format", "parquet", "TPC-H output format: parquet or b2d")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *sf != 0 {
		return runGenTPCH(*out, *sf, *format, stderr)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	path := filepath.Join(*out, "events.parquet")
	if err := demo.Generate(path, *rows); err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	fmt.Fprintf(stderr, "wrote %d rows to %s\n", *rows, path)
	return 0
}
