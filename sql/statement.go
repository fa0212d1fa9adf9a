package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// Statement is one parsed statement: *Query, *Explain, *Set, *Reset,
// *ShowTables or *Describe.
type Statement interface{ statement() }

// Query is a parsed query, ready for Bind: a syntax tree and the
// statement text it spans (a query inside a write statement spans part of
// it). Its tree is private to this package.
type Query struct {
	src  Source
	toks []token // the tokens of the query's span of src.Text
	// tree is the query's syntax tree (bind_query.go).
	tree *ast.Query
	// ptab numbers the parameter markers of the statement the query is
	// part of (params.go).
	ptab *paramTable
	// copyFrom is the file COPY … FROM reads: the query is SELECT * FROM
	// it (stmt_copy.go).
	copyFrom *FileCall
	// defaults binds DEFAULT in a row of the query's VALUES body, by its
	// place in the row (bind_default.go); nil outside INSERT.
	defaults func(k int) (planner.Expr, error)
	// targets are the types of the table columns an INSERT's VALUES
	// fill, by place in the row (bind_insert_values.go); nil outside
	// INSERT … VALUES.
	targets []columnar.Type
	// qualifiedOnly names a FROM element whose columns are read only
	// qualified (DO UPDATE's excluded: a bare name is the table's column).
	qualifiedOnly string
	// table: the query's rows make a table (CREATE TABLE … AS), whose
	// repeated column names are renamed as a subquery's are (dedupNames).
	table bool
}

// parsed reports whether q holds a query to bind.
func (q *Query) parsed() bool { return q != nil && q.tree != nil }

// Source returns the statement the query was parsed from.
func (q *Query) Source() Source { return q.src }

// Explain is EXPLAIN [ANALYZE] query, or EXPLAIN [ANALYZE] of a statement
// that writes (Write: an *Insert, *Update, *Delete, *Copy,
// *CreateTableAs, …; Query is then nil), whose plan is that of the query
// producing what it would write; the write itself never runs.
type Explain struct {
	Analyze bool
	Query   *Query
	Write   Statement
}

// Set is SET name = value (or SET name TO value). Name is lower case. Value
// is BIGINT or DOUBLE for numbers, BOOLEAN for true/false/on/off, VARCHAR
// for strings and other bare words.
type Set struct {
	Name  string
	Value columnar.Value
}

// Reset is RESET name (or SET name = DEFAULT); Name is lower case, "all"
// for RESET ALL.
type Reset struct{ Name string }

// ShowTables is SHOW TABLES.
type ShowTables struct{}

// Describe is DESCRIBE table or DESCRIBE query. For a table, Table is its
// name or path as written and Query is the equivalent SELECT * FROM table,
// so that binding it yields the columns to describe.
type Describe struct {
	Table string
	Query *Query
}

func (*Query) statement()      {}
func (*Explain) statement()    {}
func (*Set) statement()        {}
func (*Reset) statement()      {}
func (*ShowTables) statement() {}
func (*Describe) statement()   {}

// paramTable numbers a query's markers (see above).
type paramTable struct {
	num   map[int]int // a marker's start offset → its value's 1-based number
	first []int       // per value, the start offset of its first marker (-1: none)
	names []string    // named markers: the values' names; nil when numbered
	err   error       // markers both numbered and named
}
