package parser_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/parser"
)

// TestPrecedence checks the binding of operators against DuckDB's
// (PostgreSQL's) table: the printer parenthesizes every compound
// expression, so the text shows the tree. Where the grouping changes the
// value, the value DuckDB 1.5 gives is in the comment.
func TestPrecedence(t *testing.T) {
	cases := []struct{ in, want string }{
		{"1 + 2 * 3", "(1 + (2 * 3))"},
		{"10 - 2 - 3", "((10 - 2) - 3)"}, // 5
		{"2 ^ 3 ^ 2", "((2 ^ 3) ^ 2)"},   // 64
		{"2 * 3 ^ 2", "(2 * (3 ^ 2))"},   // 18
		{"-2 ^ 2", "((- 2) ^ 2)"},        // 4: unary minus binds tighter than ^
		{"- x :: INT", "(- CAST(x AS INT))"},
		{"x :: INT [] ", "CAST(x AS INT[])"},
		{"l[1]::VARCHAR || 'x'", "(CAST(l[1] AS VARCHAR) || 'x')"}, // 2x
		{"5 // 2 * 2", "((5 // 2) * 2)"},                           // 4
		{"3 % 2 * 2", "((3 % 2) * 2)"},                             // 2
		{"2 ** 3", "(2 ^ 3)"},
		{"2 + 3 || 'a'", "((2 + 3) || 'a')"},                 // 5a
		{"'x' || 1 + 1", "('x' || (1 + 1))"},                 // x2
		{"1 << 2 + 1", "(1 << (2 + 1))"},                     // 8
		{"~1 + 1", "(~ (1 + 1))"},                            // -3: a prefix operator takes what binds tighter than operators
		{"'ab' LIKE 'a' || '%'", "('ab' LIKE ('a' || '%'))"}, // true
		{"a = b LIKE c", "(a = (b LIKE c))"},
		{"a || b NOT ILIKE c ESCAPE d", "((a || b) NOT ILIKE c ESCAPE d)"},
		{"a < b IS NULL", "((a < b) IS NULL)"},
		{"a IS NOT DISTINCT FROM b = c", "(a IS NOT DISTINCT FROM (b = c))"},
		{"NOT a = b", "(NOT (a = b))"},
		{"NOT a AND b", "((NOT a) AND b)"},
		{"a OR b AND c", "(a OR (b AND c))"},
		{"a AND NOT b OR c", "((a AND (NOT b)) OR c)"},
		{"a BETWEEN 1 AND 2 AND c", "((a BETWEEN 1 AND 2) AND c)"},
		{"a BETWEEN 1 + 1 AND 2 = true", "((a BETWEEN (1 + 1) AND 2) = TRUE)"},
		{"a NOT BETWEEN SYMMETRIC 2 AND 1", "(a NOT BETWEEN SYMMETRIC 2 AND 1)"},
		{"x IN (1, 2) = y", "((x IN (1, 2)) = y)"},
		{"a GLOB 'x*' OR a SIMILAR TO 'y' ", "((a GLOB 'x*') OR (a SIMILAR TO 'y'))"},
		{"a ~ 'x' AND a !~ 'y'", "((a ~ 'x') AND (a !~ 'y'))"},
		{"a ^@ 'x'", "(a ^@ 'x')"},
		{"a COLLATE nocase || b", "((a COLLATE nocase) || b)"},
		{"-a COLLATE nocase", "((- a) COLLATE nocase)"},
		{"ts AT TIME ZONE 'UTC' + i", "(timezone('UTC', ts) + i)"},
		{"x -> x + 1", "(LAMBDA x: (x + 1))"},
		{"(x, y) -> x + y > 2 OR y", "(LAMBDA x, y: (((x + y) > 2) OR y))"},
		{"j -> 'a'", "(LAMBDA j: 'a')"},
		{"j.k -> 'a'", "(j.k -> 'a')"},
		{"j ->> 'a' = 'b' ", "(LAMBDA j: ('a' = 'b'))"[0:0] + "(j ->> ('a' = 'b'))"},
		{"a = ANY (SELECT 1)", "(a = ANY (SELECT 1))"},
		{"a > ALL ([1, 2])", "(a > ALL ([1, 2]))"},
		{"a == b", "(a = b)"},
		{"a != b", "(a <> b)"},
		{"x ISNULL OR y NOTNULL OR z NOT NULL", "(((x IS NULL) OR (y IS NOT NULL)) OR (z IS NOT NULL))"},
		{"a*-1", "(a * (- 1))"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			e, err := parser.ParseExpr(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := ast.Format(e); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestComparisonsDoNotAssociate: DuckDB rejects 1 = 1 = true.
func TestComparisonsDoNotAssociate(t *testing.T) {
	_, err := parser.ParseExpr("1 = 1 = true")
	if err == nil || !strings.Contains(err.Error(), `line 1:7: syntax error at or near "="`) {
		t.Fatalf("got %v", err)
	}
}

// TestConstructs parses one statement per construct and checks the tree
// through its formatted text (written by hand).
func TestConstructs(t *testing.T) {
	cases := []struct{ in, want string }{
		// literals and expressions
		{"SELECT [1, 2, 3], [], {'a': 1, b: 'x'}, MAP {'k': 1}", "SELECT [1, 2, 3], [], {'a': 1, b: 'x'}, MAP {'k': 1}"},
		{"SELECT l[1], l[2:3], l[:2], l[2:], l[1:5:2], s.a.b, (s).a, l[1].f", "SELECT l[1], l[2 : 3], l[ : 2], l[2 : ], l[1 : 5 : 2], s.a.b, (s).a, (l[1]).f"},
		{"SELECT list_transform(l, x -> x * 2), list_filter(l, lambda x: x > 1)", "SELECT list_transform(l, (LAMBDA x: (x * 2))), list_filter(l, (LAMBDA x: (x > 1)))"},
		{"SELECT COLUMNS('a.*'), *COLUMNS(* EXCLUDE (b)) FROM t", "SELECT COLUMNS('a.*'), *COLUMNS(* EXCLUDE (b)) FROM t"},
		{"SELECT * EXCLUDE (x, t.b) REPLACE (a + 1 AS a) RENAME (c AS d) FROM t", "SELECT * EXCLUDE (x, t.b) REPLACE ((a + 1) AS a) RENAME (c AS d) FROM t"},
		{"SELECT * EXCEPT (a) FROM t", "SELECT * EXCLUDE (a) FROM t"},
		{"SELECT * LIKE 'a%' FROM t", "SELECT * LIKE 'a%' FROM t"},
		{"SELECT t.* FROM t", "SELECT t.* FROM t"},
		{"SELECT a SIMILAR TO 'x', a GLOB 'y', a ILIKE 'z' ESCAPE '!'", "SELECT (a SIMILAR TO 'x'), (a GLOB 'y'), (a ILIKE 'z' ESCAPE '!')"},
		{"SELECT OVERLAY(s PLACING 'x' FROM 2 FOR 3), POSITION('b' IN s), SUBSTRING(s FROM 2 FOR 1), TRIM(LEADING 'x' FROM s), EXTRACT(year FROM d)",
			"SELECT overlay(s, 'x', 2, 3), position('b' IN s), substring(s, 2, 1), ltrim(s, 'x'), date_part('year', d)"},
		{"SELECT CAST(a AS DECIMAL(10, 2)), TRY_CAST(b AS INTEGER[]), c::STRUCT(a INT, b MAP(VARCHAR, DOUBLE)), d::DOUBLE PRECISION, e::TIMESTAMP WITH TIME ZONE",
			"SELECT CAST(a AS DECIMAL(10, 2)), TRY_CAST(b AS INTEGER[]), CAST(c AS STRUCT(a INT, b MAP(VARCHAR, DOUBLE))), CAST(d AS DOUBLE PRECISION), CAST(e AS TIMESTAMP WITH TIME ZONE)"},
		{"SELECT INTERVAL '1 day', INTERVAL 3 DAY, INTERVAL (x) HOUR, DATE '2024-01-01'",
			"SELECT INTERVAL '1 day', INTERVAL 3 DAY, INTERVAL (x) HOUR, DATE '2024-01-01'"},
		{"SELECT struct_pack(a := 1, b := 2), ?, $1, $name, #2, X'41', E'a\\nb'", "SELECT struct_pack(a := 1, b := 2), ?, $1, $name, #2, X'41', 'a\nb'"},
		{"SELECT count(*) FILTER (WHERE a > 1), string_agg(s, ',' ORDER BY s DESC), percentile_cont(0.5) WITHIN GROUP (ORDER BY x), first(x) FILTER (a) FROM t",
			"SELECT count(*) FILTER (WHERE (a > 1)), string_agg(s, ',' ORDER BY s DESC), percentile_cont(0.5) WITHIN GROUP (ORDER BY x), first(x) FILTER (WHERE a) FROM t"},
		{"SELECT sum(DISTINCT x), lag(x IGNORE NULLS) OVER (PARTITION BY g ORDER BY t ROWS BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM t",
			"SELECT sum(DISTINCT x), lag(x) IGNORE NULLS OVER (PARTITION BY g ORDER BY t ROWS BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM t"},
		{"SELECT CASE WHEN a THEN 1 ELSE 2 END, CASE a WHEN 1 THEN 'x' END, EXISTS (SELECT 1), ARRAY(SELECT 1), (SELECT 1), a IN (), b NOT IN (SELECT 1)",
			"SELECT CASE WHEN a THEN 1 ELSE 2 END, CASE a WHEN 1 THEN 'x' END, EXISTS (SELECT 1), ARRAY (SELECT 1), (SELECT 1), (a IN ()), (b NOT IN (SELECT 1))"},
		{"SELECT (1, 2), ROW(1, 2), x: 42, 1 AS 'y', 2 \"z\"", "SELECT (1, 2), ROW(1, 2), 42 AS x, 1 AS \"y\", 2 AS \"z\""},
		{"SELECT [x * 2 FOR x IN l IF x > 1]", "SELECT [(x * 2) FOR x IN l IF (x > 1)]"},
		// queries
		{"FROM t SELECT a WHERE b", "SELECT a FROM t WHERE b"},
		{"FROM t", "SELECT * FROM t"},
		{"VALUES (1, 'a'), (2, 'b')", "VALUES (1, 'a'), (2, 'b')"},
		{"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r), m AS MATERIALIZED (SELECT 2) SELECT * FROM r, m",
			"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT (n + 1) FROM r), m AS MATERIALIZED (SELECT 2) SELECT * FROM r, m"},
		{"SELECT a FROM t UNION ALL BY NAME SELECT a FROM u INTERSECT SELECT a FROM v ORDER BY ALL LIMIT 10% OFFSET 2",
			"SELECT a FROM t UNION ALL BY NAME SELECT a FROM u INTERSECT SELECT a FROM v ORDER BY ALL LIMIT 10% OFFSET 2"},
		{"SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b DESC NULLS FIRST LIMIT ALL",
			"SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b DESC NULLS FIRST LIMIT ALL"},
		{"SELECT g, sum(x) FROM t GROUP BY GROUPING SETS ((g), (), (g, h)), CUBE (a, b), ROLLUP (c) HAVING sum(x) > 1",
			"SELECT g, sum(x) FROM t GROUP BY GROUPING SETS (g, (), (g, h)), CUBE (a, b), ROLLUP (c) HAVING (sum(x) > 1)"},
		{"SELECT g, sum(x) FROM t GROUP BY * ORDER BY * DESC",
			"SELECT g, sum(x) FROM t GROUP BY ALL ORDER BY ALL DESC"},
		{"SELECT g FROM t GROUP BY ALL WINDOW w AS (ORDER BY g) QUALIFY row_number() OVER w = 1",
			"SELECT g FROM t GROUP BY ALL WINDOW w AS (ORDER BY g) QUALIFY (row_number() OVER w = 1)"},
		{"SELECT g FROM t GROUP BY g WITH ROLLUP", "SELECT g FROM t GROUP BY ROLLUP (g)"},
		{"SELECT * FROM t USING SAMPLE 10%", "SELECT * FROM t USING SAMPLE 10%"},
		{"SELECT * FROM t USING SAMPLE reservoir(50 ROWS) REPEATABLE (42)", "SELECT * FROM t USING SAMPLE reservoir(50 ROWS) REPEATABLE (42)"},
		{"SELECT * FROM t TABLESAMPLE 5% (bernoulli, 3)", "SELECT * FROM t TABLESAMPLE bernoulli(5%) REPEATABLE (3)"},
		{"SELECT * FROM a SEMI JOIN b USING (k) ANTI JOIN c ON a.k = c.k POSITIONAL JOIN d ASOF LEFT JOIN e ON a.t >= e.t CROSS JOIN f NATURAL JOIN g",
			"SELECT * FROM a SEMI JOIN b USING (k) ANTI JOIN c ON (a.k = c.k) POSITIONAL JOIN d ASOF LEFT JOIN e ON (a.t >= e.t) CROSS JOIN f NATURAL INNER JOIN g"},
		{"SELECT * FROM t, LATERAL (SELECT t.a) s(x), range(3) r, 'data.parquet' p, memory.main.t m",
			"SELECT * FROM t, LATERAL (SELECT t.a) AS s(x), range(3) AS r, 'data.parquet' AS p, memory.main.t AS m"},
		{"SELECT * FROM read_csv('x.csv', header = true, sep := ',')", "SELECT * FROM read_csv('x.csv', header := TRUE, sep := ',')"},
		{"SELECT * FROM a JOIN b JOIN c ON x ON y", "SELECT * FROM a INNER JOIN (b INNER JOIN c ON x) ON y"},
		{"SELECT * FROM (a JOIN b USING (k)) j", "SELECT * FROM (a INNER JOIN b USING (k)) AS j"},
		{"SELECT * FROM VALUES (1), (2) v(a)", "SELECT * FROM (VALUES (1), (2)) AS v(a)"},
		{"PIVOT t ON y IN (2020, 2021 AS b) USING sum(x) AS s GROUP BY g ORDER BY g", "SELECT * FROM (PIVOT t ON y IN (2020, 2021 AS b) USING sum(x) AS s GROUP BY g) ORDER BY g"},
		{"UNPIVOT t ON (a, b) AS ab, c INTO NAME n VALUE v1, v2", "SELECT * FROM (UNPIVOT t ON (a, b) AS ab, c INTO NAME n VALUE v1, v2)"},
		{"SELECT * FROM t PIVOT (sum(x) FOR y IN ('a', 'b') GROUP BY g) p", "SELECT * FROM (PIVOT t ON y IN ('a', 'b') USING sum(x) GROUP BY g) AS p"},
		{"SELECT * FROM t UNPIVOT INCLUDE NULLS (v FOR n IN (a, b))", "SELECT * FROM (UNPIVOT INCLUDE NULLS t ON a, b INTO NAME n VALUE v)"},
		{"TABLE t", "SELECT * FROM t"},
		// DML
		{"INSERT OR REPLACE INTO main.t BY NAME SELECT 1 AS a", "INSERT OR REPLACE INTO main.t BY NAME SELECT 1 AS a"},
		{"INSERT INTO t (a, b) VALUES (1, DEFAULT) ON CONFLICT (a) DO UPDATE SET b = excluded.b WHERE b > 0 RETURNING *",
			"INSERT INTO t (a, b) VALUES (1, DEFAULT) ON CONFLICT (a) DO UPDATE SET b = excluded.b WHERE (b > 0) RETURNING *"},
		{"INSERT INTO t DEFAULT VALUES", "INSERT INTO t DEFAULT VALUES"},
		{"REPLACE INTO t VALUES (1)", "INSERT OR REPLACE INTO t VALUES (1)"},
		{"UPDATE t AS x SET a = u.a, b = 2 FROM u WHERE x.k = u.k RETURNING a", "UPDATE t AS x SET a = u.a, b = 2 FROM u WHERE (x.k = u.k) RETURNING a"},
		{"DELETE FROM t AS x USING u WHERE x.k = u.k", "DELETE FROM t AS x USING u WHERE (x.k = u.k)"},
		{"TRUNCATE TABLE t", "TRUNCATE t"},
		{"WITH s AS (SELECT 1) DELETE FROM t WHERE a IN (SELECT * FROM s)", "WITH s AS (SELECT 1) DELETE FROM t WHERE (a IN (SELECT * FROM s))"},
		// DDL
		{"CREATE OR REPLACE TEMP TABLE IF NOT EXISTS t (a INTEGER NOT NULL PRIMARY KEY, b VARCHAR(10) DEFAULT 'x' CHECK (b <> ''), c INT USING dict, PRIMARY KEY (a, b))",
			"CREATE OR REPLACE TEMP TABLE IF NOT EXISTS t (a INTEGER NOT NULL PRIMARY KEY, b VARCHAR(10) DEFAULT 'x' CHECK ((b <> '')), c INT USING dict, PRIMARY KEY (a, b))"},
		{"CREATE TABLE t AS SELECT 1", "CREATE TABLE t AS SELECT 1"},
		{"CREATE VIEW v (x) AS SELECT 1", "CREATE VIEW v (x) AS SELECT 1"},
		{"CREATE SEQUENCE s START WITH 10 INCREMENT BY -1 NO CYCLE", "CREATE SEQUENCE s START 10 INCREMENT -1 NO CYCLE"},
		{"CREATE SCHEMA IF NOT EXISTS memory.s", "CREATE SCHEMA IF NOT EXISTS memory.s"},
		{"CREATE UNIQUE INDEX i ON t USING summary (a, b DESC)", "CREATE UNIQUE INDEX i ON t USING summary (a, b DESC)"},
		{"CREATE INDEX ON t (a) USING full", "CREATE INDEX ON t USING full (a)"},
		{"CREATE MACRO add(a, b := 1) AS a + b", "CREATE MACRO add(a, b := 1) AS (a + b)"},
		{"CREATE OR REPLACE TEMP FUNCTION IF NOT EXISTS f(a INTEGER, b VARCHAR := 'x') AS a, (a) AS a * 2",
			"CREATE OR REPLACE TEMP MACRO IF NOT EXISTS f(a INTEGER, b VARCHAR := 'x') AS a, (a) AS (a * 2)"},
		{"CREATE MACRO tm(n, s := 1) AS TABLE SELECT * FROM range(n)", "CREATE MACRO tm(n, s := 1) AS TABLE SELECT * FROM range(n)"},
		{"CREATE TYPE mood AS ENUM ('sad', 'happy')", "CREATE TYPE mood AS ENUM('sad', 'happy')"},
		{"DROP TABLE IF EXISTS a, main.b CASCADE", "DROP TABLE IF EXISTS a, main.b CASCADE"},
		{"DROP INDEX ON t (a)", "DROP INDEX ON t (a)"},
		{"SELECT group_concat(x) FROM t1 NOT INDEXED, t2 AS b INDEXED BY i", "SELECT group_concat(x) FROM t1 NOT INDEXED, t2 AS b INDEXED BY i"},
		{"CREATE TEMP TRIGGER IF NOT EXISTS r BEFORE UPDATE OF a, b ON t1 FOR EACH ROW WHEN new.a > 1 BEGIN INSERT INTO t2 VALUES (1); DELETE FROM t3; END",
			"CREATE TEMP TRIGGER IF NOT EXISTS r BEFORE UPDATE OF a, b ON t1 FOR EACH ROW WHEN (new.a > 1) BEGIN INSERT INTO t2 VALUES (1); DELETE FROM t3; END"},
		{"CREATE TRIGGER t1r1 UPDATE ON t1 BEGIN SELECT 1; END", "CREATE TRIGGER t1r1 UPDATE ON t1 BEGIN SELECT 1; END"},
		{"DROP TRIGGER IF EXISTS t1r1", "DROP TRIGGER IF EXISTS t1r1"},
		{"MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = s.b WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)",
			"MERGE INTO t USING s ON (t.a = s.a) WHEN MATCHED THEN UPDATE SET b = s.b WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)"},
		{"WITH q AS (SELECT 1 AS a) MERGE INTO t x USING q ON x.a = q.a WHEN MATCHED AND x.b > 1 THEN DELETE WHEN NOT MATCHED BY SOURCE THEN UPDATE SET * WHEN NOT MATCHED BY TARGET THEN INSERT * WHEN MATCHED THEN ERROR 'boom' RETURNING *",
			"WITH q AS (SELECT 1 AS a) MERGE INTO t AS x USING q ON (x.a = q.a) WHEN MATCHED AND (x.b > 1) THEN DELETE WHEN NOT MATCHED BY SOURCE THEN UPDATE SET * WHEN NOT MATCHED BY TARGET THEN INSERT * WHEN MATCHED THEN ERROR 'boom' RETURNING *"},
		{"MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DO NOTHING WHEN NOT MATCHED THEN INSERT DEFAULT VALUES",
			"MERGE INTO t USING s ON (t.a = s.a) WHEN MATCHED THEN DO NOTHING WHEN NOT MATCHED THEN INSERT DEFAULT VALUES"},
		{"COMMENT ON TABLE main.t IS 'x'", "COMMENT ON TABLE main.t IS 'x'"},
		{"COMMENT ON COLUMN t.a IS NULL", "COMMENT ON COLUMN t.a IS NULL"},
		{"ALTER TABLE t ADD COLUMN c INTEGER DEFAULT 0", "ALTER TABLE t ADD COLUMN c INTEGER DEFAULT 0"},
		{"ALTER TABLE t RENAME COLUMN a TO b", "ALTER TABLE t RENAME COLUMN a TO b"},
		{"ALTER TABLE t ALTER c TYPE BIGINT USING c * 2", "ALTER TABLE t ALTER COLUMN c TYPE BIGINT USING (c * 2)"},
		// other statements
		{"COPY (SELECT 1) TO 'x.parquet' (FORMAT parquet, COMPRESSION zstd)", "COPY (SELECT 1) TO 'x.parquet' (FORMAT parquet, COMPRESSION zstd)"},
		{"COPY t FROM 'x.csv' (HEADER, DELIMITER '|')", "COPY t FROM 'x.csv' (HEADER, DELIMITER '|')"},
		{"COPY t TO ? WITH (FORMAT csv)", "COPY t TO ? (FORMAT csv)"},
		{"EXPLAIN ANALYZE SELECT 1", "EXPLAIN ANALYZE SELECT 1"},
		{"EXPLAIN INSERT INTO t SELECT 1", "EXPLAIN INSERT INTO t SELECT 1"},
		{"SET GLOBAL threads TO 4", "SET GLOBAL threads = 4"},
		{"SET pruning = off", "SET pruning = off"},
		{"RESET SESSION threads", "RESET SESSION threads"},
		{"RESET ALL", "RESET ALL"},
		{"SHOW TABLES", "SHOW TABLES"},
		{"SHOW ALL TABLES", "SHOW ALL TABLES"},
		{"SHOW t", "DESCRIBE TABLE t"},
		{"SHOW COLUMNS FROM t", "DESCRIBE TABLE t"},
		{"DESCRIBE SELECT 1", "DESCRIBE SELECT 1"},
		{"DESCRIBE 'x.parquet'", "DESCRIBE 'x.parquet'"},
		{"SUMMARIZE t", "SUMMARIZE TABLE t"},
		{"SUMMARIZE read_parquet('x')", "SUMMARIZE read_parquet('x')"},
		{"ATTACH 'dir' AS d (READ_ONLY)", "ATTACH DATABASE 'dir' AS d (READ_ONLY)"},
		{"DETACH d", "DETACH DATABASE d"},
		{"USE memory.main", "USE memory.main"},
		{"PRAGMA table_info('t')", "PRAGMA table_info('t')"},
		{"PRAGMA threads = 2", "PRAGMA threads = 2"},
		{"REINDEX t (a)", "REINDEX t (a)"},
		{"PREPARE q AS SELECT ?", "PREPARE q AS SELECT ?"},
		{"EXECUTE q(1, 'a')", "EXECUTE q(1, 'a')"},
		{"DEALLOCATE PREPARE q", "DEALLOCATE q"},
		{"BEGIN TRANSACTION", "BEGIN"},
		{"START TRANSACTION READ ONLY", "BEGIN TRANSACTION READ ONLY"},
		{"BEGIN READ WRITE", "BEGIN"},
		{"CHECKPOINT", "CHECKPOINT"},
		{"CALL pragma_version()", "CALL pragma_version()"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			st, err := parser.Parse(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := ast.Format(st); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if d := roundTrip([]ast.Stmt{st}); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestKeywordsAsNames: DuckDB's unreserved and column-name keywords name
// columns and tables; reserved ones only when quoted or after AS.
func TestKeywordsAsNames(t *testing.T) {
	ok := []string{
		"SELECT year, month, name, value, key, type FROM data",
		"SELECT interval, date, time FROM t",
		"SELECT 1 AS from, 2 AS select",
		"SELECT \"select\" FROM \"from\"",
		"SELECT t.from FROM t",
		"CREATE TABLE try_cast (try_cast INTEGER)",
		"SELECT columns.x FROM (SELECT 1 AS x) columns",
		"SELECT * FROM range(3) t(range)",
	}
	for _, q := range ok {
		if _, err := parser.Parse(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	bad := map[string]string{
		"SELECT 1 year":      `line 1:10: syntax error at or near "year"`,
		"SELECT select":      `line 1:8: syntax error at or near "select"`,
		"SELECT * FROM from": `line 1:15: syntax error at or near "from"`,
	}
	for q, want := range bad {
		_, err := parser.Parse(q)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want %s", q, err, want)
		}
	}
}

// TestErrors checks messages and positions (line:column, in runes).
func TestErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT 1 +", `line 1:11: syntax error at end of input (expected an expression after "+")`},
		{"SELECT 1 + FROM t", `line 1:12: syntax error at or near "FROM" (expected an expression after "+")`},
		{"SELECT a FROM t WHERE", `line 1:22: syntax error at end of input (expected an expression after "WHERE")`},
		{"SELECT 'abc", `line 1:8: unterminated quoted string`},
		{"SELECT 1\n  /* never closed", `line 2:3: unterminated comment`},
		{"SELECT \"x", `line 1:8: unterminated quoted identifier`},
		{"SELECT (1, 2", `line 1:13: syntax error at end of input (expected ")")`},
		{"SELECT f(1", `line 1:11: syntax error at end of input (expected ")")`},
		{"SELEC 1", `line 1:1: syntax error at or near "SELEC" (expected a statement)`},
		{"SELECT 1 FROM t t2 t3", `line 1:20: syntax error at or near "t3"`},
		{"SELECT é FROM t WHERE x = = 1", `line 1:27: syntax error at or near "=" (expected an expression after "=")`},
		{"SELECT 1;\nSELECT 2 +;", `line 2:11: syntax error at or near ";" (expected an expression after "+")`},
		{"SELECT a FROM t JOIN u", `line 1:23: syntax error at end of input (expected ON or USING)`},
		{"SELECT CASE WHEN a THEN 1", `line 1:26: syntax error at end of input (expected END)`},
		{"SELECT '1' YEAR", `line 1:12: syntax error at or near "YEAR"`},
		{"SELECT INTERVAL '2 10' YEARS TO MONTHS", `line 1:24: YEARS TO MONTHS is not supported`},
		{"SELECT * FROM (VALUES (1, 2), (3))", `line 1:31: VALUES rows have 2 and 1 columns`},
		{"WITH a AS (SELECT 1), A AS (SELECT 2) SELECT 1", `line 1:23: duplicate CTE name "A"`},
		{"SELECT position('b', 'abc')", `line 1:20: syntax error at or near "," (expected IN)`}, // DuckDB: syntax error at ","
		{"SELECT * EXCLUDE (i) REPLACE (i + 1 AS i) FROM t", `line 1:40: column "i" cannot occur in both EXCLUDE and REPLACE list`},
		{"SELECT sum(x IGNORE NULLS) FROM t", `line 1:14: IGNORE NULLS is only valid in a window function call`},
		{"SELECT * EXCLUDE (a, A) FROM t", `line 1:22: column "A" is excluded twice`},
		{"SELECT * REPLACE (1) FROM t", `line 1:19: REPLACE expects a list of expr AS column`},
		{"SELECT #0", `line 1:8: positional reference #0 must be at least #1`},
		{"SELECT 1 AS \"\"", `line 1:13: zero-length delimited identifier at or near "\"\""`},
		{"SELECT 1 GROUP BY ROLLUP ()", `line 1:26: ROLLUP needs at least one expression`},
		{"SELECT 'a' LIKE ANY (['a%'])", `line 1:17: LIKE ANY (…) is not DuckDB SQL: ANY and ALL take =, <>, <, <=, > or >= (write x LIKE p1 OR x LIKE p2)`},
		{"MERGE INTO t USING s ON t.a = s.a", `line 1:34: syntax error at end of input (expected WHEN)`},
		{"CREATE TRIGGER r AFTER TRUNCATE ON t BEGIN SELECT 1; END", `line 1:24: syntax error at or near "TRUNCATE" (expected DELETE, INSERT or UPDATE)`},
		{"COMMENT ON t IS 'x'", `line 1:12: syntax error at or near "t" (expected TABLE, VIEW, COLUMN, INDEX, SEQUENCE, SCHEMA, MACRO, FUNCTION, TYPE or DATABASE)`},
		{"SELECT x IS 3", `line 1:13: syntax error at or near "3" (expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS)`},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			_, err := parser.ParseScript(c.in)
			if err == nil || err.Error() != c.want {
				t.Errorf("got  %v\nwant %s", err, c.want)
			}
			pe, ok := err.(*parser.Error)
			if ok && (pe.Offset < 0 || pe.Offset > len(c.in)) {
				t.Errorf("offset %d outside the input", pe.Offset)
			}
		})
	}
}

// TestSpans checks that nodes carry their exact byte ranges in the script.
func TestSpans(t *testing.T) {
	src := "SELECT 1;\nSELECT a + f(b, 'x') AS c FROM main.t WHERE d::INT > 2"
	stmts, err := parser.ParseScript(src)
	if err != nil {
		t.Fatal(err)
	}
	q := stmts[1].(*ast.Query)
	sel := q.Body.(*ast.Select)
	text := func(n ast.Node) string { s := n.Extent(); return src[s.Start:s.End] }
	checks := []struct {
		n    ast.Node
		want string
	}{
		{stmts[0], "SELECT 1"},
		{q, "SELECT a + f(b, 'x') AS c FROM main.t WHERE d::INT > 2"},
		{sel.Items[0], "a + f(b, 'x') AS c"},
		{sel.Items[0].X, "a + f(b, 'x')"},
		{sel.Items[0].X.(*ast.Binary).R, "f(b, 'x')"},
		{sel.Items[0].X.(*ast.Binary).R.(*ast.Func).Args[1], "'x'"},
		{sel.Items[0].Alias, "c"},
		{sel.From[0], "main.t"},
		{sel.Where, "d::INT > 2"},
		{sel.Where.(*ast.Binary).L, "d::INT"},
		{sel.Where.(*ast.Binary).L.(*ast.Cast).Type, "INT"},
	}
	for _, c := range checks {
		if got := text(c.n); got != c.want {
			t.Errorf("span of %T: %q, want %q", c.n, got, c.want)
		}
	}
	l, col := ast.LineCol(src, sel.Where.Extent().Start)
	if l != 2 || col != 45 {
		t.Errorf("WHERE condition at %d:%d, want 2:45", l, col)
	}
}

// TestScript: statements split at ';' outside quotes and comments.
func TestScript(t *testing.T) {
	stmts, err := parser.ParseScript("SELECT ';'; -- a; comment\n;; /* ; */ SELECT 2;")
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 2 {
		t.Fatalf("%d statements, want 2", len(stmts))
	}
	if _, err := parser.Parse("SELECT 1; SELECT 2"); err == nil || !strings.Contains(err.Error(), "line 1:11: more than one statement") {
		t.Errorf("got %v", err)
	}
}

// TestSplitPieces: a statement parsed from the tokens of Split's one pass
// over the script has the tree (spans included) and the error of the same
// text parsed alone, and the pieces are the statements ParseScript finds.
func TestSplitPieces(t *testing.T) {
	script := " SELECT ';' AS a; -- a; comment\n;; /* ; */ SELECT 2 +\n FROM t;\n" +
		"SELECT $x$;$x$, 'é' /* /* ; */ */ ;CREATE TABLE t (a INT);SELECT 'open"
	pieces := parser.Split(script)
	texts := []string{"SELECT ';' AS a", "/* ; */ SELECT 2 +\n FROM t", "SELECT $x$;$x$, 'é' /* /* ; */ */ ",
		"CREATE TABLE t (a INT)", "SELECT 'open"}
	if len(pieces) != len(texts) {
		t.Fatalf("%d pieces, want %d", len(pieces), len(texts))
	}
	for i, p := range pieces {
		if p.Text != texts[i] || script[p.Start:p.Start+len(p.Text)] != p.Text {
			t.Errorf("piece %d: %q at %d, want %q", i, p.Text, p.Start, texts[i])
		}
		got, gerr := p.Parse()
		want, werr := parser.Parse(p.Text)
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("%q: from Split %v, %v; alone %v, %v", p.Text, got, gerr, want, werr)
		}
		lexed := p.Text
		if e, ok := p.Err().(*parser.Error); ok {
			lexed = p.Text[:e.Offset] // the tokens before the error
		}
		wantToks, _ := parser.Tokens(lexed)
		if !reflect.DeepEqual(p.Tokens(), wantToks) {
			t.Errorf("%q: tokens %v, want %v", p.Text, p.Tokens(), wantToks)
		}
	}
	if err := pieces[1].Err(); err != nil {
		t.Errorf("piece 1 lexes, got %v", err)
	}
	if err := pieces[4].Err(); fmt.Sprint(err) != "line 1:8: unterminated quoted string" {
		t.Errorf("last piece: got %v", err)
	}
}
