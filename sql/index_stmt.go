package sql

// Index statements. The syntax follows DuckDB (CREATE INDEX name ON t
// USING kind (col)), also accepting the kind after the column list, an
// unnamed index, and SQLite's multi-column lists and REINDEX:
//
//	CREATE INDEX [IF NOT EXISTS] [name] ON table [USING kind] (col [, col…]) [USING kind]
//	DROP INDEX [IF EXISTS] name
//	DROP INDEX [IF EXISTS] ON table (col)
//	REINDEX [table [(col)] | index]
//
// kind is FULL or SUMMARY (python-blosc2's index kinds that b2sql builds).

// CreateIndex is CREATE INDEX. Kind is "full", "summary" or "" (not given).
type CreateIndex struct {
	Name        string // "" when unnamed
	NamePos     Pos
	Table       string
	TablePos    Pos
	Columns     []string
	ColumnPos   []Pos
	Kind        string
	KindPos     Pos
	IfNotExists bool
}

// DropIndex is DROP INDEX name, or DROP INDEX ON table (col) when Table is
// set.
type DropIndex struct {
	Name      string
	NamePos   Pos
	Table     string
	TablePos  Pos
	Column    string
	ColumnPos Pos
	IfExists  bool
}

// Reindex is REINDEX [target [(col)]]: Target names a table or an index
// ("" = every index); Column restricts a table to one column.
type Reindex struct {
	Target    string
	TargetPos Pos
	Column    string
	ColumnPos Pos
	Pos       Pos // of the REINDEX keyword
}

func (*CreateIndex) statement() {}
func (*DropIndex) statement()   {}
func (*Reindex) statement()     {}
