package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/sql"
)

// Runner executes statements against a DB and prints their results.
type Runner struct {
	DB     *b2sql.DB
	Out    io.Writer
	Err    io.Writer
	Output Output
	Timer  bool
	Bail   bool // stop at the first error
}

// RunScript runs every statement of script. Statements before a failing one
// keep their output. It returns the number of failed statements.
func (r *Runner) RunScript(ctx context.Context, script string) int {
	failed := 0
	for _, st := range b2sql.SplitScript(script) {
		if err := r.runOne(ctx, script, st); err != nil {
			failed++
			r.printError(script, err)
			if r.Bail {
				return failed
			}
		}
	}
	return failed
}

func (r *Runner) runOne(ctx context.Context, script string, st b2sql.Statement) error {
	start := time.Now()
	rows, err := r.DB.QueryStatement(ctx, script, st)
	if err != nil {
		return err
	}
	defer rows.Close()
	n, err := r.Output.Render(r.Out, rows)
	if err != nil {
		return err
	}
	if r.Timer {
		fmt.Fprintf(r.Err, "Run Time: %.3fs, %d rows\n", time.Since(start).Seconds(), n)
	}
	return nil
}

// printError prints the message and, for positioned SQL errors, the line
// of the script with a caret under the position.
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
			fmt.Fprintf(r.Err, "  %s\n  %s^\n", l, strings.Repeat(" ", caretOffset(l, se.Pos.Col)))
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
