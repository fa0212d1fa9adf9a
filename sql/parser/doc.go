// Package parser parses b2sql's SQL, DuckDB's dialect, into the syntax
// tree of package sql/ast: one lexer pass over the whole script
// (lexer.go), then a hand-written recursive-descent parser with
// precedence climbing for expressions. ParseScript splits a script at
// ';' (outside quotes and comments) and parses every statement; Parse
// takes exactly one; ParseExpr one expression.
//
// # Grammar
//
// Queries: [WITH [RECURSIVE] name [(cols)] [USING KEY (…)] AS [[NOT]
// MATERIALIZED] (query | INSERT/UPDATE/DELETE … RETURNING), …] then
// SELECT [ALL | DISTINCT [ON (…)]] items [FROM …] [WHERE] [GROUP BY
// exprs | ALL | GROUPING SETS / CUBE / ROLLUP / () | … WITH ROLLUP]
// [HAVING] [WINDOW w AS (…)] [QUALIFY] [USING SAMPLE …], FROM-first
// (FROM t [SELECT …] …) and bare FROM t, VALUES (…), …, TABLE t, PIVOT
// and UNPIVOT statements, parenthesized queries; UNION / EXCEPT (binding
// less tightly) and INTERSECT, each [ALL | DISTINCT] [BY NAME]; ORDER BY
// exprs | ALL [ASC | DESC] [NULLS FIRST | LAST]; LIMIT n | n% | ALL and
// OFFSET n in either order. Select items: expr [[AS] alias], alias: expr,
// trailing commas. FROM: tables and schema-qualified names (main.t,
// memory.main.t), file paths as strings, table functions with named
// arguments (name := v, name => v, and name = v as DuckDB reads it),
// subqueries, [LATERAL], VALUES lists, (DESCRIBE|SHOW|SUMMARIZE …),
// aliases with column lists, TABLESAMPLE, joins [NATURAL] [ASOF] INNER,
// LEFT, RIGHT, FULL [OUTER], CROSS, SEMI, ANTI, POSITIONAL with ON or
// USING (right-nested joins as PostgreSQL: a JOIN b JOIN c ON x ON y),
// parenthesized joins with an alias, PIVOT (… FOR … IN …) / UNPIVOT (…
// FOR … IN …) after a table and DuckDB's PIVOT/UNPIVOT in parentheses.
//
// Expressions: literals (numbers with _ separators, 0x/0b/0o integers,
// 'strings', E'escapes', $tag$dollar quoting$tag$, X'hex' blobs, TRUE,
// FALSE, NULL, DEFAULT), typed literals (DATE '…', TIMESTAMP '…', …),
// INTERVAL '1 day' / INTERVAL 3 DAY / INTERVAL (x) HOUR / … YEAR TO MONTH,
// parameters ?, ?1, $1, $name, positional #n, names a.b.c, calls with
// DISTINCT, ORDER BY, SEPARATOR (MySQL's group_concat), IGNORE / RESPECT
// NULLS, WITHIN GROUP, FILTER ([WHERE] …), EXPORT_STATE, OVER (window |
// name) with PARTITION BY, ORDER BY and ROWS/RANGE/GROUPS frames with
// EXCLUDE; method calls x.f(…); CAST, TRY_CAST and ::T with DuckDB types
// (DECIMAL(p, s), VARCHAR(n), INTEGER[] and [n], STRUCT(a INT, …),
// MAP(K, V), UNION(…), LIST(T), ENUM(…), DOUBLE PRECISION, TIMESTAMP
// WITH TIME ZONE, INTERVAL DAY TO SECOND); CASE; EXISTS, ARRAY(query),
// scalar subqueries; IN (list), IN (query), IN list-expression; op
// ANY/SOME/ALL (query or list); [NOT] LIKE, ILIKE, GLOB, SIMILAR TO with
// ESCAPE; [NOT] BETWEEN [SYMMETRIC]; IS [NOT] NULL/TRUE/FALSE/UNKNOWN/
// DISTINCT FROM, ISNULL, NOTNULL, NOT NULL; COLLATE; AT TIME ZONE; list
// [a, b], comprehension [x FOR v IN l IF c], struct {'k': v}, MAP {k: v}
// and row (a, b) constructors; subscripts l[i] and slices l[a:b:c];
// field access (s).a; lambdas x -> e, (x, y) -> e, LAMBDA x: e;
// COLUMNS(…) and *COLUMNS(…); * and t.* with EXCLUDE / EXCEPT, REPLACE,
// RENAME and LIKE; the special forms EXTRACT, POSITION, SUBSTRING, TRIM
// and OVERLAY … PLACING; every PostgreSQL-style operator (||, ~, !~,
// ~~, ^@, <<, &, |, #, @>, ->>, …).
//
// Statements: INSERT [OR REPLACE | OR IGNORE] INTO t [AS a] [BY NAME |
// BY POSITION] [(cols)] {query | DEFAULT VALUES} [ON CONFLICT [(cols)]
// DO NOTHING | DO UPDATE SET …] [RETURNING …] [WITH (options)], REPLACE
// INTO; UPDATE t [[AS] x] SET … [FROM …] [WHERE …] [RETURNING]; DELETE
// FROM t [[AS] x] [USING …] [WHERE …] [RETURNING]; TRUNCATE; CREATE [OR
// REPLACE] [TEMP] TABLE (columns with NOT NULL, NULL, PRIMARY KEY,
// UNIQUE, CHECK, DEFAULT, REFERENCES, COLLATE, GENERATED … AS (…), b2sql's
// USING flavour; table constraints) [WITH (options)] or AS query [WITH
// [NO] DATA], [RECURSIVE] VIEW, SEQUENCE with its options, SCHEMA,
// [UNIQUE] INDEX [name] ON t [USING kind] (keys) [USING kind], MACRO /
// FUNCTION (… AS expr | AS TABLE query), TYPE … AS type; DROP TABLE,
// VIEW, SEQUENCE, SCHEMA, INDEX (also b2sql's DROP INDEX ON t (col)),
// MACRO [TABLE], FUNCTION, TYPE [IF EXISTS] … [CASCADE | RESTRICT];
// ALTER TABLE|VIEW … ADD [COLUMN], DROP [COLUMN], RENAME [COLUMN] … TO,
// RENAME TO, ALTER [COLUMN] … TYPE / SET DEFAULT / DROP DEFAULT / SET
// NOT NULL / DROP NOT NULL, ADD constraint; COPY t [(cols)] TO | FROM
// target, COPY (query) TO target, with (options), WITH (options) or bare
// options, COPY FROM DATABASE a TO b; EXPLAIN [ANALYZE] [(options)]
// statement; SET [SESSION | GLOBAL | LOCAL | VARIABLE] name = | TO value
// | DEFAULT; RESET [scope] name | ALL; SHOW TABLES, SHOW ALL TABLES, SHOW
// DATABASES, SHOW t, SHOW COLUMNS FROM t, SHOW query; DESCRIBE and
// SUMMARIZE of a table, path, table function or query; ATTACH [OR
// REPLACE] [DATABASE] [IF NOT EXISTS] path [AS name] [(options)]; DETACH;
// USE; PRAGMA name [(args) | = value]; REINDEX [target [(col)]]; PREPARE
// name AS statement, EXECUTE name [(args)], DEALLOCATE [PREPARE] name |
// ALL; BEGIN / START TRANSACTION, COMMIT / END, ROLLBACK / ABORT;
// CHECKPOINT, FORCE CHECKPOINT, VACUUM, ANALYZE, LOAD, [FORCE] INSTALL,
// CALL f(…), EXPORT DATABASE, IMPORT DATABASE; MERGE INTO t [AS a] USING
// source ON cond WHEN [NOT] MATCHED [BY SOURCE | TARGET] [AND cond] THEN
// UPDATE [SET … | SET *] | DELETE | INSERT [(cols)] VALUES (…) | INSERT * |
// INSERT DEFAULT VALUES | DO NOTHING | ERROR [msg] … [RETURNING]; COMMENT
// ON kind name IS 'text' | NULL; SQLite's CREATE [TEMP] TRIGGER … BEGIN
// statement; … END, DROP TRIGGER, and NOT INDEXED / INDEXED BY name
// after a table. x LIKE ANY (…) is refused with DuckDB's reason.
//
// # Precedence
//
// Binding from loosest to tightest, as DuckDB's grammar (PostgreSQL's,
// with the lambda arrow below OR):
//
//	->  ->>                          left   (x -> e is a lambda when x is a name or a row of names)
//	OR                               left
//	AND                              left
//	NOT                              prefix
//	IS  ISNULL  NOTNULL  NOT NULL    postfix
//	=  <>  !=  <  >  <=  >=  ==      not associative (1 = 1 = true is an error, as in DuckDB)
//	[NOT] BETWEEN IN LIKE ILIKE GLOB SIMILAR TO
//	ESCAPE
//	any other operator (|| ~ ^@ << & …), prefix ones too (~x + 1 is ~(x + 1))
//	+  -                             left
//	*  /  //  %                      left
//	^  **                            left  (2 ^ 3 ^ 2 = 64)
//	AT TIME ZONE
//	COLLATE
//	unary -  +                       (-2 ^ 2 = 4)
//	[ ]  .  ::                       postfix, in the order written
//
// Keywords follow duckdb_keywords(): reserved words (SELECT, FROM, …)
// name nothing unless quoted or after AS or a dot; column-name keywords
// (INTERVAL, VALUES, …) name columns and tables but not functions or
// types; type/function keywords (LEFT, LIKE, MAP, …) name functions and
// types; unreserved keywords name anything but a select alias written
// without AS (DuckDB rejects SELECT 1 year).
//
// # Errors
//
// Every error is an *Error with the byte offset and line:column of the
// token it is about: "syntax error at or near "FROM"", followed, where it
// helps, by what was expected in parentheses (as the rest of b2sql's
// messages): "(expected an expression after "+")", "(expected ")")"; at
// the end of the input "syntax error at end of input (the statement is
// incomplete)" or what it still expected; an unterminated string, quoted
// identifier or comment is reported at its start. Some checks DuckDB's
// parser makes are made here too (worded as b2sql's binder words them
// where it made them first): VALUES lists of
// one length, no duplicate CTE names, no ORDER BY/LIMIT in a recursive
// UNION, no column twice in * EXCLUDE/REPLACE or in both, #n ≥ 1, IGNORE
// NULLS only with OVER, no INTERVAL unit ranges (YEAR TO MONTH), no
// empty ROLLUP/CUBE, no "" identifier. Nesting deeper than 1000 levels is an error, not
// a stack overflow.
//
// # Files
//
// The parser is one recursive-descent type split by grammar area
// (parser.go the token helpers, expr.go and call.go expressions, query.go
// queries, stmt.go, stmt_unsupported.go, dml.go and ddl.go statements, types.go
// type names). The grammar is mutually recursive (a query holds
// expressions that hold subqueries; a statement holds queries), so these
// files call each other both ways (tests/filecycles_test.go allows at
// most 11 pairs): one recursion, written in one file per area, as sqlparser-rs
// and PostgreSQL's grammar are.
package parser
