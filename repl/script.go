package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/term"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/sql"
)

// Runner executes statements and meta-commands against a DB and prints
// their results. Its exported fields are the settings the meta-commands
// change; a Runner is used by one goroutine.
type Runner struct {
	DB    *b2sql.DB
	Label string // what the prompt calls the open database: "data/", "demo", "memory"
	// OpenOptions are passed to b2sql.Open by .open.
	OpenOptions []b2sql.Option
	Out         io.Writer // results (until .output FILE)
	Err         io.Writer // errors, timings, progress
	Output      Output
	// AutoWidth fits tables to Out's terminal width at each result
	// (until .maxwidth N).
	AutoWidth bool
	Timer     bool
	Bail      bool // stop a script at the first error
	// Progress shows a progress bar on Err for queries running over a
	// second; only meant when Err is a terminal.
	Progress bool

	history     *History
	outFile     *os.File // .output FILE
	explainNext bool     // .explain with no query: EXPLAIN the next statement
	quit        bool     // .quit seen
}

// out is where results go now.
func (r *Runner) out() io.Writer {
	if r.outFile != nil {
		return r.outFile
	}
	return r.Out
}

// Close closes a file opened by .output.
func (r *Runner) Close() error {
	if r.outFile == nil {
		return nil
	}
	err := r.outFile.Close()
	r.outFile = nil
	return err
}

// Quit reports whether .quit or .exit was run.
func (r *Runner) Quit() bool { return r.quit }

// RunScript runs every statement and meta-command of script in order.
// Statements before a failing one keep their output; after an error the
// rest still runs unless Bail is set. It stops when ctx is cancelled or at
// .quit, and returns the number of failures.
func (r *Runner) RunScript(ctx context.Context, script string) int {
	sqlText, metas := splitMeta(script)
	failed := 0
	fail := func(src string, err error) bool {
		failed++
		r.printError(src, err)
		return r.Bail || ctx.Err() != nil
	}
	stmts := b2sql.SplitScript(sqlText)
	for _, m := range metas {
		for len(stmts) > 0 && stmts[0].Line < m.line {
			if err := r.runStatement(ctx, sqlText, stmts[0]); err != nil && fail(sqlText, err) {
				return failed
			}
			stmts = stmts[1:]
		}
		if err := r.Meta(ctx, m.text); err != nil && fail(m.text, err) {
			return failed
		}
		if r.quit {
			return failed
		}
	}
	for _, st := range stmts {
		if err := r.runStatement(ctx, sqlText, st); err != nil && fail(sqlText, err) {
			return failed
		}
	}
	return failed
}

type metaLine struct {
	line int // 1-based line in the script
	text string
}

// splitMeta separates meta-commands (a line starting with '.' where no
// statement is open) from SQL. Their lines are blanked in the SQL text
// rather than removed, so SQL error positions still match the script.
func splitMeta(script string) (string, []metaLine) {
	if !strings.Contains(script, ".") {
		return script, nil
	}
	lines := strings.SplitAfter(script, "\n")
	var metas []metaLine
	var b strings.Builder
	open := 0       // offset in b where the current unfinished statement starts
	inside := false // the open statement ends inside a quote or block comment
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, ".") && blank(b.String()[open:]) {
			metas = append(metas, metaLine{line: i + 1, text: t})
			if strings.HasSuffix(l, "\n") {
				b.WriteByte('\n')
			}
			open, inside = b.Len(), false
			continue
		}
		b.WriteString(l)
		// Outside quotes and comments, a line without ';' cannot end the
		// statement: skipping the scan keeps a statement of many lines
		// linear (scanning its growing text at every line was quadratic:
		// a 20,000-line INSERT took minutes).
		if !inside && !strings.Contains(l, ";") {
			continue
		}
		var complete bool
		if complete, inside = scanEnd(b.String()[open:]); complete {
			open = b.Len()
		}
	}
	return b.String(), metas
}

// runStatement runs one statement of script and prints its result.
func (r *Runner) runStatement(ctx context.Context, script string, st b2sql.Statement) error {
	if r.explainNext {
		r.explainNext = false
		if !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(st.Text)), "EXPLAIN") {
			return r.runQuery(ctx, "EXPLAIN "+st.Text, func(ctx context.Context) (*b2sql.Rows, error) {
				return r.DB.Query(ctx, "EXPLAIN "+st.Text)
			})
		}
	}
	return r.runQuery(ctx, script, func(ctx context.Context) (*b2sql.Rows, error) {
		return r.DB.QueryStatement(ctx, script, st)
	})
}

// runQuery starts a query with open and renders its result, with a
// progress bar while it runs and a timing line after it.
func (r *Runner) runQuery(ctx context.Context, src string, open func(context.Context) (*b2sql.Rows, error)) error {
	start := time.Now()
	var meter *progressMeter
	if r.Progress {
		meter = startProgress(r.Err, progressDelay)
		defer meter.stop()
	}
	rows, err := open(ctx)
	if err != nil {
		return err
	}
	defer rows.Close()
	o := r.Output
	if r.AutoWidth && r.outFile == nil {
		if w := terminalWidth(r.Out); w > 0 {
			o.MaxWidth = w
		}
	}
	if isPlan(rows) && (o.Format == FormatTable || o.Format == FormatLine) {
		o = Output{Format: formatPlain} // a plan tree reads best unboxed
	}
	w := r.out()
	var count *atomic.Int64
	if meter != nil {
		meter.setSource(rows)
		count = &meter.rows
		w = clearingWriter{w: w, m: meter}
	}
	n, err := o.render(w, rows, count)
	meter.stop()
	if err != nil {
		return err
	}
	if r.Timer {
		fmt.Fprintf(r.Err, "Run Time: %.3fs, %d %s\n", time.Since(start).Seconds(), n, plural(n, "row", "rows"))
	}
	return nil
}

// isPlan reports whether rows is an EXPLAIN result: one "plan" column.
func isPlan(rows *b2sql.Rows) bool {
	c := rows.Columns()
	return len(c) == 1 && c[0].Name == "plan"
}

// terminalWidth is w's width in cells if w is a terminal, else 0.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return cols
}

// printError prints the message and, for positioned SQL errors, the line
// of the script with carets under the token the error is about (one caret
// when only its start is known).
func (r *Runner) printError(script string, err error) {
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(r.Err, "Error: query cancelled")
		return
	}
	fmt.Fprintf(r.Err, "Error: %v\n", err)
	var se *sql.Error
	if errors.As(err, &se) {
		lines := strings.Split(script, "\n")
		if se.Pos.Line >= 1 && se.Pos.Line <= len(lines) {
			l := strings.TrimRight(lines[se.Pos.Line-1], "\r")
			width := 1
			if se.End.Line == se.Pos.Line && se.End.Col > se.Pos.Col {
				width = caretOffset(l, se.End.Col) - caretOffset(l, se.Pos.Col)
			}
			fmt.Fprintf(r.Err, "  %s\n  %s%s\n", l, strings.Repeat(" ", caretOffset(l, se.Pos.Col)), strings.Repeat("^", max(width, 1)))
		}
	}
}

// caretOffset returns the display offset of rune column col (1-based),
// keeping tabs as single cells.
func caretOffset(line string, col int) int {
	n := 0
	for range line {
		if n >= col-1 {
			break
		}
		n++
	}
	return n
}
