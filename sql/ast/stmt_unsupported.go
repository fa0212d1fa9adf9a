package ast

// Statements b2sql parses, prints and round-trips but does not run: the
// binder refuses each with a positioned reason (sql/stmt.go).

// Merge is [WITH …] MERGE INTO t [[AS] a] USING source ON cond WHEN …
// [RETURNING …].
type Merge struct {
	Span
	With      *With
	Table     Name
	Alias     *Ident
	Source    TableRef
	On        Expr
	Whens     []*MergeWhen
	Returning []*SelectItem
}

// MergeWhen is WHEN [NOT] MATCHED [BY SOURCE | BY TARGET] [AND cond]
// THEN action. Action is UPDATE (Set, or every column by name when Star),
// DELETE, INSERT (Columns, Values, Star for INSERT *, DefaultValues),
// DO NOTHING or ERROR (Values holds its optional message).
type MergeWhen struct {
	Span
	Matched       bool
	By            string // "", SOURCE, TARGET
	Cond          Expr
	Action        string
	Set           []*Assign
	Star          bool
	Columns       []*Ident
	Values        []Expr
	DefaultValues bool
}

// Comment is COMMENT ON kind name IS 'text' | NULL; Kind is TABLE, VIEW,
// COLUMN, INDEX, SEQUENCE, SCHEMA, MACRO, MACRO TABLE, FUNCTION or TYPE.
type Comment struct {
	Span
	Kind string
	Name Name
	Text Expr
}

// CreateTrigger is SQLite's CREATE [TEMP] TRIGGER [IF NOT EXISTS] name
// [BEFORE | AFTER | INSTEAD OF] {DELETE | INSERT | UPDATE [OF cols]} ON t
// [FOR EACH ROW] [WHEN cond] BEGIN statement; … END.
type CreateTrigger struct {
	Span
	Temp        bool
	IfNotExists bool
	Name        Name
	Time        string // "", BEFORE, AFTER, INSTEAD OF
	Event       string // DELETE, INSERT, UPDATE
	Columns     []*Ident
	Table       Name
	ForEachRow  bool
	When        Expr
	Body        []Stmt
}

func (*Merge) stmtNode()         {}
func (*Comment) stmtNode()       {}
func (*CreateTrigger) stmtNode() {}
