package tests

// An end-to-end sqllogictest runner: every tests/sql/**/*.test file runs,
// record by record, against the embedded API under a configuration matrix
// of storage format (Parquet, CTable .b2d, CTable .b2z) × rules on/off
// (SET pruning) × threads (see configs). Every configuration must produce
// the expected answer, so a pruning rule, a format reader or a parallel
// operator that changes a result fails here. The dialect is DuckDB's, reduced to what b2sql needs,
// plus data directives (see data_test.go) that write Parquet fixtures with
// arrow-go, independently of b2sql's own writers.
//
//	statement ok                   SQL follows; it must succeed
//	statement error [substring]    SQL follows; it must fail, err.Error()
//	                               containing substring (or the lines after
//	                               a "----" line, joined by newlines)
//	query <types> [rowsort|valuesort|nosort]
//	                               SQL, "----", expected rows: one line per
//	                               row, columns separated by one tab, NULL for
//	                               NULL, (empty) for an empty string; a
//	                               query of several rows needs ORDER BY,
//	                               rowsort/valuesort, or nosort written out
//	                               (rows in the order of the file or table
//	                               they come from: preserve_insertion_order)
//	query contains <substring>     SQL follows; it must succeed and the text
//	                               of its rows must contain substring (EXPLAIN)
//	columns                        SQL, "----", one line per result column:
//	                               name, tab, type as columnar.Type prints it
//	                               (checks aliases and result types)
//	table / generate / register    data directives, see data_test.go
//	only <formats>: <reason>       first record: run the file only in the
//	                               cells of these formats (parquet, b2d, b2z)
//	only rules=on: <reason>        first record: only the rules-on cells, for
//	                               files that SET rule switches themselves
//	explain <formats|all> <regexp> SQL follows; EXPLAIN ANALYZE of it must
//	                               match regexp in the rules-on cells of
//	                               those formats and must not match in their
//	                               rules-off cells: proof that a rule fired
//	                               (e.g. "block_pruning [1-9]")
//	halt                           stop reading the file
//	# ...                          comment (between records)
//
// Type letters: I integer, R real (DOUBLE, FLOAT or DECIMAL; compared with
// a relative tolerance of 1e-9), T text (VARCHAR, BLOB), B boolean, D date,
// timestamp or time. The result's column count and types are checked against them;
// an untyped NULL column matches every letter; every non-NULL value must
// carry its column's type.
//
// A failure names the configurations that produced it ("all configs" for a
// semantic bug; a subset points at pruning or parallelism).
//
// "__TESTDIR__" in SQL, in expected error messages and in register paths is
// replaced by the file's temporary directory, where data directives write;
// "__SESSIONDIR__" in SQL by a directory of the configuration's own in it;
// "__DATA__" by tests/testdata/files, the checked-in CSV and JSON fixtures.

import (
	"context"
	"fmt"
	"io/fs"
	"math"
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
)

// queryTimeout bounds one statement; a hung engine fails the record and
// retires that configuration for the rest of the file.
const queryTimeout = 30 * time.Second

// config is one cell of the differential matrix.
type config struct {
	format  string // fmtParquet, fmtB2D or fmtB2Z: how the tables are stored
	pruning bool
	threads int
}

func (c config) String() string {
	p := "off"
	if c.pruning {
		p = "on"
	}
	return fmt.Sprintf("format=%s,pruning=%s,threads=%d", c.format, p, c.threads)
}

// configs is the matrix, chosen to keep the package under a few minutes on
// two cores: Parquet gets the full pruning × threads square (single-thread
// runs catch order and merge bugs once), .b2d the rules on/off pair with
// parallel scans, and .b2z — the same reader over a zip mapping — the
// rules-on cell that exercises the most code.
var configs = []config{
	{fmtParquet, true, 1}, {fmtParquet, false, 1}, {fmtParquet, true, 2}, {fmtParquet, false, 2},
	{fmtB2D, true, 2}, {fmtB2D, false, 2},
	{fmtB2Z, true, 2},
}

// activeConfigs returns the configurations to run: all of them, or, for
// debugging, those whose name (e.g. "pruning=off,threads=1") contains the
// value of B2SQL_LOGIC_CONFIG.
func activeConfigs() []config {
	want := os.Getenv("B2SQL_LOGIC_CONFIG")
	if want == "" {
		return configs
	}
	var out []config
	for _, c := range configs {
		if strings.Contains(c.String(), want) {
			out = append(out, c)
		}
	}
	return out
}

type recordKind int

const (
	recStatementOK recordKind = iota
	recStatementError
	recQuery
	recQueryContains
	recColumns
	recTable
	recGenerate
	recRegister
	recOnly
	recExplain
)

// record is one unit of a .test file.
type record struct {
	kind recordKind
	line int    // 1-based line of the record's first line
	sql  string // statement or query text
	// statement error: expected substring ("" = any error).
	// query contains: expected substring.
	want     string
	types    string   // query: one letter per column
	sortMode string   // query: "nosort", "rowsort" or "valuesort"
	rows     []string // query: expected lines
	data     *dataSpec
	regName  string         // register
	regPath  string         // register
	formats  []string       // only, explain (nil: every format)
	pattern  *regexp.Regexp // explain
	rulesOn  bool           // only rules=on
}

func TestSQLLogic(t *testing.T) {
	var files []string
	err := filepath.WalkDir("sql", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".test") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no .test files under tests/sql")
	}
	slices.Sort(files)
	for _, f := range files {
		name := filepath.ToSlash(strings.TrimPrefix(f, "sql"+string(filepath.Separator)))
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runFile(t, f)
		})
	}
}

// parseFile splits a .test file into records.
func parseFile(path string) ([]record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	var recs []record
	i := 0
	// block returns the lines from i up to the next blank line.
	block := func() []string {
		start := i
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
			i++
		}
		return lines[start:i]
	}
	for i < len(lines) {
		line := strings.TrimSpace(lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			i++
			continue
		}
		lineNo := i + 1
		errf := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", path, lineNo, fmt.Sprintf(format, args...))
		}
		fields := strings.Fields(line)
		i++
		switch fields[0] {
		case "halt":
			return recs, nil
		case "statement":
			if len(fields) < 2 {
				return nil, errf("statement needs ok or error")
			}
			body := block()
			sqlLines, after, hasSep := cutSep(body)
			if len(sqlLines) == 0 {
				return nil, errf("statement without SQL")
			}
			r := record{line: lineNo, sql: strings.Join(sqlLines, "\n")}
			switch fields[1] {
			case "ok":
				if hasSep {
					return nil, errf("statement ok with ----")
				}
				r.kind = recStatementOK
			case "error":
				r.kind = recStatementError
				r.want = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line[len("statement"):]), "error"))
				if hasSep {
					r.want = strings.Join(after, "\n")
				}
			default:
				return nil, errf("unknown statement mode %q", fields[1])
			}
			recs = append(recs, r)
		case "query":
			if len(fields) < 2 {
				return nil, errf("query needs types")
			}
			if fields[1] == "contains" {
				want := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line[len("query"):]), "contains"))
				body := block()
				if len(body) == 0 || want == "" {
					return nil, errf("query contains needs a substring and SQL")
				}
				recs = append(recs, record{kind: recQueryContains, line: lineNo, sql: strings.Join(body, "\n"), want: want})
				continue
			}
			r := record{kind: recQuery, line: lineNo, types: fields[1], sortMode: "nosort"}
			for _, c := range r.types {
				if !strings.ContainsRune("IRTBD", c) {
					return nil, errf("unknown type letter %q", c)
				}
			}
			if len(fields) > 2 {
				r.sortMode = fields[2]
				switch r.sortMode {
				case "nosort", "rowsort", "valuesort":
				default:
					return nil, errf("unknown sort mode %q", r.sortMode)
				}
			}
			if len(fields) > 3 {
				return nil, errf("trailing words after query")
			}
			// SQL up to "----"; the result runs to the next blank line.
			start := i
			for i < len(lines) && strings.TrimSpace(lines[i]) != "----" {
				if strings.TrimSpace(lines[i]) == "" {
					return nil, errf("query without ---- line")
				}
				i++
			}
			if i == len(lines) || i == start {
				return nil, errf("query without SQL or ---- line")
			}
			r.sql = strings.Join(lines[start:i], "\n")
			i++ // "----"
			rowsStart := i
			r.rows = block()
			for k, row := range r.rows {
				if n := len(strings.Split(row, "\t")); n != len(r.types) && r.sortMode != "valuesort" {
					return nil, fmt.Errorf("%s:%d: expected row has %d tab-separated values, query declares %d types", path, rowsStart+k+1, n, len(r.types))
				}
			}
			// Without ORDER BY, row order is the order of the data read
			// (insertion order) only where nothing reorders it: a test
			// that relies on it says nosort.
			if len(fields) < 3 && len(r.rows) > 1 && !strings.Contains(strings.ToUpper(r.sql), "ORDER BY") {
				return nil, errf("query returns %d rows without ORDER BY: add rowsort", len(r.rows))
			}
			recs = append(recs, r)
		case "columns":
			body := block()
			sqlLines, after, hasSep := cutSep(body)
			if !hasSep || len(sqlLines) == 0 || len(after) == 0 {
				return nil, errf("columns needs SQL, ---- and one line per column")
			}
			recs = append(recs, record{kind: recColumns, line: lineNo, sql: strings.Join(sqlLines, "\n"), rows: after})
		case "table", "generate":
			ds, err := parseDataHeader(fields)
			if err != nil {
				return nil, errf("%v", err)
			}
			body := block()
			if fields[0] == "table" {
				err = ds.parseTableBody(body)
			} else {
				err = ds.parseGenerateBody(body)
			}
			if err != nil {
				return nil, errf("%v", err)
			}
			kind := recTable
			if fields[0] == "generate" {
				kind = recGenerate
			}
			recs = append(recs, record{kind: kind, line: lineNo, data: ds})
		case "only":
			// only <format>[,<format>…] | rules=on: <reason>
			spec, reason, ok := strings.Cut(strings.TrimSpace(line[len("only"):]), ":")
			if !ok || strings.TrimSpace(reason) == "" {
				return nil, errf("usage: only <format>[,<format>] | rules=on: <reason>")
			}
			r := record{kind: recOnly, line: lineNo, want: strings.TrimSpace(reason)}
			if strings.TrimSpace(spec) == "rules=on" {
				r.rulesOn = true // the file checks the rule switches themselves
			} else {
				for _, f := range strings.Split(spec, ",") {
					f = strings.TrimSpace(f)
					if f != fmtParquet && f != fmtB2D && f != fmtB2Z {
						return nil, errf("only: unknown format %q (parquet, b2d, b2z, or rules=on)", f)
					}
					r.formats = append(r.formats, f)
				}
			}
			if len(recs) > 0 {
				return nil, errf("only must come before every other record")
			}
			recs = append(recs, r)
		case "explain":
			// explain <formats|all> <regexp>, then the SQL.
			if len(fields) < 3 {
				return nil, errf("usage: explain <format>[,<format>]|all <regexp>")
			}
			var fs []string
			if fields[1] != "all" {
				for _, f := range strings.Split(fields[1], ",") {
					if f != fmtParquet && f != fmtB2D && f != fmtB2Z {
						return nil, errf("explain: unknown format %q (parquet, b2d, b2z, all)", f)
					}
					fs = append(fs, f)
				}
			}
			_, rest, _ := strings.Cut(line, fields[1])
			re, err := regexp.Compile(strings.TrimSpace(rest))
			if err != nil {
				return nil, errf("explain: %v", err)
			}
			body := block()
			if len(body) == 0 {
				return nil, errf("explain needs SQL")
			}
			recs = append(recs, record{kind: recExplain, line: lineNo, sql: strings.Join(body, "\n"), formats: fs, pattern: re})
		case "register":
			if len(fields) != 3 {
				return nil, errf("usage: register <name> <path or glob>")
			}
			recs = append(recs, record{kind: recRegister, line: lineNo, regName: fields[1], regPath: fields[2]})
		default:
			return nil, errf("unknown directive %q", fields[0])
		}
	}
	return recs, nil
}

// cutSep splits a block at a "----" line.
func cutSep(body []string) (before, after []string, found bool) {
	for k, l := range body {
		if strings.TrimSpace(l) == "----" {
			return body[:k], body[k+1:], true
		}
	}
	return body, nil, false
}

// session is one open database under one configuration.
type session struct {
	cfg  config
	db   *b2sql.DB
	dead string // non-empty once a statement hung or setup failed
	// dir is the session's own directory (not made), "__SESSIONDIR__" in
	// SQL: what one configuration writes there (ATTACH's database
	// directories) the others do not see.
	dir string
}

func runFile(t *testing.T, path string) {
	recs, err := parseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	base := filepath.Base(path)

	cfgs := activeConfigs()
	if len(cfgs) == 0 {
		t.Fatalf("B2SQL_LOGIC_CONFIG=%q matches no configuration", os.Getenv("B2SQL_LOGIC_CONFIG"))
	}
	if len(recs) > 0 && recs[0].kind == recOnly {
		only := recs[0]
		recs = recs[1:]
		what := strings.Join(only.formats, ",")
		keep := func(c config) bool { return slices.Contains(only.formats, c.format) }
		if only.rulesOn {
			what, keep = "rules=on", func(c config) bool { return c.pruning }
		}
		t.Logf("only %s: %s", what, only.want)
		cfgs = slices.DeleteFunc(slices.Clone(cfgs), func(c config) bool { return !keep(c) })
		if len(cfgs) == 0 {
			t.Skipf("no active configuration matches only %s", what)
		}
	}
	// A file whose tables are all Parquet in every cell (formats=parquet,
	// noregister) would run its CTable cells over the same Parquet files:
	// keep only the Parquet cells.
	parquetOnly, anyTable := true, false
	for _, r := range recs {
		if r.kind == recTable || r.kind == recGenerate {
			anyTable = true
			parquetOnly = parquetOnly && (r.data.parquetOnly || r.data.noRegister)
		}
	}
	if anyTable && parquetOnly {
		t.Logf("every table is Parquet in every cell: Parquet cells only")
		cfgs = slices.DeleteFunc(slices.Clone(cfgs), func(c config) bool { return c.format != fmtParquet })
		if len(cfgs) == 0 {
			t.Skip("every table is Parquet in every cell and no Parquet cell is active")
		}
	}
	sessions := make([]*session, len(cfgs))
	for k, cfg := range cfgs {
		s := &session{cfg: cfg, dir: filepath.ToSlash(filepath.Join(dir, fmt.Sprintf("session%d", k)))}
		sessions[k] = s
		db, err := b2sql.Open("", b2sql.WithThreads(cfg.threads))
		if err != nil {
			t.Errorf("[%s] Open: %v", cfg, err)
			s.dead = "Open failed"
			continue
		}
		s.db = db
		p := "off"
		if cfg.pruning {
			p = "on"
		}
		if _, _, err := s.run("SET pruning = " + p); err != nil {
			t.Errorf("[%s] SET pruning = %s: %v", cfg, p, err)
		}
	}
	t.Cleanup(func() {
		for _, s := range sessions {
			if s.db != nil && s.dead == "" {
				if err := s.db.Close(); err != nil {
					t.Errorf("[%s] Close: %v", s.cfg, err)
				}
			}
		}
	})

	for _, r := range recs {
		name := fmt.Sprintf("%s:%d", base, r.line)
		ok := t.Run(name, func(t *testing.T) {
			runRecord(t, r, dir, sessions)
		})
		if !ok && (r.kind == recTable || r.kind == recGenerate || r.kind == recRegister) {
			// Later records depend on the data; their failures would be noise.
			t.Errorf("%s: data setup failed, skipping the rest of the file", name)
			return
		}
	}
}

func runRecord(t *testing.T, r record, dir string, sessions []*session) {
	data, _ := filepath.Abs(filepath.Join("testdata", "files"))
	subst := func(s string) string {
		s = strings.ReplaceAll(s, "__DATA__", filepath.ToSlash(data))
		return strings.ReplaceAll(s, "__TESTDIR__", filepath.ToSlash(dir))
	}
	switch r.kind {
	case recTable, recGenerate:
		// The Parquet file is always written: queries may name it by path.
		file, err := r.data.write(dir)
		if err != nil {
			t.Fatalf("writing %s: %v", r.data.name, err)
		}
		if r.data.noRegister {
			return
		}
		files := map[string]string{fmtParquet: file}
		for _, s := range sessions {
			f := s.cfg.format
			if s.dead != "" || r.data.parquetOnly || files[f] != "" {
				continue
			}
			if files[f], err = r.data.writeCTable(dir, f); err != nil {
				t.Fatalf("writing %s as .%s: %v", r.data.name, f, err)
			}
		}
		for _, s := range sessions {
			if s.dead != "" {
				continue
			}
			file := files[s.cfg.format]
			if r.data.parquetOnly {
				file = files[fmtParquet]
			}
			if logicRemote != nil {
				file = logicRemote.place(t, s.db, file)
			}
			if err := s.db.RegisterTable(r.data.name, file); err != nil {
				t.Errorf("[%s] RegisterTable(%q, %q): %v", s.cfg, r.data.name, file, err)
			}
		}
		return
	case recRegister:
		p := subst(r.regPath)
		for _, s := range sessions {
			if s.dead != "" {
				continue
			}
			if err := s.db.RegisterTable(r.regName, p); err != nil {
				t.Errorf("[%s] RegisterTable(%q, %q): %v", s.cfg, r.regName, p, err)
			}
		}
		return
	}

	sql := subst(r.sql)
	if r.kind == recExplain {
		sql = "EXPLAIN ANALYZE " + sql
	}
	// outcome per configuration, to report once when all agree.
	type outcome struct {
		cfg config
		msg string // "" = pass
	}
	var outs []outcome
	for _, s := range sessions {
		if s.dead != "" {
			outs = append(outs, outcome{s.cfg, "skipped: " + s.dead})
			continue
		}
		cols, rows, err := s.run(strings.ReplaceAll(sql, "__SESSIONDIR__", s.dir))
		msg := check(r, subst, cols, rows, err)
		if r.kind == recExplain {
			msg = checkExplain(r, s.cfg, rows, err)
		}
		outs = append(outs, outcome{s.cfg, msg})
	}
	// Group identical failure messages so that a semantic bug is reported
	// once and a configuration-dependent one shows which cells differ.
	var order []string
	byMsg := map[string][]string{}
	for _, o := range outs {
		if o.msg == "" {
			continue
		}
		if _, seen := byMsg[o.msg]; !seen {
			order = append(order, o.msg)
		}
		byMsg[o.msg] = append(byMsg[o.msg], o.cfg.String())
	}
	for _, m := range order {
		who := strings.Join(byMsg[m], " ")
		if len(byMsg[m]) == len(sessions) && len(sessions) > 1 {
			who = "all configs"
		}
		t.Errorf("[%s]\n%s\n%s", who, sql, m)
	}
}

// checkExplain checks an explain record in one cell: with the rules on the
// EXPLAIN ANALYZE text must match the pattern (the rule did its work here),
// with the rules off it must not (the switch works, so the rules-off cells
// really run the plain scan). Cells of other formats only run the query.
func checkExplain(r record, cfg config, rows [][]columnar.Value, err error) string {
	if err != nil {
		return "unexpected error: " + err.Error()
	}
	if r.formats != nil && !slices.Contains(r.formats, cfg.format) {
		return ""
	}
	var b strings.Builder
	for _, row := range rows {
		for _, v := range row {
			b.WriteString(cellText(v))
			b.WriteByte('\t')
		}
		b.WriteByte('\n')
	}
	matched := r.pattern.MatchString(b.String())
	switch {
	case cfg.pruning && !matched:
		return fmt.Sprintf("with the rules on, the plan does not match %q:\n%s", r.pattern, b.String())
	case !cfg.pruning && matched:
		return fmt.Sprintf("with the rules off, the plan still matches %q:\n%s", r.pattern, b.String())
	}
	return ""
}

// result rendering ---------------------------------------------------------

// cellText renders one value as the expected-result files spell it.
func cellText(v columnar.Value) string {
	if v.Null {
		return "NULL"
	}
	s := v.String()
	if s == "" && (v.Type.ID == columnar.Varchar || v.Type.ID == columnar.Blob) {
		return "(empty)"
	}
	return s
}

// run executes one statement, returning its columns and rendered rows. A
// panic becomes an error; a statement that outlives queryTimeout retires
// the session.
func (s *session) run(sql string) ([]b2sql.Column, [][]columnar.Value, error) {
	type res struct {
		cols []b2sql.Column
		rows [][]columnar.Value
		err  error
	}
	ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
	defer cancel()
	ch := make(chan res, 1)
	go func() {
		var out res
		defer func() {
			if p := recover(); p != nil {
				out = res{err: fmt.Errorf("test runner caught panic: %v\n%s", p, debug.Stack())}
			}
			ch <- out
		}()
		rows, err := s.db.Query(ctx, sql)
		if err != nil {
			out.err = err
			return
		}
		defer rows.Close()
		out.cols = rows.Columns()
		for rows.Next() {
			vals := rows.Values()
			out.rows = append(out.rows, slices.Clone(vals))
		}
		out.err = rows.Err()
		if cerr := rows.Close(); out.err == nil && cerr != nil {
			out.err = fmt.Errorf("Rows.Close: %w", cerr)
		}
	}()
	select {
	case r := <-ch:
		return r.cols, r.rows, r.err
	case <-time.After(queryTimeout + 5*time.Second):
		s.dead = "an earlier statement hung"
		return nil, nil, fmt.Errorf("statement did not finish within %v (context ignored?)", queryTimeout)
	}
}

// check compares one outcome with the record; it returns "" on success.
func check(r record, subst func(string) string, cols []b2sql.Column, rows [][]columnar.Value, err error) string {
	switch r.kind {
	case recStatementOK:
		if err != nil {
			return "unexpected error: " + err.Error()
		}
		return ""
	case recStatementError:
		if err == nil {
			return fmt.Sprintf("statement succeeded, want an error containing %q", subst(r.want))
		}
		if want := subst(r.want); !strings.Contains(err.Error(), want) {
			return fmt.Sprintf("error %q\n  does not contain %q", err.Error(), want)
		}
		if strings.Contains(err.Error(), "\n") {
			return fmt.Sprintf("error message spans several lines: %q", err.Error())
		}
		return ""
	case recColumns:
		if err != nil {
			return "unexpected error: " + err.Error()
		}
		var got []string
		for _, c := range cols {
			got = append(got, c.Name+"\t"+c.Type.String())
		}
		if !slices.Equal(got, r.rows) {
			return fmt.Sprintf("columns differ\ngot:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(r.rows, "\n  "))
		}
		return ""
	case recQueryContains:
		if err != nil {
			return "unexpected error: " + err.Error()
		}
		var b strings.Builder
		for _, row := range rows {
			for _, v := range row {
				b.WriteString(cellText(v))
				b.WriteByte('\t')
			}
			b.WriteByte('\n')
		}
		if !strings.Contains(b.String(), r.want) {
			return fmt.Sprintf("output does not contain %q:\n%s", r.want, b.String())
		}
		return ""
	}
	// recQuery
	if err != nil {
		return "unexpected error: " + err.Error()
	}
	if len(cols) != len(r.types) {
		return fmt.Sprintf("got %d columns %v, query declares %d (%s)", len(cols), colNames(cols), len(r.types), r.types)
	}
	for k, c := range cols {
		if !typeMatches(r.types[k], c.Type) {
			return fmt.Sprintf("column %d (%q) has type %s, query declares %c", k+1, c.Name, c.Type, r.types[k])
		}
	}
	for k, row := range rows {
		if len(row) != len(cols) {
			return fmt.Sprintf("row has %d values, Columns() has %d", len(row), len(cols))
		}
		for j, v := range row {
			if !v.Null && v.Type != cols[j].Type {
				return fmt.Sprintf("row %d column %d: value of type %s in a column of type %s", k+1, j+1, v.Type, cols[j].Type)
			}
		}
	}
	got := make([][]string, len(rows))
	for k, row := range rows {
		got[k] = make([]string, len(row))
		for j, v := range row {
			got[k][j] = cellText(v)
		}
	}
	want := make([][]string, len(r.rows))
	for k, l := range r.rows {
		want[k] = strings.Split(l, "\t")
	}
	switch r.sortMode {
	case "rowsort":
		sortRows(got)
		sortRows(want)
	case "valuesort":
		got = flattenSorted(got)
		want = flattenSorted(want)
	}
	if diff := compareRows(r.types, r.sortMode == "valuesort", got, want); diff != "" {
		return diff + "\n" + renderDiff(got, want)
	}
	return ""
}

func colNames(cols []b2sql.Column) []string {
	out := make([]string, len(cols))
	for k, c := range cols {
		out[k] = c.Name
	}
	return out
}

func typeMatches(letter byte, t columnar.Type) bool {
	if t.ID == columnar.Null {
		return true
	}
	switch letter {
	case 'I':
		return t.IsInteger() || t.ID == columnar.Hugeint || t.ID == columnar.Uhugeint
	case 'R':
		return t.IsFloat() || t.IsDecimal()
	case 'T':
		return t.IsString() || t.IsNested() || t.ID == columnar.Uuid || t.ID == columnar.Enum || t.ID == columnar.Bit // nested values, UUIDs, ENUMs and BITs compare as their text
	case 'B':
		return t.ID == columnar.Bool
	case 'D':
		return t.IsTemporal() || t.ID == columnar.Time || t.ID == columnar.TimeTZ || t.ID == columnar.TimestampTZ || t.IsTimestampUnit()
	}
	return false
}

func sortRows(rows [][]string) {
	slices.SortStableFunc(rows, func(a, b []string) int {
		return strings.Compare(strings.Join(a, "\t"), strings.Join(b, "\t"))
	})
}

func flattenSorted(rows [][]string) [][]string {
	var vals []string
	for _, r := range rows {
		vals = append(vals, r...)
	}
	slices.Sort(vals)
	out := make([][]string, len(vals))
	for k, v := range vals {
		out[k] = []string{v}
	}
	return out
}

func compareRows(types string, flat bool, got, want [][]string) string {
	if len(got) != len(want) {
		return fmt.Sprintf("got %d rows, want %d", len(got), len(want))
	}
	for k := range want {
		for j := range want[k] {
			letter := byte('T')
			if !flat && j < len(types) {
				letter = types[j]
			}
			if !cellEqual(letter, got[k][j], want[k][j]) {
				return fmt.Sprintf("row %d column %d: got %q, want %q", k+1, j+1, got[k][j], want[k][j])
			}
		}
	}
	return ""
}

// cellEqual compares one cell; R cells compare numerically with a relative
// tolerance of 1e-9 so that the order of a parallel float sum does not matter.
func cellEqual(letter byte, got, want string) bool {
	if got == want {
		return true
	}
	if letter != 'R' {
		return false
	}
	g, err1 := strconv.ParseFloat(got, 64)
	w, err2 := strconv.ParseFloat(want, 64)
	if err1 != nil || err2 != nil || math.IsNaN(g) || math.IsNaN(w) {
		return false
	}
	if g == w {
		return true
	}
	return math.Abs(g-w) <= 1e-9*math.Max(math.Abs(g), math.Abs(w))
}

func renderDiff(got, want [][]string) string {
	const max = 30
	var b strings.Builder
	render := func(title string, rows [][]string) {
		b.WriteString(title)
		b.WriteByte('\n')
		for k, r := range rows {
			if k == max {
				fmt.Fprintf(&b, "  ... (%d rows)\n", len(rows))
				break
			}
			b.WriteString("  ")
			b.WriteString(strings.Join(r, "\t"))
			b.WriteByte('\n')
		}
	}
	render("got:", got)
	render("want:", want)
	return strings.TrimRight(b.String(), "\n")
}
