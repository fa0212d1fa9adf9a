package ast

// Stmt is one statement of a script.
type Stmt interface {
	Node
	stmtNode()
}

// Assign is column = value in UPDATE SET and ON CONFLICT DO UPDATE SET.
type Assign struct {
	Span
	Column Name
	Value  Expr
}

// Option is one entry of an option list (COPY …(FORMAT csv, HEADER),
// WITH (…), ATTACH (…)): a name with an optional value; Value may be a
// List or a Row for option lists of values.
type Option struct {
	Span
	Name  *Ident
	Value Expr
}

// Insert is [WITH …] INSERT [OR REPLACE|OR IGNORE] INTO t [AS a] [BY
// NAME|BY POSITION] [(cols)] {query | DEFAULT VALUES} [ON CONFLICT …]
// [RETURNING …], also REPLACE INTO (Or "REPLACE") and b2sql's trailing
// WITH (options).
type Insert struct {
	Span
	With          *With
	Or            string // "", REPLACE, IGNORE
	Table         Name
	Alias         *Ident
	ByName        bool
	ByPosition    bool
	Columns       []*Ident
	Query         *Query // nil for DEFAULT VALUES
	DefaultValues bool
	OnConflict    *OnConflict
	Returning     []*SelectItem
	Options       []*Option
}

// OnConflict is ON CONFLICT [(cols) [WHERE …]] DO NOTHING | DO UPDATE SET
// … [WHERE …].
type OnConflict struct {
	Span
	Columns     []*Ident
	TargetWhere Expr
	DoNothing   bool
	Set         []*Assign
	Where       Expr
}

// Update is [WITH …] UPDATE t [[AS] x] SET … [FROM …] [WHERE …] [RETURNING …].
type Update struct {
	Span
	With      *With
	Table     Name
	Alias     *Ident
	Set       []*Assign
	From      []TableRef
	Where     Expr
	Returning []*SelectItem
}

// Delete is [WITH …] DELETE FROM t [[AS] x] [USING …] [WHERE …] [RETURNING …].
type Delete struct {
	Span
	With      *With
	Table     Name
	Alias     *Ident
	Using     []TableRef
	Where     Expr
	Returning []*SelectItem
}

// Truncate is TRUNCATE [TABLE] t.
type Truncate struct {
	Span
	Table Name
}

// CreateTable is CREATE [OR REPLACE] [TEMP] TABLE [IF NOT EXISTS] t
// {(columns, constraints) | [(cols)] AS query} [WITH (options)].
type CreateTable struct {
	Span
	OrReplace   bool
	Temp        bool
	TempAt      Span // the TEMP or TEMPORARY keyword
	IfNotExists bool
	Name        Name
	Columns     []*ColumnDef
	Constraints []*Constraint
	AsColumns   []*Ident // CREATE TABLE t (a, b) AS query
	As          *Query
	WithNoData  bool
	Options     []*Option
}

// ColumnDef is name [TYPE] [constraints]; Type is nil for a generated
// column without a type.
type ColumnDef struct {
	Span
	Name        *Ident
	Type        *TypeName
	Constraints []*Constraint
}

// Constraint is a column or table constraint. Kind is NOT NULL, NULL,
// PRIMARY KEY, UNIQUE, CHECK, DEFAULT, REFERENCES (FOREIGN KEY for a
// table), COLLATE, GENERATED (AS (expr) [VIRTUAL|STORED]) or USING (b2sql's
// storage flavour of a column).
type Constraint struct {
	Span
	Name       *Ident // CONSTRAINT name, or nil
	Kind       string
	Columns    []*Ident // of a table constraint (and FOREIGN KEY's own)
	Expr       Expr     // CHECK, DEFAULT, GENERATED
	RefTable   Name
	RefColumns []*Ident
	Value      string // COLLATE's collation, GENERATED's VIRTUAL/STORED, USING's flavour
}

// CreateView is CREATE [OR REPLACE] [TEMP] VIEW [IF NOT EXISTS] v [(cols)] AS query.
type CreateView struct {
	Span
	OrReplace   bool
	Temp        bool
	Recursive   bool
	IfNotExists bool
	Name        Name
	Columns     []*Ident
	Query       *Query
}

// CreateSequence is CREATE [OR REPLACE] [TEMP] SEQUENCE [IF NOT EXISTS] s
// [options]; each option is Name (START, INCREMENT, MINVALUE, MAXVALUE,
// NO MINVALUE, NO MAXVALUE, CYCLE, NO CYCLE) with its Value.
type CreateSequence struct {
	Span
	OrReplace   bool
	Temp        bool
	IfNotExists bool
	Name        Name
	Options     []*Option
}

// CreateSchema is CREATE [OR REPLACE] SCHEMA [IF NOT EXISTS] s.
type CreateSchema struct {
	Span
	OrReplace   bool
	IfNotExists bool
	Name        Name
}

// CreateIndex is CREATE [UNIQUE] INDEX [IF NOT EXISTS] [name] ON t [USING
// kind] (keys) [USING kind] [WITH (options)].
type CreateIndex struct {
	Span
	Unique      bool
	UniqueAt    Span // the UNIQUE keyword
	IfNotExists bool
	Name        *Ident // nil when unnamed
	Table       Name
	Using       *Ident
	Keys        []*OrderItem
	Options     []*Option
}

// CreateMacro is CREATE [OR REPLACE] [TEMP] MACRO|FUNCTION [IF NOT
// EXISTS] name(params) AS expr | AS TABLE query, with further overloads
// after commas: , (params) AS expr.
type CreateMacro struct {
	Span
	OrReplace   bool
	Temp        bool
	IfNotExists bool
	Name        Name
	Overloads   []*MacroDef
}

// MacroDef is one overload of a macro: its parameters and its body, an
// expression (Body) or, for a table macro, a query (Table).
type MacroDef struct {
	Span
	Params []*MacroParam
	Body   Expr
	Table  *Query
}

// MacroParam is a macro parameter: name [type] [:= default].
type MacroParam struct {
	Span
	Name    *Ident
	Type    *TypeName // nil: any type
	Default Expr      // nil: none
}

// CreateType is CREATE TYPE name AS type (ENUM('a', …), STRUCT(…), …).
type CreateType struct {
	Span
	Name Name
	Type *TypeName
}

// Drop is DROP kind [IF EXISTS] names [CASCADE|RESTRICT]; Kind is TABLE,
// VIEW, SEQUENCE, SCHEMA, INDEX, MACRO, MACRO TABLE, FUNCTION or TYPE.
// DROP INDEX ON t (col) (b2sql) sets On and Columns.
type Drop struct {
	Span
	Kind     string
	IfExists bool
	Names    []Name
	Cascade  bool
	Restrict bool
	On       Name
	Columns  []*Ident
}

// Alter is ALTER TABLE|VIEW [IF EXISTS] name action.
type Alter struct {
	Span
	Kind     string // TABLE, VIEW
	IfExists bool
	Name     Name
	Action   *AlterAction
}

// AlterAction is one ALTER action. Kind is ADD COLUMN (Column),
// DROP COLUMN (Target, IfExists), RENAME COLUMN (Target → To), RENAME
// (To), ALTER TYPE (Target, Type, Using), SET DEFAULT (Target, Using),
// DROP DEFAULT, SET NOT NULL, DROP NOT NULL (Target), ADD CONSTRAINT
// (Constraint).
type AlterAction struct {
	Span
	Kind        string
	IfExists    bool
	IfNotExists bool
	Column      *ColumnDef
	Target      *Ident
	To          *Ident
	Type        *TypeName
	Using       Expr
	Constraint  *Constraint
	Cascade     bool
}

// Copy is COPY t [(cols)] TO|FROM target [(options)], COPY (query) TO
// target [(options)], or COPY FROM DATABASE a TO b. Target is a string
// path, a ? parameter or (DuckDB) an expression; Options also come from
// the old WITH (…) and bare-option forms.
type Copy struct {
	Span
	Table    Name
	Columns  []*Ident
	Query    *Query
	From     bool // COPY t FROM
	Target   Expr
	Options  []*Option
	Database Name // COPY FROM DATABASE Database TO Table
}

// Explain is EXPLAIN [ANALYZE] statement.
type Explain struct {
	Span
	Analyze bool
	Options []*Option // EXPLAIN (FORMAT JSON, …)
	Stmt    Stmt
}

// Set is SET [SESSION|GLOBAL|LOCAL|VARIABLE] name {=|TO} value [, …], or
// SET name = DEFAULT (Default). Names are case as written.
type Set struct {
	Span
	Scope   string // "", SESSION, GLOBAL, LOCAL, VARIABLE
	Name    Name
	Values  []Expr
	Default bool
}

// Reset is RESET [SESSION|GLOBAL|LOCAL|VARIABLE] name, or RESET ALL (Name nil).
type Reset struct {
	Span
	Scope string
	Name  Name
}

// Show is SHOW TABLES, SHOW ALL TABLES, SHOW DATABASES and the like
// (What, upper case), with an optional FROM schema.
type Show struct {
	Span
	What string
	From Name
}

// Describe is DESCRIBE/SHOW/SUMMARIZE of a table, path or query: exactly
// one of Table, Path and Query is set (Table also names a function call
// when Func is set: SUMMARIZE read_parquet('x')).
type Describe struct {
	Span
	Summarize bool
	Table     Name
	Path      string
	PathAt    Span // the path's string
	Func      *Func
	Query     *Query
}

// Attach is ATTACH [OR REPLACE] [DATABASE] [IF NOT EXISTS] 'path' [AS
// alias] [(options)].
type Attach struct {
	Span
	OrReplace   bool
	IfNotExists bool
	Path        Expr
	Alias       *Ident
	Options     []*Option
}

// Detach is DETACH [DATABASE] [IF EXISTS] name.
type Detach struct {
	Span
	IfExists bool
	Name     *Ident
}

// Use is USE database[.schema].
type Use struct {
	Span
	Name Name
}

// Pragma is PRAGMA name, PRAGMA name(args) or PRAGMA name = value.
type Pragma struct {
	Span
	Name  Name
	Args  []Expr
	Value Expr
	Call  bool // parentheses written
}

// Reindex is REINDEX [target [(col)]].
type Reindex struct {
	Span
	Target Name
	Column *Ident
}

// Prepare is PREPARE name AS statement.
type Prepare struct {
	Span
	Name *Ident
	Stmt Stmt
}

// Execute is EXECUTE name [(args)].
type Execute struct {
	Span
	Name *Ident
	Args []Expr
}

// Deallocate is DEALLOCATE [PREPARE] name, or DEALLOCATE ALL (Name nil).
type Deallocate struct {
	Span
	Name *Ident
}

// Transaction is BEGIN [TRANSACTION], START TRANSACTION, COMMIT, END,
// ROLLBACK or ABORT; Kind is BEGIN, COMMIT or ROLLBACK. ReadOnly is
// BEGIN's READ ONLY.
type Transaction struct {
	Span
	Kind     string
	ReadOnly bool
}

// Simple is a statement of a keyword and an optional name or argument
// with no further structure: CHECKPOINT [db], FORCE CHECKPOINT, VACUUM
// [t], ANALYZE [t], LOAD ext, INSTALL ext, CALL f(…) (Func), EXPORT
// DATABASE 'dir', IMPORT DATABASE 'dir'. Kind is upper case.
type Simple struct {
	Span
	Kind    string
	Name    Name
	Arg     Expr
	Func    *Func
	Options []*Option
}

func (*Query) stmtNode()          {}
func (*Insert) stmtNode()         {}
func (*Update) stmtNode()         {}
func (*Delete) stmtNode()         {}
func (*Truncate) stmtNode()       {}
func (*CreateTable) stmtNode()    {}
func (*CreateView) stmtNode()     {}
func (*CreateSequence) stmtNode() {}
func (*CreateSchema) stmtNode()   {}
func (*CreateIndex) stmtNode()    {}
func (*CreateMacro) stmtNode()    {}
func (*CreateType) stmtNode()     {}
func (*Drop) stmtNode()           {}
func (*Alter) stmtNode()          {}
func (*Copy) stmtNode()           {}
func (*Explain) stmtNode()        {}
func (*Set) stmtNode()            {}
func (*Reset) stmtNode()          {}
func (*Show) stmtNode()           {}
func (*Describe) stmtNode()       {}
func (*Attach) stmtNode()         {}
func (*Detach) stmtNode()         {}
func (*Use) stmtNode()            {}
func (*Pragma) stmtNode()         {}
func (*Reindex) stmtNode()        {}
func (*Prepare) stmtNode()        {}
func (*Execute) stmtNode()        {}
func (*Deallocate) stmtNode()     {}
func (*Transaction) stmtNode()    {}
func (*Simple) stmtNode()         {}
