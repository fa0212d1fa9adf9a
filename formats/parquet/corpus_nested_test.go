package parquet

import (
	"bufio"
	"crypto/md5"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/index"
)

// updateDuckDB regenerates testdata/corpus_nested.txt by asking DuckDB
// (DUCK, default /work/bin/duck) about every nested column of the corpus.
var updateDuckDB = flag.Bool("update-duckdb", false, "regenerate testdata/corpus_nested.txt with DuckDB")

const nestedGolden = "testdata/corpus_nested.txt"

// nestedAnswer is DuckDB's view of one nested column of a corpus file: its
// type, how many rows are not NULL, and the MD5 of the rows' text
// (CAST(col AS VARCHAR), NULL as "NULL", one per line in file order).
type nestedAnswer struct {
	file, col, typ string
	nonNull        int64
	md5            string
}

func (a nestedAnswer) String() string {
	return strings.Join([]string{a.file, a.col, a.typ, strconv.FormatInt(a.nonNull, 10), a.md5}, "\t")
}

// TestCorpusNested reads every nested column of the corpus and compares it
// with DuckDB 1.5's answers (testdata/corpus_nested.txt, made by
// -update-duckdb): the type's name, the count of non-NULL rows and the MD5
// of every row's text. A file is in the list when DuckDB gives it a LIST,
// STRUCT or MAP column; every one must be read.
func TestCorpusNested(t *testing.T) {
	dir := filepath.Join(corpusDir(t), "files")
	if *updateDuckDB {
		writeNestedGolden(t, dir)
	}
	want := readNestedGolden(t)
	for _, w := range want {
		t.Run(w.file+"/"+w.col, func(t *testing.T) {
			if why := nestedKnownDifferent[w.file]; why != "" {
				t.Skip(why)
			}
			tb, err := Open(filepath.Join(dir, w.file))
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			got, lines := nestedAnswerOf(t, tb, w.file, w.col)
			if got != w {
				t.Errorf("got  %v\nwant %v (DuckDB)\nfirst rows: %q", got, w, lines)
			}
		})
	}
}

// nestedAnswerOf computes for column col of tb what nestedAnswer holds,
// and the text of its first rows for failure messages.
func nestedAnswerOf(t *testing.T, tb *Table, file, col string) (nestedAnswer, []string) {
	t.Helper()
	c := tb.Schema().Index(col)
	if c < 0 {
		t.Fatalf("no column %q in %v", col, tb.Schema().Names())
	}
	got := nestedAnswer{file: file, col: col, typ: tb.Schema()[c].Type.String()}
	h := md5.New()
	first := true
	var lines []string
	// One thread: file order (a parallel scan emits row groups in any order).
	for _, row := range readAll(t, tb, index.ScanSpec{Cols: []int{c}, Limit: -1, Threads: 1}) {
		if !row[0].Null {
			got.nonNull++
		}
		if !first {
			h.Write([]byte{'\n'})
		}
		first = false
		h.Write([]byte(row[0].String()))
		if len(lines) < 4 {
			lines = append(lines, row[0].String())
		}
	}
	got.md5 = hex.EncodeToString(h.Sum(nil))
	return got, lines
}

// nestedKnownDifferent are the files whose nested columns b2sql reads
// otherwise than DuckDB, each with why.
var nestedKnownDifferent = map[string]string{}

func readNestedGolden(t *testing.T) []nestedAnswer {
	f, err := os.Open(nestedGolden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []nestedAnswer
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		p := strings.Split(line, "\t")
		if len(p) != 5 {
			t.Fatalf("%s: bad line %q", nestedGolden, line)
		}
		n, err := strconv.ParseInt(p[3], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, nestedAnswer{file: p[0], col: p[1], typ: p[2], nonNull: n, md5: p[4]})
	}
	return out
}

// writeNestedGolden asks DuckDB about every nested column of every file it
// reads.
func writeNestedGolden(t *testing.T, dir string) {
	duck := os.Getenv("DUCK")
	if duck == "" {
		duck = "/work/bin/duck"
	}
	run := func(sql string) []string {
		out, err := exec.Command(duck, "-c", sql).Output()
		if err != nil {
			return nil // a file DuckDB does not read
		}
		return strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	}
	var b strings.Builder
	b.WriteString("# DuckDB 1.5's nested columns of ../shared/parquet-testing/files:\n")
	b.WriteString("# file, column, type, count(col), md5 of CAST(col AS VARCHAR) (NULL as NULL, newline-joined, file order)\n")
	b.WriteString("# made by go test -run TestCorpusNested -update-duckdb\n")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.parquet"))
	for _, p := range paths {
		q := strings.ReplaceAll(p, "'", "''")
		for _, line := range run(fmt.Sprintf("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '%s')", q)) {
			nt := strings.SplitN(line, "\t", 2)
			if len(nt) != 2 || !isNestedTypeName(nt[1]) {
				continue
			}
			col := `"` + strings.ReplaceAll(nt[0], `"`, `""`) + `"`
			res := run(fmt.Sprintf("SET threads=1; SELECT count(%s), md5(coalesce(string_agg(coalesce(CAST(%s AS VARCHAR), 'NULL'), chr(10)), '')) FROM '%s'", col, col, q))
			if len(res) != 1 {
				continue
			}
			cm := strings.Split(res[0], "\t")
			fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\n", filepath.Base(p), nt[0], nt[1], cm[0], cm[1])
		}
	}
	if err := os.WriteFile(nestedGolden, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func isNestedTypeName(s string) bool {
	return strings.HasSuffix(s, "]") || strings.HasPrefix(s, "STRUCT(") || strings.HasPrefix(s, "MAP(")
}
