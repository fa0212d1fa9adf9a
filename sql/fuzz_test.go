package sql

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/b2sql/b2sql/internal/fuzzguard"
	"github.com/b2sql/b2sql/sql/parser/parsertest"
)

// FuzzParse checks that splitting, parsing and binding never panic and that
// every error is an *Error positioned inside the script.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"SELECT a, b + 1 AS x FROM t WHERE s = 'x' GROUP BY 1, x HAVING count(*) > 1 ORDER BY 2 DESC NULLS FIRST LIMIT 10 OFFSET 2",
		"SELECT * FROM 'data/events.parquet' WHERE kind ILIKE 'x%'",
		"SELECT CAST(a AS DECIMAL(10,2)), a::BIGINT, TRY_CAST(s AS DATE), DATE '2024-01-01', INTERVAL '1 day' FROM t",
		"SELECT EXTRACT(year FROM d), date_trunc('month', ts), s || 'x', a // 2 FROM t",
		"SELECT CASE WHEN a > 1 THEN 'x' ELSE NULL END, COALESCE(a, 0), a NOT IN (1, 2) FROM t",
		"SELECT pricee FROM t",
		"SELECT 1;\nSELECT x FROM t;",
		"EXPLAIN ANALYZE SELECT 1",
		"SET threads = 4; RESET threads; SHOW TABLES; DESCRIBE t",
		"SELECT 'é', \"a\"\"b\", `c` FROM read_parquet('x/*.parquet') AS e",
		"SELECT a FROM t WHERE",
		"SELECT /* c */ a -- d\nFROM t",
		"SELECT count(DISTINCT a) FROM t GROUP BY ALL",
		"SELECT a FROM t OFFSET 3",
		"SELECT key, t.table, é FROM t ORDER BY 1 NULLS LAST",
		"SELECT CAST(CAST(a AS INT) AS TEXT), a::decimal(10,2)::varchar FROM t",
		"SELECT round(price, 1), floor(price), 0.1 + 0.2 = 0.3, INTERVAL 3 DAY + d FROM t",
		"(SELECT a FROM t) UNION (SELECT b FROM t)",
		"SELECT sum(x) FROM (SELECT 1 AS x)",
		"SELECT a AS x FROM t WHERE x > 1 GROUP BY x HAVING x < 5 ORDER BY x + 1",
		"SELECT i, range FROM range(3) AS r(i), generate_series(DATE '2024-01-01', DATE '2024-02-01', INTERVAL 1 WEEK)",
		"SELECT median(a) OVER (PARTITION BY s), string_agg(DISTINCT s, ',') FILTER (WHERE a > 1) OVER (ORDER BY a) FROM t",
		"SELECT * EXCLUDE (a), t.* EXCLUDE s FROM t QUALIFY row_number() OVER (ORDER BY a) = 1 ORDER BY ALL DESC",
		"SELECT DISTINCT ON (s) s, a FROM t WHERE a IS DISTINCT FROM 1 AND a IN () ORDER BY s, a",
		"FROM t WHERE a IS NOT DISTINCT FROM NULL",
		"SUMMARIZE t; SHOW t; SHOW COLUMNS FROM t; SELECT d + INTERVAL (a) MONTH, regexp_matches(s, 'x', 'i') FROM t",
		"SELECT s, a, grouping(s, a), arg_max(s, a) FILTER (WHERE a > 1) FROM t GROUP BY GROUPING SETS ((s, a), s, ()), CUBE (a) HAVING grouping(a) = 0",
		"SELECT s, min_by(a, s) FROM (SELECT * FROM t GROUP BY ROLLUP ((s, a), a)) u GROUP BY s WITH ROLLUP",
		"SELECT arg_max(s, a) OVER w, sum(a) OVER (ORDER BY a GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES), lag(a IGNORE NULLS) OVER w, first_value(a) IGNORE NULLS OVER w FROM t WINDOW w AS (ORDER BY a ROWS 2 PRECEDING EXCLUDE CURRENT ROW)",
		"EXPLAIN INSERT INTO t SELECT * FROM t; EXPLAIN ANALYZE DELETE FROM t WHERE a = 1; EXPLAIN COPY t TO 'x.parquet'; EXPLAIN ATTACH 'd'",
	} {
		f.Add(s)
	}
	addTestSeeds(f, "../tests")
	cat := newCatalog()
	listing := listingBytes(f, cat)
	f.Fuzz(func(t *testing.T, script string) {
		g := fuzzguard.Start(t, len(script))
		defer g.Done()
		g.Allow(parseAllocPerByte * len(script))
		g.Allow(listing * strings.Count(strings.ToLower(script), "duckdb_functions"))
		check := func(err error) {
			if err == nil {
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%q: error %T %v is not *Error", script, err, err)
			}
			if !posInside(script, e.Pos) {
				t.Fatalf("%q: error %v outside the input", script, err)
			}
			if e.End != (Pos{}) && (!posInside(script, e.End) || e.End.Line < e.Pos.Line || e.End.Line == e.Pos.Line && e.End.Col < e.Pos.Col) {
				t.Fatalf("%q: error %v ends at %v, outside the input or before its start", script, err, e.End)
			}
		}
		for _, src := range append(Split(script), Source{Text: script}) {
			st, err := Parse(src)
			check(err)
			for _, q := range queriesOf(st) {
				_, err := Bind(q, cat)
				check(err)
			}
		}
	})
}

// posInside reports whether p lies in script: a line that exists, a column
// at most one past that line's last rune.
func posInside(script string, p Pos) bool {
	lines := strings.Split(script, "\n")
	if p.Line < 1 || p.Line > len(lines) || p.Col < 1 {
		return false
	}
	return p.Col <= utf8.RuneCountInString(lines[p.Line-1])+1
}

// parseAllocPerByte bounds what parsing and binding may allocate per
// input byte: a one-byte token can make an AST node, a bound expression
// and an error message of a hundred bytes and more each.
const parseAllocPerByte = 2048

// listingBytes is what binding one FROM duckdb_functions() allocates,
// twice over for the allocator's rounding: a row per overload of the
// function registry, a cost set by the registry and not by the input, which
// the input's budget allows once per mention.
func listingBytes(f *testing.F, cat *fakeCatalog) int {
	st, err := Parse(Source{Text: "SELECT * FROM duckdb_functions()"})
	if err != nil {
		f.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := Bind(st.(*Query), cat); err != nil {
		f.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return 2 * int(after.TotalAlloc-before.TotalAlloc)
}

// queriesOf lists the queries a statement binds: a query's own, and those
// of the writes (their rows), EXPLAIN, DESCRIBE and EXECUTE.
func queriesOf(st Statement) []*Query {
	var out []*Query
	switch st := st.(type) {
	case *Query:
		out = append(out, st)
	case *Explain:
		if st.Query != nil {
			out = append(out, st.Query)
		}
		out = append(out, queriesOf(st.Write)...)
	case *Describe:
		out = append(out, st.Query)
	case *Insert:
		out = append(out, st.Query)
	case *Update:
		out = append(out, st.Query)
	case *Delete:
		out = append(out, st.Where)
	case *Copy:
		out = append(out, st.Query)
	case *CreateTableAs:
		out = append(out, st.Query)
	case *CreateView:
		out = append(out, st.Query)
	case *Execute:
		out = append(out, st.Args)
	case *Prepare:
		out = append(out, queriesOf(st.Stmt)...)
	}
	return slices.DeleteFunc(out, func(q *Query) bool { return q == nil })
}

// addTestSeeds adds every statement of the .test files under root as a
// seed (the SQL the engine is tested with), when root is there.
func addTestSeeds(f *testing.F, root string) {
	recs, err := parsertest.Records(root)
	if err != nil {
		f.Logf("no seeds from %s: %v", root, err)
		return
	}
	for _, r := range recs {
		f.Add(r.SQL)
	}
}
