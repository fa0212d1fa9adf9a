// Package ast is the syntax tree of b2sql's DuckDB dialect, built by
// package sql/parser.
//
// # Spans
//
// Every node embeds a Span: the byte range [Start, End) of the text it was
// parsed from, as offsets into the whole script (not into one statement),
// so that an error about a node can point at exactly its text; LineCol
// turns an offset into a 1-based line and column (in runes). A node's span
// covers its children: a Binary spans from its left operand to its right
// one, a Func from its name to its last clause (OVER …), a SelectItem from
// its expression to its alias. Parentheses around an expression belong to
// no node: (a + b) is the Binary of a + b, and its span excludes them.
// Nodes the parser makes up have an empty span at the place they stand
// for: the * of a bare FROM t, the function name "timezone" of x AT TIME
// ZONE z.
//
// # Normal forms
//
// Syntax that means the same is one node: x::T and CAST(x AS T) are a
// Cast; FROM t SELECT a, SELECT a FROM t and FROM t (SELECT *) are a
// Select; OVER w and OVER (w) a Window with Base w; EXTRACT, POSITION,
// SUBSTRING, TRIM, OVERLAY and AT TIME ZONE become the calls DuckDB
// makes of them (see Func); == is =, != is <>, ** is ^, SOME is ANY;
// * EXCEPT (…) is * EXCLUDE (…); GROUP BY a WITH ROLLUP is GROUP BY
// ROLLUP (a); the PIVOT statement is SELECT * FROM (PIVOT …), and the SQL
// standard t PIVOT (…) / t UNPIVOT (…) the same Pivot node as DuckDB's
// own form.
//
// # Printing
//
// Format prints a tree back as SQL. The text parses to an Equal tree
// (Equal ignores spans): every compound expression is parenthesized, so
// the text shows the tree's shape, and identifiers keep their quoting.
// The round trip is tested over the SQL of every test file the
// repository can read (sql/parser's TestRoundTripCorpus) and fuzzed
// (FuzzParse).
//
// # Files
//
// The printer is one recursion split by construct: statements
// (format_stmt.go, format_unsupported.go) print their expressions through
// format.go, which prints subqueries through the statement printer
// (tests/filecycles_test.go allows at most 2 such pairs).
package ast
