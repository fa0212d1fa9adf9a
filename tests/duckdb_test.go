package tests

// TestDuckDBSuite runs DuckDB's own sqllogictest files (the 538 files of
// ../shared/duckdb-tests, read in place and never copied into the repo)
// through the embedded engine, the way DuckDB's runner reads them
// (test/sqlite/sqllogic_parser.cpp, result_helper.cpp in duckdb/duckdb):
//
//	statement ok|error|maybe   SQL (several statements allowed); an error's
//	                           expected message after "----" is not compared:
//	                           any error answers a statement DuckDB refuses
//	query <letters> [nosort|rowsort|valuesort] [label]
//	                           SQL, "----", rows (tab-separated cells, or one
//	                           value per line) or "N values hashing to <md5>";
//	                           a label with no rows stores the result for
//	                           later queries of the same label
//	loop v a b / foreach v x y … / endloop   ${v} substituted, nested
//	skipif|onlyif <engine>, mode skip|unskip, require, load, restart, halt
//
// Each record is classified: pass; error (b2sql failed a statement or
// query DuckDB answers); wrong (a different answer, or an answer where
// DuckDB reports an error, with no earlier failed statement in the file to
// blame: queries have no side effects, so only a failed statement can
// leave later records on different data); blamed (a different answer
// after such a failed statement); skipped (with a reason: a DuckDB
// extension or build option the file requires, skipif duckdb, mode skip,
// an earlier statement that hung). A cell matches as in DuckDB's runner:
// the same text, or the same number (floats within 1%, as DuckDB's
// ApproxEqual), or the same boolean.
//
// The test prints a table per directory and fails on any wrong record not
// listed in testdata/duckdb_known_wrong.txt ("file:line reason"), so that
// list can only shrink; listed records that now pass are logged so they
// can be removed. B2SQL_DUCKDB_RECORDS=<path> writes every record's key
// and outcome there, a line each. B2SQL_DUCKDB_TESTS names another copy of the files;
// B2SQL_DUCKDB_RUN=<substring> runs only the files whose path contains it
// and logs every failing record's details.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	// duckRecordTimeout bounds one record; a record past it retires the
	// file's database (the rest of the file is skipped).
	duckRecordTimeout = 10 * time.Second
	// duckFileBudget bounds one file: records after it are skipped.
	duckFileBudget = 40 * time.Second
	duckKnownWrong = "testdata/duckdb_known_wrong.txt"
)

// duckSupported are the `require` arguments the engine satisfies: build
// properties true of any b2sql, and the Parquet reader. Anything else (an
// extension such as json or icu, a vector size) skips the file.
var duckSupported = map[string]bool{
	"parquet": true, "64bit": true, "core_functions": true, "no_alternative_verify": true,
	"noforcestorage": true, "notwindows": true, "strinline": true,
}

type duckOutcome int

const (
	duckPass duckOutcome = iota
	duckError
	duckWrong
	duckBlamed
	duckSkipped
	duckOutcomes
)

var duckOutcomeNames = [duckOutcomes]string{"pass", "error", "wrong", "blamed", "skipped"}

// duckResult is the outcome of one executed record.
type duckResult struct {
	key     string // "sql/…/file.test:line", the known-wrong list's key
	outcome duckOutcome
	detail  string
}

func duckTestsDir() string {
	if d := os.Getenv("B2SQL_DUCKDB_TESTS"); d != "" {
		return d
	}
	// The repo (or a worktree of it) sits next to shared/ somewhere above.
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "shared", "duckdb-tests")
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

func TestDuckDBSuite(t *testing.T) {
	root := duckTestsDir()
	if root == "" {
		t.Skip("../shared/duckdb-tests not found (set B2SQL_DUCKDB_TESTS): DuckDB's own tests not run")
	}
	if testing.Short() {
		t.Skip("-short: DuckDB's own tests not run")
	}
	var files []string
	filter := os.Getenv("B2SQL_DUCKDB_RUN")
	err := filepath.WalkDir(filepath.Join(root, "test"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".test") && strings.Contains(p, filter) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	known, err := readKnownWrong(duckKnownWrong)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	results := map[string][]duckResult{}
	t.Run("files", func(t *testing.T) {
		for _, f := range files {
			rel, _ := filepath.Rel(filepath.Join(root, "test"), f)
			rel = filepath.ToSlash(rel)
			t.Run(rel, func(t *testing.T) {
				t.Parallel()
				res := runDuckFile(t, root, f, rel)
				mu.Lock()
				results[rel] = res
				mu.Unlock()
			})
		}
	})
	// Per-directory table.
	type row struct{ n [duckOutcomes]int }
	dirs := map[string]*row{}
	var total row
	var newWrong []duckResult
	stillWrong := map[string]bool{}
	for _, rel := range mapsKeys(results) {
		dir := filepath.ToSlash(filepath.Dir(rel))
		r := dirs[dir]
		if r == nil {
			r = &row{}
			dirs[dir] = r
		}
		for _, res := range results[rel] {
			r.n[res.outcome]++
			total.n[res.outcome]++
			if res.outcome == duckWrong {
				if _, ok := known[res.key]; ok {
					stillWrong[res.key] = true
				} else {
					newWrong = append(newWrong, res)
				}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "DuckDB's tests (%s), records by directory:\n", root)
	fmt.Fprintf(&b, "%-36s %6s %6s %6s %6s %6s %7s\n", "directory", "pass", "error", "wrong", "blamed", "skip", "pass%")
	line := func(name string, r *row) {
		run := r.n[duckPass] + r.n[duckError] + r.n[duckWrong] + r.n[duckBlamed]
		pct := 0.0
		if run > 0 {
			pct = 100 * float64(r.n[duckPass]) / float64(run)
		}
		fmt.Fprintf(&b, "%-36s %6d %6d %6d %6d %6d %6.1f%%\n", name, r.n[duckPass], r.n[duckError], r.n[duckWrong], r.n[duckBlamed], r.n[duckSkipped], pct)
	}
	for _, d := range mapsKeys(dirs) {
		line(d, dirs[d])
	}
	line("TOTAL", &total)
	t.Log("\n" + b.String())
	if os.Getenv("B2SQL_DUCKDB_TABLE") != "" {
		_ = os.WriteFile(os.Getenv("B2SQL_DUCKDB_TABLE"), []byte(b.String()), 0o644)
	}
	if p := os.Getenv("B2SQL_DUCKDB_RECORDS"); p != "" {
		var rb strings.Builder
		for _, rel := range mapsKeys(results) {
			for _, res := range results[rel] {
				fmt.Fprintf(&rb, "%s\t%s\n", res.key, duckOutcomeNames[res.outcome])
			}
		}
		_ = os.WriteFile(p, []byte(rb.String()), 0o644)
	}
	if filter == "" {
		for _, k := range mapsKeys(known) {
			if !stillWrong[k] {
				t.Logf("%s: listed in %s but no longer wrong: remove the line", k, duckKnownWrong)
			}
		}
	}
	for _, w := range newWrong {
		t.Errorf("%s: wrong answer (not in %s)\n%s", w.key, duckKnownWrong, w.detail)
	}
}

func mapsKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// readKnownWrong reads the known-wrong list: "file:line reason" per line,
// # comments and blank lines ignored. A missing file is an empty list.
func readKnownWrong(path string) (map[string]string, error) {
	out := map[string]string{}
	fh, err := os.Open(path)
	if os.IsNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		key, reason, _ := strings.Cut(l, " ")
		if strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: %q has no reason", path, n, key)
		}
		out[key] = strings.TrimSpace(reason)
	}
	return out, sc.Err()
}
