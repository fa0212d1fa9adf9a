// Package parsertest reads the SQL of sqllogictest files, the corpus the
// parser's round-trip test and the front-end comparison run over.
package parsertest

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Record is the SQL of one statement or query record.
type Record struct {
	File string
	Line int // of the record's header
	SQL  string
	// Error: the file expects the statement to fail (statement error,
	// query … error): such records do not count as parser failures.
	Error bool
	// Expected is the error message an Error record expects (the text
	// after its ----), "" when it names none.
	Expected string
}

// DuckDBTests is where the DuckDB test files are read from, when present.
const DuckDBTests = "/work/shared/duckdb-tests/test"

// Records returns the records of every *.test file under root, in file
// order. Records inside mode skip, those for other engines (onlyif X,
// skipif duckdb) and those holding loop variables (${x}) are left out.
func Records(root string) ([]Record, error) {
	var out []Record
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".test") {
			return err
		}
		recs, err := File(path)
		out = append(out, recs...)
		return err
	})
	return out, err
}

// File returns the records of one file.
func File(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var (
		out            []Record
		lines          []string
		cur            *Record
		skip, skipNext bool
		vars           []loopVar // innermost last
		n              int
		expecting      = -1 // index in out of the error record whose message follows
	)
	flush := func() {
		if cur != nil && len(lines) > 0 {
			cur.SQL = substitute(strings.Join(lines, "\n"), vars)
			if !strings.Contains(cur.SQL, "${") && !strings.Contains(cur.SQL, "__TEST_DIR__") {
				out = append(out, *cur)
			}
		}
		cur, lines = nil, nil
	}
	for sc.Scan() {
		n++
		line := sc.Text()
		if expecting >= 0 {
			if strings.TrimSpace(line) != "" {
				out[expecting].Expected = strings.TrimSpace(out[expecting].Expected + "\n" + line)
				continue
			}
			expecting = -1
		}
		if cur != nil {
			header := strings.HasPrefix(line, "statement ") || strings.HasPrefix(line, "query ")
			switch {
			case strings.TrimSpace(line) == "" || line == "----" || header:
				wasErr := cur.Error && line == "----"
				before := len(out)
				flush()
				if wasErr && len(out) > before {
					expecting = len(out) - 1
				}
			case !strings.HasPrefix(line, "#"):
				lines = append(lines, line)
			}
			if !header {
				continue
			}
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "loop", "concurrentloop":
			if len(fields) > 2 {
				vars = append(vars, loopVar{fields[1], fields[2]})
			}
		case "foreach", "concurrentforeach":
			if len(fields) > 2 {
				vars = append(vars, loopVar{fields[1], firstValue(fields[2])})
			}
		case "endloop":
			if len(vars) > 0 {
				vars = vars[:len(vars)-1]
			}
		case "mode":
			if len(fields) > 1 {
				switch fields[1] {
				case "skip":
					skip = true
				case "unskip":
					skip = false
				}
			}
		case "onlyif":
			skipNext = len(fields) > 1 && fields[1] != "duckdb"
		case "skipif":
			skipNext = len(fields) > 1 && fields[1] == "duckdb"
		case "statement", "query":
			if skip || skipNext {
				skipNext = false
				cur = &Record{} // consume the SQL, keep nothing
				lines = nil
				for sc.Scan() {
					n++
					if l := sc.Text(); strings.TrimSpace(l) == "" || l == "----" {
						break
					}
				}
				cur = nil
				continue
			}
			cur = &Record{File: path, Line: n, Error: len(fields) > 1 && fields[1] == "error" ||
				fields[0] == "query" && len(fields) > 2 && fields[len(fields)-1] == "error"}
			if fields[0] == "statement" && cur.Error {
				// b2sql's files write the expected message on the header line.
				cur.Expected = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "statement error"))
			}
		}
	}
	flush()
	return out, sc.Err()
}

// Corpus returns the records of the repository's own test files (tests/,
// testdata/slt, found from dir upwards) and, when present, DuckDB's test
// files; missing says what was not found.
func Corpus(dir string) (recs []Record, missing []string) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, []string{dir + ": " + err.Error()}
	}
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return nil, []string{"the module root"}
		}
		root = parent
	}
	for _, d := range []string{filepath.Join(root, "tests"), filepath.Join(root, "testdata", "slt"), DuckDBTests} {
		if _, err := os.Stat(d); err != nil {
			missing = append(missing, d)
			continue
		}
		r, err := Records(d)
		if err != nil {
			missing = append(missing, d+": "+err.Error())
		}
		recs = append(recs, r...)
	}
	return recs, missing
}

// loopVar is a loop or foreach variable with the value the corpus uses
// (the first of the loop's values: each record is parsed once).
type loopVar struct{ name, value string }

// firstValue returns the first value of a foreach list item, a type
// group (<integral>, <numeric>, …) read as one of its types.
func firstValue(v string) string {
	if strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">") {
		return "INTEGER"
	}
	return v
}

// substitute replaces ${name} and {name} by the variables' values.
func substitute(sql string, vars []loopVar) string {
	for i := len(vars) - 1; i >= 0; i-- {
		v := vars[i]
		sql = strings.ReplaceAll(sql, "${"+v.name+"}", v.value)
		sql = strings.ReplaceAll(sql, "{"+v.name+"}", v.value)
	}
	return sql
}
