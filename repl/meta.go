package repl

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql"
)

// metaCommand is one dot-command: its name, argument synopsis, one-line
// help and what it does with the rest of the line.
type metaCommand struct {
	name, args, help string
	run              func(r *Runner, ctx context.Context, arg string) error
}

// metaCommands is filled in init because .help lists it.
var metaCommands []metaCommand

func init() {
	metaCommands = []metaCommand{
		{".help", "", "show this help", (*Runner).metaHelp},
		{".tables", "", "list the tables", (*Runner).metaTables},
		{".schema", "[TABLE]", "show CREATE TABLE statements", (*Runner).metaSchema},
		{".describe", "TABLE", "show a table's columns and types", (*Runner).metaDescribe},
		{".open", "[DIR|FILE]", "re-open the database on a directory or file (none: in memory)", (*Runner).metaOpen},
		{".read", "FILE", "run the statements in FILE", (*Runner).metaRead},
		{".mode", "MODE", "output mode: table, csv, tsv, json, ndjson, markdown, line", (*Runner).metaMode},
		{".output", "[FILE]", "send results to FILE (none: back to standard output)", (*Runner).metaOutput},
		{".timer", "on|off", "print run time and row count after each result", onOff(func(r *Runner, on bool) { r.Timer = on })},
		{".maxrows", "N", "rows shown in table mode before \"… N more rows\" (0: all)", (*Runner).metaMaxRows},
		{".maxwidth", "N|auto", "width tables fit in (0: unlimited, auto: the terminal's)", (*Runner).metaMaxWidth},
		{".nullvalue", "STR", "text shown for NULL", (*Runner).metaNullValue},
		{".headers", "on|off", "print column names", onOff(func(r *Runner, on bool) { r.Output.Header = on })},
		{".explain", "[QUERY]", "show the plan of QUERY, or of the next statement", (*Runner).metaExplain},
		{".progress", "on|off", "progress bar for queries running over a second", onOff(func(r *Runner, on bool) { r.Progress = on })},
		{".history", "[TEXT]", "list history entries (containing TEXT); Ctrl-R searches too", (*Runner).metaHistory},
		{".quit", "", "leave b2sql", (*Runner).metaQuit},
		{".exit", "", "leave b2sql", (*Runner).metaQuit},
	}
}

// Meta runs one meta-command line such as ".mode csv".
func (r *Runner) Meta(ctx context.Context, line string) error {
	line = strings.TrimSpace(line)
	name, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	for _, c := range metaCommands {
		if c.name == strings.ToLower(name) {
			return c.run(r, ctx, arg)
		}
	}
	return fmt.Errorf("unknown command %q (.help lists them)", name)
}

func (r *Runner) metaHelp(context.Context, string) error {
	w := r.Err
	for _, c := range metaCommands {
		fmt.Fprintf(w, "  %-22s %s\n", strings.TrimSpace(c.name+" "+c.args), c.help)
	}
	fmt.Fprint(w, `
  End SQL statements with ';' (Enter continues an open statement). Tab or
  Down completes keywords, tables, columns, functions and quoted file paths.
  Up/Down walk the history; type part of an old statement and press Ctrl-R
  (again for older matches). Ctrl-C cancels a running query or the current
  input; Ctrl-D leaves.
`)
	return nil
}

func onOff(set func(*Runner, bool)) func(*Runner, context.Context, string) error {
	return func(r *Runner, _ context.Context, arg string) error {
		switch strings.ToLower(arg) {
		case "on", "true", "1", "yes":
			set(r, true)
		case "off", "false", "0", "no":
			set(r, false)
		default:
			return fmt.Errorf("expected on or off, got %q", arg)
		}
		return nil
	}
}

func (r *Runner) metaTables(context.Context, string) error {
	for _, t := range r.DB.Tables() {
		fmt.Fprintln(r.out(), t)
	}
	return nil
}

// columns returns a table's columns through DESCRIBE.
func (r *Runner) columns(ctx context.Context, table string) ([][2]string, error) {
	rows, err := r.DB.Query(ctx, "DESCRIBE "+quoteIdent(table))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		v := rows.Values()
		out = append(out, [2]string{v[0].String(), v[1].String()})
	}
	return out, rows.Err()
}

// quoteIdent quotes a name for SQL when it is not a plain identifier.
func quoteIdent(s string) string {
	plain := s != ""
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			plain = false
		}
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func (r *Runner) metaSchema(ctx context.Context, arg string) error {
	tables := r.DB.Tables()
	if arg != "" {
		tables = []string{arg}
	}
	for _, t := range tables {
		cols, err := r.columns(ctx, t)
		if err != nil {
			return err
		}
		parts := make([]string, len(cols))
		for i, c := range cols {
			parts[i] = quoteIdent(c[0]) + " " + c[1]
		}
		fmt.Fprintf(r.out(), "CREATE TABLE %s(%s);\n", quoteIdent(t), strings.Join(parts, ", "))
	}
	return nil
}

func (r *Runner) metaDescribe(ctx context.Context, arg string) error {
	if arg == "" {
		return fmt.Errorf(".describe needs a table name")
	}
	q := "DESCRIBE " + quoteIdent(arg)
	return r.runQuery(ctx, q, func(ctx context.Context) (*b2sql.Rows, error) { return r.DB.Query(ctx, q) })
}

func (r *Runner) metaOpen(_ context.Context, arg string) error {
	path := unquote(arg)
	db, err := b2sql.Open(path, r.OpenOptions...)
	if err != nil {
		return err
	}
	if r.DB != nil {
		r.DB.Close()
	}
	r.DB = db
	r.Label = path
	if path == "" {
		r.Label = "memory"
	}
	fmt.Fprintf(r.Err, "tables: %s\n", strings.Join(db.Tables(), ", "))
	return nil
}

func (r *Runner) metaRead(ctx context.Context, arg string) error {
	b, err := os.ReadFile(unquote(arg))
	if err != nil {
		return err
	}
	if n := r.RunScript(ctx, string(b)); n > 0 {
		return fmt.Errorf("%s: %d %s failed", arg, n, plural(int64(n), "statement", "statements"))
	}
	return nil
}

func (r *Runner) metaMode(_ context.Context, arg string) error {
	if arg == "" {
		fmt.Fprintln(r.Err, r.Output.Format)
		return nil
	}
	f, err := ParseFormat(arg)
	if err != nil {
		return err
	}
	r.Output.Format = f
	return nil
}

func (r *Runner) metaOutput(_ context.Context, arg string) error {
	if err := r.Close(); err != nil {
		return err
	}
	if path := unquote(arg); path != "" && path != "stdout" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		r.outFile = f
	}
	return nil
}

func (r *Runner) metaMaxRows(_ context.Context, arg string) error {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 {
		return fmt.Errorf(".maxrows: expected a count, got %q", arg)
	}
	r.Output.MaxRows = n
	return nil
}

func (r *Runner) metaMaxWidth(_ context.Context, arg string) error {
	if strings.EqualFold(arg, "auto") {
		r.AutoWidth, r.Output.MaxWidth = true, 0
		return nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 {
		return fmt.Errorf(".maxwidth: expected a width or auto, got %q", arg)
	}
	r.AutoWidth, r.Output.MaxWidth = false, n
	return nil
}

func (r *Runner) metaNullValue(_ context.Context, arg string) error {
	r.Output.NullValue = unquote(arg)
	return nil
}

func (r *Runner) metaExplain(ctx context.Context, arg string) error {
	if arg == "" {
		r.explainNext = true
		return nil
	}
	q := "EXPLAIN " + strings.TrimSuffix(strings.TrimSpace(arg), ";")
	return r.runQuery(ctx, q, func(ctx context.Context) (*b2sql.Rows, error) { return r.DB.Query(ctx, q) })
}

func (r *Runner) metaHistory(_ context.Context, arg string) error {
	if r.history == nil {
		return nil
	}
	q := strings.ToLower(arg)
	for i, e := range r.history.Entries() {
		if strings.Contains(strings.ToLower(e), q) {
			fmt.Fprintf(r.out(), "%5d  %s\n", i+1, e)
		}
	}
	return nil
}

func (r *Runner) metaQuit(context.Context, string) error {
	r.quit = true
	return nil
}

// unquote strips one pair of matching quotes, so '.output "my file.csv"'
// and ".nullvalue ”" work.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
