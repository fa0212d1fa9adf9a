// Package sql owns b2sql's SQL front end: splitting a script into
// statements (Split), parsing one statement (Parse), and binding a query
// against a planner.Catalog (Bind) into the bound logical plan of package
// planner, in which every name has become a ColID, every function call
// an entry of the function registry (package function; bind_func_hooks.go)
// or a special form (planner/functions.go), and every implicit conversion
// an explicit Cast. Nothing after Bind looks at names or SQL text.
//
// # Parsing
//
// Packages sql/parser and sql/ast hold b2sql's own DuckDB-dialect parser
// and syntax tree with byte spans, which parse the whole dialect. Parse
// (stmt.go) parses every statement with it and builds every Statement
// from the tree: queries, INSERT / UPDATE / DELETE (stmt_dml.go), COPY
// (stmt_copy.go), CREATE [TEMP] TABLE [AS] (stmt_create.go), SET, RESET,
// SHOW TABLES, DROP TABLE/VIEW/INDEX, CREATE INDEX, REINDEX, ATTACH /
// DETACH / USE (attach.go: ParseIn resolves the unqualified names of a
// statement's relations in the session's Path, the binder in its
// catalog's), TRUNCATE, EXPLAIN [ANALYZE], DESCRIBE / SHOW t / SUMMARIZE, CREATE
// VIEW, PREPARE / EXECUTE / DEALLOCATE (prepare.go). A statement the
// parser reads and b2sql does not run is refused at its first word; a
// parser error is returned as it is. CREATE/DROP SECRET (secret.go) are
// read from the tokens. The rows a write produces or addresses come from
// queries made of the statement's own nodes (UPDATE's values and
// condition become a select list over the table), so binding, typing and
// errors are those of SELECT.
//
// Queries bind from the tree (bind_query.go): FROM tables, paths, views,
// WITH names, derived tables, VALUES, table functions (bind_tablefunc.go)
// and joins of every kind but POSITIONAL and ASOF; subqueries
// (bind_subquery.go); set operations and VALUES bodies (bind_setop.go);
// WITH [RECURSIVE]; windows (bind_window.go); GROUPING SETS
// (bind_grouping_sets.go); INTERVAL literals (bind_interval.go). A nested
// query is a subtree bound by a child binder over its own span of the
// statement's tokens. A part of a query with no bind case is refused
// before anything binds, at the innermost node that has none
// (bind_check.go). The helpers for calls, casts, CASE and bitwise
// operators take sql/internal/callexpr nodes: the binder builds them over
// syntax tree operands wrapped as syntaxSrc, and the helpers bind each
// operand from the tree (bindExpr → bindAST); each callexpr node carries
// the span of the syntax it stands for. Error positions come from the
// nodes' spans only: nothing searches the text for a name or keyword.
// SUMMARIZE x becomes SELECT * FROM summarize('x'), whose summary query
// the binder writes from x's schema (bind_summarize.go).
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
// (bind_setop.go).
//
// Macros (CREATE MACRO, macro.go) are not bound: the engine rewrites a
// statement that calls them into its expansion before parsing it for
// binding (ExpandMacros, macro_expand.go), and maps the positions of its
// errors back to the statement as written.
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
// OVER (w …)), ROWS and GROUPS frames, RANGE
// frames with numeric or INTERVAL offsets, EXCLUDE CURRENT ROW / GROUP /
// TIES / NO OTHERS, IGNORE NULLS for lag, lead, first_value, last_value
// and nth_value: ranking and navigation functions
// (row_number … nth_value) and every aggregate, DISTINCT and FILTER
// included (bind_window_aggs.go); QUALIFY and DISTINCT ON are windows
// too. TIMESTAMP ± an INTERVAL literal with months, quarters or years,
// or ± INTERVAL (n) MONTH / to_months(n), adds calendar months
// (interval_calendar.go).
//
// # Errors
//
// Every error is an *Error with a line:column inside the script and a Kind
// sentinel for errors.Is (ErrSyntax, ErrUnknownColumn, …); unknown names
// come with a "did you mean" hint.
//
// Typing follows DuckDB where the executor's vocabulary allows it; the
// decisions are listed in types.go.
//
// # Files
//
// The binder's state (the binder type, the per-query states it holds and
// its error and table helpers) is in binder.go and the statement builder's
// in stmt_builder.go; neither needs another file. The binding itself is
// one recursion over the grammar, split by clause and construct
// (bind_ast.go and bind_expr.go dispatch expressions, bind_query.go
// relations and query bodies, and the files of each construct bind their
// parts through them again: subqueries, windows, aggregates, lateral,
// pivot, an aliased join, set operations, derived tables, COLLATE); the type
// rules recurse through nested types (types.go, types_nested.go), and
// timezone casts through the
// coercions (bind_timezone.go, coerce.go), and INSERT's ON CONFLICT
// clause (stmt_conflict.go) is built inside the INSERT (stmt_dml.go) it
// reads. These are the pairs of files that need each other:
// tests/filecycles_test.go allows at most 39.
package sql
