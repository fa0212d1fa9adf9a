package tests

// Running one of DuckDB's test files and judging each record (see
// duckdb_test.go).

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/parser"
)

// duckFile is the state of one file's run.
type duckFile struct {
	t        *testing.T
	root     string // the duckdb-tests directory
	rel      string // the file's path under test/
	tmp      string
	db       *b2sql.DB
	dead     string // non-empty once a record hung: the rest is skipped
	blame    string // the first failed statement, which later wrong answers are blamed on
	skipAll  string // require: the rest of the file is skipped, with this reason
	modeSkip bool
	halted   bool
	labels   map[string]string // query label → "N values hashing to H"
	start    time.Time
	out      []duckResult
	verbose  bool
}

func runDuckFile(t *testing.T, root, path, rel string) []duckResult {
	f := &duckFile{t: t, root: root, rel: rel, tmp: t.TempDir(), labels: map[string]string{}, start: time.Now(),
		verbose: os.Getenv("B2SQL_DUCKDB_RUN") != ""}
	recs, err := parseDuckFile(path)
	if err != nil {
		// A file this runner cannot read counts as one error record.
		t.Logf("cannot read: %v", err)
		return []duckResult{{key: rel + ":0", outcome: duckError, detail: err.Error()}}
	}
	f.open()
	defer func() {
		if f.db != nil && f.dead == "" {
			f.db.Close()
		}
	}()
	f.run(recs, nil)
	return f.out
}

func (f *duckFile) open() {
	if f.db != nil && f.dead == "" {
		f.db.Close()
	}
	db, err := b2sql.Open("", b2sql.WithThreads(2), b2sql.WithMemoryLimit(1<<30), b2sql.WithWarnings(func(string) {}))
	if err != nil {
		f.dead = "Open failed: " + err.Error()
		return
	}
	f.db = db
}

// run executes recs with the loop variables of vars substituted.
func (f *duckFile) run(recs []*duckRec, vars map[string]string) {
	for _, r := range recs {
		if f.halted {
			return
		}
		if r.kind == duckLoop {
			for _, v := range r.loopVals {
				inner := map[string]string{}
				for k, x := range vars {
					inner[k] = x
				}
				inner[r.loopVar] = v
				f.run(r.body, inner)
			}
			continue
		}
		f.record(r, vars)
	}
}

func (f *duckFile) add(r *duckRec, o duckOutcome, detail string) {
	key := fmt.Sprintf("%s:%d", f.rel, r.line)
	f.out = append(f.out, duckResult{key: key, outcome: o, detail: detail})
	if f.verbose && o != duckPass && o != duckSkipped {
		f.t.Logf("%s %s: %s", key, duckOutcomeNames[o], detail)
	}
}

func (f *duckFile) subst(s string, vars map[string]string) string {
	for k, v := range vars {
		s = strings.ReplaceAll(s, "${"+k+"}", v)
		s = strings.ReplaceAll(s, "{"+k+"}", v)
	}
	s = strings.ReplaceAll(s, "__TEST_DIR__", f.tmp)
	s = strings.ReplaceAll(s, "{TEST_DIR}", f.tmp)
	// DuckDB runs its tests from its repository root, where data/ lives.
	data := filepath.ToSlash(filepath.Join(f.root, "data")) + "/"
	s = strings.ReplaceAll(s, "'data/", "'"+data)
	s = strings.ReplaceAll(s, "\"data/", "\""+data)
	return s
}

func (f *duckFile) record(r *duckRec, vars map[string]string) {
	runnable := r.kind == duckStatement || r.kind == duckQuery
	switch {
	case f.skipAll != "":
		if runnable {
			f.add(r, duckSkipped, f.skipAll)
		}
		return
	case r.kind == duckModeSkip:
		f.modeSkip = true
		return
	case r.kind == duckModeUnskip:
		f.modeSkip = false
		return
	case f.modeSkip:
		if runnable {
			f.add(r, duckSkipped, "mode skip")
		}
		return
	case r.skip != "":
		if runnable {
			f.add(r, duckSkipped, r.skip)
		}
		return
	}
	switch r.kind {
	case duckRequire:
		if !duckSupported[strings.Fields(r.arg + " x")[0]] {
			f.skipAll = "require " + r.arg
		}
		return
	case duckHalt:
		f.halted = true
		return
	case duckLoad:
		// A database file of DuckDB's own format: a fresh in-memory
		// database stands in for it (restart keeps it, as a file would).
		f.open()
		f.dead = ""
		return
	case duckRestart:
		return // the in-memory database lives on, as DuckDB's persisted file does
	case duckUnsupported:
		if strings.HasPrefix(r.arg, "set seed") {
			// The runner's "set seed" pins random(); b2sql has no seed, so
			// the results that depend on it cannot match.
			f.skipAll = "runner command: " + r.arg
		}
		return
	}
	if f.dead != "" {
		f.add(r, duckSkipped, f.dead)
		return
	}
	if time.Since(f.start) > duckFileBudget {
		f.add(r, duckSkipped, fmt.Sprintf("file ran past its %v budget", duckFileBudget))
		return
	}
	sqlText := f.subst(r.sql, vars)
	if first := strings.Fields(sqlText); len(first) > 0 && strings.EqualFold(first[0], "EXPLAIN") {
		f.add(r, duckSkipped, "EXPLAIN: the plan text is DuckDB's own")
		return
	}
	res := f.exec(sqlText)
	if res.hung {
		f.dead = "an earlier record hung"
		f.add(r, duckError, res.err.Error())
		return
	}
	if r.kind == duckStatement {
		f.judgeStatement(r, sqlText, res)
		return
	}
	f.judgeQuery(r, vars, sqlText, res)
}

// wrong classifies a wrong answer: blamed on an earlier failed statement
// when there is one.
func (f *duckFile) wrong(r *duckRec, detail string) {
	if f.blame != "" {
		f.add(r, duckBlamed, detail+"\n(after the failed statement at "+f.blame+")")
		return
	}
	f.add(r, duckWrong, detail)
}

func (f *duckFile) judgeStatement(r *duckRec, sqlText string, res duckExec) {
	key := fmt.Sprintf("line %d", r.line)
	switch r.expect {
	case "maybe":
		f.add(r, duckPass, "")
	case "error":
		if res.err != nil {
			f.add(r, duckPass, "")
			return
		}
		f.wrong(r, "statement succeeded, DuckDB reports an error:\n"+sqlText)
		if f.blame == "" {
			f.blame = key // it may have changed data DuckDB left alone
		}
	default:
		if res.err == nil {
			f.add(r, duckPass, "")
			return
		}
		f.add(r, duckError, res.err.Error()+"\n"+sqlText)
		if f.blame == "" {
			f.blame = key
		}
	}
}

func (f *duckFile) judgeQuery(r *duckRec, vars map[string]string, sqlText string, res duckExec) {
	if res.err != nil {
		f.add(r, duckError, res.err.Error()+"\n"+sqlText)
		if f.blame == "" && mayWrite(sqlText) {
			// A query record may be a write (EXECUTE of a prepared
			// INSERT): failed, it left data DuckDB changed.
			f.blame = fmt.Sprintf("line %d", r.line)
		}
		return
	}
	ncols := len(res.types)
	// A labelled record without rows carries no answer of its own: only
	// its label's hash, which the other records of the label must give
	// (test_interval_between.test declares I for a query of 2 columns).
	if ncols != len(r.types) && r.hasSep && !(r.label != "" && len(r.rows) == 0) {
		f.wrong(r, fmt.Sprintf("%d columns, DuckDB %d\n%s", ncols, len(r.types), sqlText))
		return
	}
	got := res.rows
	if r.sort == "nosort" && r.label == "" && !(len(r.rows) == 1 && strings.Contains(r.rows[0], " values hashing to ")) &&
		!duckOrdered(sqlText) {
		// Without ORDER BY the row order is DuckDB's implementation, not
		// SQL's answer: compare the rows as a multiset.
		r = &duckRec{line: r.line, types: r.types, sort: "rowsort", label: r.label, rows: r.rows, hasSep: r.hasSep}
	}
	switch r.sort {
	case "rowsort", "sort":
		sortDuckRows(got)
	case "valuesort":
		var vals []string
		for _, row := range got {
			vals = append(vals, row...)
		}
		slices.Sort(vals)
		got = nil
		for k := 0; k+ncols <= len(vals); k += ncols {
			got = append(got, vals[k:k+ncols])
		}
	}
	want := make([]string, len(r.rows))
	for k, l := range r.rows {
		want[k] = f.subst(l, vars)
	}
	hashed := len(want) == 1 && strings.Contains(want[0], " values hashing to ")
	if hashed || (r.label != "" && (len(want) == 0 || f.labels[r.label] != "")) {
		h := duckHash(got)
		if r.label != "" {
			if prev, ok := f.labels[r.label]; ok {
				if prev != h {
					f.wrong(r, fmt.Sprintf("result %s differs from label %s's %s\n%s", h, r.label, prev, sqlText))
					return
				}
			} else {
				f.labels[r.label] = h
			}
		}
		if hashed && h != strings.TrimSpace(want[0]) {
			f.wrong(r, fmt.Sprintf("got %s, DuckDB %s\n%s\n%s", h, want[0], sqlText, renderDuck(got)))
			return
		}
		f.add(r, duckPass, "")
		return
	}
	if !r.hasSep && len(got) > 0 {
		// A query with no result block expects no rows.
		f.wrong(r, fmt.Sprintf("%d rows, DuckDB none\n%s", len(got), sqlText))
		return
	}
	// Rows with tab-separated cells, or one value per line.
	var wantRows [][]string
	if ncols > 1 && len(want) == len(got) {
		for _, l := range want {
			// DuckDB's runner splits with StringUtil::Split, which drops
			// empty parts: "Bob\t\t6.5" is two cells (test_weighted_avg.test).
			wantRows = append(wantRows, slices.DeleteFunc(strings.Split(l, "\t"), func(c string) bool { return c == "" }))
		}
	} else {
		if len(want) != len(got)*ncols {
			f.wrong(r, fmt.Sprintf("%d values, DuckDB %d\n%s\ngot:\n%s\nwant:\n%s", len(got)*ncols, len(want), sqlText, renderDuck(got), strings.Join(want, "\n")))
			return
		}
		for k := 0; k < len(got); k++ {
			wantRows = append(wantRows, want[k*ncols:(k+1)*ncols])
		}
	}
	if r.sort == "rowsort" || r.sort == "sort" {
		// Sorting compares text, and a boolean cell may be written 1/0 in
		// the file where b2sql prints true/false (DuckDB sorted its own
		// true/false): spell both sides alike first.
		canonDuckBools(res.types, got)
		canonDuckBools(res.types, wantRows)
		sortDuckRows(got)
	}
	if r.sort == "rowsort" || r.sort == "sort" {
		sortDuckRows(wantRows)
	} else if r.sort == "valuesort" {
		var vals []string
		for _, row := range wantRows {
			vals = append(vals, row...)
		}
		slices.Sort(vals)
		wantRows = nil
		for k := 0; k+ncols <= len(vals); k += ncols {
			wantRows = append(wantRows, vals[k:k+ncols])
		}
	}
	for k := range wantRows {
		if len(wantRows[k]) != ncols {
			f.wrong(r, fmt.Sprintf("row %d: %d cells, result has %d columns\n%s", k+1, len(wantRows[k]), ncols, sqlText))
			return
		}
		for j := range wantRows[k] {
			if !duckCellEqual(res.types[j], got[k][j], wantRows[k][j]) {
				f.wrong(r, fmt.Sprintf("row %d column %d: got %q, DuckDB %q\n%s\ngot:\n%s\nwant:\n%s", k+1, j+1, got[k][j], wantRows[k][j], sqlText, renderDuck(got), renderDuck(wantRows)))
				return
			}
		}
	}
	f.add(r, duckPass, "")
}

func renderDuck(rows [][]string) string {
	var b strings.Builder
	for k, r := range rows {
		if k == 20 {
			fmt.Fprintf(&b, "… (%d rows)\n", len(rows))
			break
		}
		b.WriteString(strings.Join(r, "\t"))
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// duckOrdered reports whether the last statement of sqlText orders its
// rows: a query with an ORDER BY of its own (an ORDER BY inside a window
// or an aggregate orders nothing). Text the parser does not take falls
// back to looking for ORDER BY anywhere.
func duckOrdered(sqlText string) bool {
	stmts := b2sql.SplitScript(sqlText)
	if len(stmts) == 0 {
		return false
	}
	st, err := parser.Parse(stmts[len(stmts)-1].Text)
	if err != nil {
		return strings.Contains(strings.ToUpper(sqlText), "ORDER BY")
	}
	q, ok := st.(*ast.Query)
	for ok {
		if q.OrderBy != nil {
			return true
		}
		q, ok = q.Body.(*ast.Query)
	}
	_, isQuery := st.(*ast.Query)
	return !isQuery && strings.Contains(strings.ToUpper(sqlText), "ORDER BY")
}

// canonDuckBools writes the cells of BOOLEAN columns as true/false.
func canonDuckBools(types []columnar.Type, rows [][]string) {
	for _, row := range rows {
		for j := range row {
			if j < len(types) && types[j].ID == columnar.Bool {
				if b := duckBool(row[j]); b != "" {
					row[j] = b
				}
			}
		}
	}
}

func sortDuckRows(rows [][]string) {
	slices.SortStableFunc(rows, func(a, b []string) int { return slices.Compare(a, b) })
}

// duckHash is DuckDB's "N values hashing to H": the MD5 of every value
// followed by a newline, row by row.
func duckHash(rows [][]string) string {
	h := md5.New()
	n := 0
	for _, r := range rows {
		for _, v := range r {
			h.Write([]byte(v))
			h.Write([]byte("\n"))
			n++
		}
	}
	return fmt.Sprintf("%d values hashing to %s", n, hex.EncodeToString(h.Sum(nil)))
}

// duckCellEqual is DuckDB's CompareValues: the same text, or, cast to the
// column's type, the same value (floats within 1%).
func duckCellEqual(t columnar.Type, got, want string) bool {
	if got == want {
		return true
	}
	if got == "NULL" || want == "NULL" {
		return false
	}
	if pat, ok := strings.CutPrefix(want, "<REGEX>:"); ok {
		re, err := regexp.Compile("^(?s:" + pat + ")$")
		return err == nil && re.MatchString(got)
	}
	if pat, ok := strings.CutPrefix(want, "<!REGEX>:"); ok {
		re, err := regexp.Compile("^(?s:" + pat + ")$")
		return err == nil && !re.MatchString(got)
	}
	got, want = strings.TrimSpace(got), strings.TrimSpace(want)
	switch {
	case t.IsFloat():
		g, err1 := strconv.ParseFloat(got, 64)
		w, err2 := strconv.ParseFloat(want, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if math.IsNaN(g) || math.IsNaN(w) {
			return math.IsNaN(g) && math.IsNaN(w)
		}
		if math.IsInf(g, 0) || math.IsInf(w, 0) {
			return g == w
		}
		return math.Abs(g-w) <= math.Abs(w)*0.01+1e-8
	case t.IsInteger() || t.IsDecimal() || t.Wide():
		g, ok1 := new(big.Rat).SetString(got)
		w, ok2 := new(big.Rat).SetString(want)
		return ok1 && ok2 && g.Cmp(w) == 0
	case t.ID == columnar.Bool:
		return duckBool(got) != "" && duckBool(got) == duckBool(want)
	}
	return false
}

func duckBool(s string) string {
	switch strings.ToLower(s) {
	case "true", "t", "1":
		return "true"
	case "false", "f", "0":
		return "false"
	}
	return ""
}

// duckExec is the outcome of running a record's SQL.
type duckExec struct {
	types []columnar.Type
	rows  [][]string
	err   error
	hung  bool
}

// exec runs every statement of sqlText, keeping the last one's rows.
func (f *duckFile) exec(sqlText string) duckExec {
	ctx, cancel := context.WithTimeout(context.Background(), duckRecordTimeout)
	defer cancel()
	ch := make(chan duckExec, 1)
	go func() {
		var out duckExec
		defer func() {
			if p := recover(); p != nil {
				out = duckExec{err: fmt.Errorf("panic: %v\n%s", p, debug.Stack())}
			}
			ch <- out
		}()
		stmts := b2sql.SplitScript(sqlText)
		if len(stmts) == 0 {
			out.err = fmt.Errorf("no statement")
			return
		}
		for k, st := range stmts {
			rows, err := f.db.QueryStatement(ctx, sqlText, st)
			if err != nil {
				out.err = err
				return
			}
			last := k == len(stmts)-1
			if last {
				for _, c := range rows.Columns() {
					out.types = append(out.types, c.Type)
				}
			}
			for rows.Next() {
				if last {
					vals := rows.Values()
					row := make([]string, len(vals))
					for j, v := range vals {
						row[j] = duckCellText(v)
					}
					out.rows = append(out.rows, row)
				}
			}
			err = rows.Err()
			if cerr := rows.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				out.err = err
				return
			}
		}
	}()
	select {
	case r := <-ch:
		return r
	case <-time.After(duckRecordTimeout + 5*time.Second):
		return duckExec{err: fmt.Errorf("did not finish within %v", duckRecordTimeout), hung: true}
	}
}

// duckCellText renders a value as DuckDB's runner does: NULL, (empty) for
// an empty string, otherwise the value's text with each NUL byte written
// as the two characters \0 (the runner's spelling in expected results).
func duckCellText(v columnar.Value) string {
	if v.Null {
		return "NULL"
	}
	s := v.String()
	if s == "" {
		return "(empty)"
	}
	return strings.ReplaceAll(s, "\x00", `\0`)
}

// mayWrite reports whether a query record's text can change data: any
// statement but the read-only ones (SELECT, WITH, FROM-first, VALUES,
// TABLE, PRAGMA, SHOW, DESCRIBE, SUMMARIZE, EXPLAIN).
func mayWrite(sqlText string) bool {
	f := strings.Fields(strings.TrimLeft(sqlText, "( \t\n"))
	if len(f) == 0 {
		return false
	}
	switch strings.ToUpper(f[0]) {
	case "WITH":
		// A CTE whose body is an INSERT, UPDATE or DELETE writes
		// (WITH ins AS MATERIALIZED (INSERT … RETURNING i) SELECT …).
		return dmlCTE.MatchString(sqlText)
	case "SELECT", "FROM", "VALUES", "TABLE", "PRAGMA", "SHOW", "DESCRIBE", "SUMMARIZE", "EXPLAIN":
		return false
	}
	return true
}

// dmlCTE finds a data-modifying CTE body: AS [NOT] [MATERIALIZED] (INSERT|UPDATE|DELETE.
var dmlCTE = regexp.MustCompile(`(?is)\bAS\s+(NOT\s+)?(MATERIALIZED\s+)?\(\s*(INSERT|UPDATE|DELETE|MERGE)\b`)
