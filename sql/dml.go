package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// Statements that change tables: CREATE TABLE with a column list, INSERT
// (and REPLACE INTO), DELETE and UPDATE (ATTACH is attach.go's). Their expressions are
// evaluated by queries made of the statement's own syntax tree nodes
// (stmt_dml.go), so binding, typing and errors are those of SELECT, with
// positions in the statement as written.

// CreateTable is CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name
// (column definitions [, table constraints]) [WITH (options)].
type CreateTable struct {
	Name        string
	NamePos     Pos
	Temp        bool // CREATE TEMP TABLE (an in-memory table: FORMAT memory)
	Replace     bool
	IfNotExists bool
	Cols        []ColumnDef
	// Keys are the PRIMARY KEY and UNIQUE column sets, by column index.
	Keys    [][]int
	Options []Option
}

// ColumnDef is one column of CREATE TABLE: name TYPE [NOT NULL | NULL |
// PRIMARY KEY | UNIQUE | CHECK (…) | USING flavour]…
type ColumnDef struct {
	Name string
	Pos  Pos
	Type columnar.Type
	// TypeRef is set when the type may name a CREATE TYPE type: Type is
	// then filled in when the statement runs (ResolveColumns).
	TypeRef *TypeRef
	Length  int // VARCHAR(n), BLOB(n): the max_length constraint; 0 = none
	NotNull bool
	// Checks are the CHECK bounds on the column: Op is "ge", "gt", "le"
	// or "lt", Val a BIGINT or DOUBLE constant.
	Checks []Check
	// Flavour is the storage asked for with USING (lower case), "" for
	// the default.
	Flavour    string
	FlavourPos Pos
	// PrimaryKey: the column is part of the table's PRIMARY KEY.
	PrimaryKey bool
	// Default is the DEFAULT expression as written ("" none), kept as
	// text with the table as a view keeps its query, and bound where a
	// row takes it (BindDefault); DefaultPos is where it starts.
	Default    string
	DefaultPos Pos
	// Generated is the expression of a VIRTUAL generated column as written
	// ("" none): the column is not stored, a query computes it from the
	// row's other columns (bind_generated.go). GeneratedPos is where it
	// starts. Its Type is the declared one, or the expression's (a zero
	// Type until ResolveGenerated infers it).
	Generated    string
	GeneratedPos Pos
}

// Check is one bound of a CHECK constraint.
type Check struct {
	Op  string
	Val columnar.Value
}

// Option is one name = value of a WITH (…) list; Name and Value are lower
// case (Value keeps its case when it was a string literal).
type Option struct {
	Name, Value string
	Pos         Pos // of the value
}

// Insert is INSERT [OR REPLACE | OR IGNORE] INTO name [BY NAME | BY
// POSITION] [(columns)] {VALUES (…), … | query} [ON CONFLICT [(columns)]
// DO NOTHING] [WITH (options)], and REPLACE INTO … (INSERT OR REPLACE).
// Query produces the rows; Cols (nil: all, in order) are the target
// columns, or with ByName the query's column names are.
type Insert struct {
	Table    string
	TablePos Pos
	Catalog  string // "temp" or "memory" when the name gives it (CatalogMismatch)
	Cols     []string
	ColsPos  []Pos
	ByName   bool
	Query    *Query // nil with DefaultValues
	// DefaultValues: INSERT … DEFAULT VALUES, one row of every column's
	// DEFAULT.
	DefaultValues bool
	Replace       bool // rows whose key equals a new row's are replaced
	Ignore        bool // rows whose key exists are skipped (OR IGNORE, ON CONFLICT DO NOTHING)
	// Update is ON CONFLICT … DO UPDATE: rows whose key exists change
	// the row holding it (stmt_conflict.go).
	Update *ConflictUpdate
	// Conflict is ON CONFLICT (columns)'s list: Ignore's key must be
	// these columns. ConflictPos is its first column's position.
	Conflict    []string
	ConflictPos Pos
	Options     []Option
	// Returning is RETURNING's SELECT items FROM the table (nil: none),
	// bound against the rows written (stmt_dml.go).
	Returning *Query
}

// Delete is DELETE FROM name [WHERE condition]. Where, when present, is
// SELECT (condition) FROM name: one BOOLEAN per row, in scan order.
type Delete struct {
	Table    string
	TablePos Pos
	Catalog  string // "temp" or "memory" when the name gives it (CatalogMismatch)
	Where    *Query
	// Returning is RETURNING's SELECT items FROM the table (nil: none),
	// bound against the rows removed; with it Where is never nil.
	Returning *Query
}

// Update is UPDATE name SET col = expr [, …] [WHERE condition]. Query is
// SELECT expr, … [, condition] FROM name: the new values of each row and,
// when HasWhere, whether it changes. A column set twice takes the last
// value (as SQLite).
type Update struct {
	Table    string
	TablePos Pos
	Catalog  string // "temp" or "memory" when the name gives it (CatalogMismatch)
	Sets     []string
	SetsPos  []Pos
	// SetDefault[k]: Sets[k] takes the column's DEFAULT (SET c =
	// DEFAULT); the query's value for it is NULL.
	SetDefault []bool
	Query      *Query
	HasWhere   bool
	Joined     bool // UPDATE … FROM: a row id may come more than once; the last wins
	// Returning is RETURNING's SELECT items FROM the table (nil: none),
	// bound against the new versions of the rows.
	Returning *Query
}

func (*CreateTable) statement() {}
func (*Insert) statement()      {}
func (*Delete) statement()      {}
func (*Update) statement()      {}

func columnIndex(cols []ColumnDef, name string) int {
	for i, c := range cols {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}
