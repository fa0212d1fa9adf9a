package parser_test

import (
	"errors"
	"testing"

	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/parser"
	"github.com/b2sql/b2sql/sql/parser/parsertest"

	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// FuzzParse: parsing never panics, every error lies inside the input,
// and parse → Format → parse gives an Equal tree. Seeds: the constructs
// below and testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"SELECT a, b + 1 AS c FROM t WHERE x > 1 ORDER BY 1 LIMIT 10%",
		"FROM t SELECT [1, 2][1:2], {'a': 1}.a, x -> x + 1, COLUMNS(*), * EXCLUDE (a)",
		"WITH RECURSIVE r AS (SELECT 1 UNION ALL SELECT 2) SELECT * FROM r SEMI JOIN u USING (k)",
		"PIVOT t ON a IN (1, 2) USING sum(b) GROUP BY c",
		"INSERT INTO t BY NAME SELECT 1 ON CONFLICT DO NOTHING RETURNING *",
		"COPY (SELECT 1) TO 'x' (FORMAT parquet); SET threads = 2; EXPLAIN ANALYZE SELECT 1",
		"SELECT CAST(x AS STRUCT(a INT[], b MAP(VARCHAR, DECIMAL(10, 2)))), INTERVAL '1' DAY, DATE '2024-01-01'",
		"SELECT lag(x IGNORE NULLS) OVER (PARTITION BY g ORDER BY t ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES)",
		"SELECT 'unterminated", "/* open", "SELECT $$x$$, E'\\n', X'41', #1, ?, $1",
	} {
		f.Add(s)
	}
	// Every statement of the repository's .test files is a seed too.
	if recs, err := parsertest.Records("../../tests"); err == nil {
		for _, r := range recs {
			f.Add(r.SQL)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		g := fuzzguard.Start(t, len(src))
		defer g.Done()
		g.Allow(parseAllocPerByte * len(src)) // an AST node per token, twice (the round trip)
		stmts, err := parser.ParseScript(src)
		if err != nil {
			var pe *parser.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if pe.Offset < 0 || pe.Offset > len(src) {
				t.Fatalf("error offset %d outside the input (%d bytes): %v", pe.Offset, len(src), err)
			}
			return
		}
		for _, st := range stmts {
			if s := st.Extent(); s.Start < 0 || s.End > len(src) || s.Start > s.End {
				t.Fatalf("span %v outside the input", s)
			}
			text := ast.Format(st)
			again, err := parser.Parse(text)
			if err != nil {
				t.Fatalf("formatted text does not parse: %v\n%s\n%s", err, src, text)
			}
			if !ast.Equal(st, again) {
				t.Fatalf("round trip changed the tree:\n%s\n%s\n%s", src, text, ast.Format(again))
			}
		}
	})
}

// parseAllocPerByte bounds what parsing may allocate per input byte: a
// one-byte token can make an AST node of a hundred bytes and more.
const parseAllocPerByte = 2048
