// Package sql owns b2sql's SQL front end: splitting a script into
// statements (Split), parsing one statement (Parse), and binding a query
// against a planner.Catalog (Bind) into the bound logical plan of package
// planner, in which every name has become a ColID, every function a
// vocabulary entry (planner/functions.go) and every implicit conversion an
// explicit Cast. Nothing after Bind looks at names or SQL text.
//
// # Parsing
//
// Packages sql/parser and sql/ast hold b2sql's own DuckDB-dialect parser
// and syntax tree with byte spans, which parse the whole dialect. Parse
// (stmt_ast.go) parses every statement with it and builds SET, RESET,
// SHOW TABLES, DROP TABLE/VIEW/INDEX, CREATE INDEX, REINDEX, ATTACH,
// TRUNCATE, EXPLAIN [ANALYZE], DESCRIBE / SHOW t / SUMMARIZE, CREATE VIEW,
// PREPARE / EXECUTE / DEALLOCATE (prepare.go) and CREATE TEMP TABLE
// (temp_table.go) from the tree, and refuses MERGE, COMMENT ON and
// CREATE TRIGGER at their first word.
//
// Queries bind from the tree at the statement level (bind_query_ast.go)
// when every part of them has a case there (queryBindable): FROM tables,
// paths, views, WITH names, derived tables, VALUES, table functions
// (bind_tablefunc_ast.go) and joins of every kind but POSITIONAL and
// ASOF; subqueries (bind_subquery_ast.go); set operations and VALUES
// bodies (bind_setop_ast.go); WITH [RECURSIVE]; windows
// (bind_window_ast.go); GROUPING SETS (bind_grouping_ast.go); INTERVAL
// literals (bind_interval_ast.go). A nested query is a subtree bound by a
// child binder over its own span of the statement's tokens. The
// statement-level code shared with the vitess path takes neutral
// arguments (joinCond, winCall, orderRef, the bound rows of VALUES), and
// expressions reach the helpers written for vitess nodes wrapped as
// syntaxSrc.
//
// The rest — a handful of query shapes (POSITIONAL and ASOF joins,
// summarize() and duckdb_settings() in FROM, MySQL's GROUP_CONCAT …
// SEPARATOR, value functions without parentheses such as CURRENT_DATE,
// bitwise and <=> operators, LIKE … ESCAPE) and the writes (INSERT,
// UPDATE, DELETE, COPY, CREATE TABLE [AS]), whose hand parsers derive
// their queries as text — go on to the older path below through their
// own span of the text (parseLegacy; issue 15 moves them off it, and
// TestLegacyFallbacks counts what is left).
//
// On that path parsing is delegated to the vitess MySQL parser, which
// never leaves this package. The text is first lexed by our own lexer (lexer.go), and DuckDB
// syntax the MySQL grammar lacks is rewritten token by token (rewrite.go):
//
//	FROM 'x.parquet'          → FROM `x.parquet` (remembered as a path)
//	x::T, CAST/TRY_CAST(x AS T), DATE '…', TIMESTAMP '…', TIME '…'
//	                          → x COLLATE 'b2sql:cast:T' (COLLATE binds tightest)
//	a || b, a // b, a == b    → a | b, a DIV b, a = b
//	ILIKE                     → REGEXP (same precedence; REGEXP itself is rejected)
//	EXTRACT(part FROM x)      → date_part('part', x)
//	INTERVAL '1 day'          → INTERVAL '1 day' <no-unit marker>
//	NULLS FIRST|LAST, GROUP BY ALL, OFFSET without LIMIT
//	                          → removed or completed, remembered for Bind
//	                            (NULLS in a window's ORDER BY: by the
//	                            token of the window's "(")
//	RANGE … INTERVAL '1 day' PRECEDING
//	                          → INTERVAL '86400000000' MICROSECOND PRECEDING
//	GROUPS …, EXCLUDE TIES    → ROWS …, removed; both remembered by the
//	                            token of the window's "(" (bind_window_frame.go)
//	lag(x IGNORE NULLS) OVER  → lag(x) OVER, remembered by the OVER token
//	key, table, é, …          → `key`, … (identifiers MySQL reserves or cannot lex)
//	range(…) [AS] t(c)        → `range`(…) AS t (the column list remembered)
//	* EXCLUDE (a, b)          → * (the names remembered by the star's ordinal)
//	* REPLACE (e AS a)        → * (the list's tokens remembered, parsed by the binder)
//	ORDER BY ALL              → ORDER BY 1, remembered; bound as every select column
//	DISTINCT ON (e, …)        → DISTINCT, e remembered; bound as row_number()
//	                            OVER (PARTITION BY e ORDER BY …) = 1 (bind_distinct_on.go)
//	x IS NOT DISTINCT FROM y  → x <=> y; IS DISTINCT FROM: x <=> b2sql_is_distinct(y)
//	agg(x) FILTER (WHERE c)   → agg(x, 'b2sql:filter', c), bound as
//	                            agg(CASE WHEN c THEN x END) (bind_agg_filter.go)
//	QUALIFY cond              → removed; cond's tokens remembered and bound
//	                            as a Filter above the Window (bind_qualify.go)
//	x IN ()                   → x IN ('b2sql:empty_in'), FALSE (NOT IN: TRUE)
//	median(x) OVER …          → COUNT('b2sql:window:median', x) OVER … (any
//	                            function whose OVER the grammar lacks)
//	GROUP BY ROLLUP (a, b), CUBE (…), GROUPING SETS ((a, b), (a), ()),
//	GROUP BY a, b WITH ROLLUP → GROUP BY a, b (each key once, at its first
//	                            occurrence); the sets are remembered as
//	                            indexes into that list (rewrite_grouping.go)
//	[a, b], {'k': v}, MAP {…}, x[i], x[a:b], (x).f, x -> e, name := v,
//	CAST(x AS T[]) and the other nested-value syntax
//	                          → b2sql_ast(start, end, operands…), bound from
//	                            the syntax tree node with that byte span
//	                            (rewrite_nested.go, bind_ast_nested.go)
//	FROM (SELECT …) JOIN …    → FROM (SELECT …) AS unnamed_subquery JOIN …
//	                            (DuckDB's names for derived tables without an
//	                            alias; rewrite_derived.go)
//
// An offset map takes vitess' syntax-error positions back to the user's
// text. The vitess AST carries no positions, so binding errors are located
// by searching our tokens within the clause or select item being bound.
//
// The binder moves onto the syntax tree expression by expression
// (syntax_index.go, bind_ast.go): where the statement-level binder binds
// a clause expression (a select item, WHERE conjunct, HAVING, GROUP BY or
// ORDER BY item, JOIN … ON, QUALIFY) whose text is one expression of the
// statement's syntax tree, and every node of it has a case in bindAST
// (names, literals, ?, operators, IN lists, BETWEEN, LIKE, IS, CASE,
// casts, typed literals, plain calls), the expression is bound from the
// tree: its errors point at the node, and no marker string is read. The
// rest (subqueries, windows, FILTER, INTERVAL, …) still binds from vitess;
// TestBindFromSyntaxSamePlan checks that both paths give the same plan.
// SUMMARIZE x becomes SELECT * FROM summarize('x'), whose summary query the binder
// writes from x's schema (bind_summarize.go).
//
// # Supported SQL
//
// SELECT [DISTINCT] with *, t.*, expressions and aliases; FROM tables,
// paths or table functions (read_parquet, parquet_scan, read_b2, and the
// series range/generate_series, bind_tablefunc.go) with
// aliases, joined by commas, [INNER|CROSS|LEFT|RIGHT|FULL [OUTER]] JOIN
// with ON or USING, NATURAL [LEFT|RIGHT] JOIN (bind_join.go), SEMI and
// ANTI JOIN (the left rows with or without a match), or no FROM;
// WHERE; GROUP BY expressions, ordinals, aliases, ALL, GROUPING SETS,
// ROLLUP, CUBE, WITH ROLLUP, with grouping()/grouping_id() telling
// rolled-up NULLs from data NULLs (bind_grouping_sets.go: one aggregate
// per set under UNION ALL; count/sum/min/max/avg re-aggregate the finest set,
// computed once); HAVING; count(*), count([DISTINCT] x), sum, avg, min,
// max, arg_max/arg_min(arg, val) (max_by/min_by; ties: the first row
// seen); ORDER BY
// ordinals, aliases and expressions (hidden columns), ASC/DESC, NULLS
// FIRST/LAST; LIMIT/OFFSET constants. Select aliases may be used in WHERE,
// GROUP BY, HAVING, ORDER BY and later select items, as in DuckDB.
// Expressions: arithmetic, comparisons, AND/OR/NOT, [NOT] IN (list),
// [NOT] BETWEEN, [NOT] LIKE/ILIKE, IS [NOT] NULL/TRUE/FALSE, CASE, CAST,
// TRY_CAST, ::, COALESCE, NULLIF, ||, string, math and date functions,
// typed and interval literals.
//
// Derived tables (FROM (SELECT …) AS x [(cols)]), WITH (entries may use
// earlier ones; each reference binds anew, and the planner computes an
// entry used twice or more, or AS MATERIALIZED, once: planner/cte.go;
// AS NOT MATERIALIZED always inlines), WITH RECURSIVE (base UNION
// [ALL] step, bind_derived.go), views (planner.ViewCatalog), and
// UNION/INTERSECT/EXCEPT [ALL] with ORDER BY/LIMIT on the whole
// (bind_setop.go). On the vitess path each nested query is located in the
// text and parsed on its own, so its errors and column names come from
// its own tokens.
//
// Subqueries in WHERE and in a non-aggregating SELECT list become joins,
// never per-row re-execution (bind_subquery.go): EXISTS/IN conjuncts semi
// and anti joins, other IN/EXISTS NULL-aware mark joins, scalar subqueries
// single joins; correlated ones are decorrelated (correlated conjuncts of
// the subquery's WHERE become the join condition; a correlated aggregate
// is grouped and joined back; with GROUP BY/HAVING it is grouped by the
// correlation keys too, bind_subquery_group.go; ORDER BY … LIMIT becomes
// a row_number per correlation key, bind_subquery_limit.go; a correlated
// [NOT] IN counts matches and NULLs per outer binding,
// bind_subquery_in.go). A derived table reading an enclosing query's
// columns (LATERAL) is refused. Window functions (bind_window.go) in a
// select list or ORDER BY, with named windows (WINDOW w AS …, OVER w,
// OVER (w …), bind_window_named.go), ROWS and GROUPS frames, RANGE
// frames with numeric or INTERVAL offsets, EXCLUDE CURRENT ROW / GROUP /
// TIES / NO OTHERS, IGNORE NULLS for lag, lead, first_value, last_value
// and nth_value: ranking and navigation functions
// (row_number … nth_value) and every aggregate, DISTINCT and FILTER
// included (bind_window_aggs.go); QUALIFY and DISTINCT ON are windows
// too. TIMESTAMP ± an INTERVAL literal with months, quarters or years,
// or ± INTERVAL (n) MONTH / to_months(n), adds calendar months
// (interval_calendar.go).
// DML and other shapes are reported as ErrUnsupported at the construct.
//
// # Errors
//
// Every error is an *Error with a line:column inside the script and a Kind
// sentinel for errors.Is (ErrSyntax, ErrUnknownColumn, …); unknown names
// come with a "did you mean" hint.
//
// Typing follows DuckDB where the executor's vocabulary allows it; the
// decisions are listed in types.go.
package sql
