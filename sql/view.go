package sql

// CreateView is CREATE [OR REPLACE] [TEMP] [RECURSIVE] VIEW [IF NOT
// EXISTS] name [(columns)] AS query. Text is the view's SQL, bound anew
// wherever the view is used (so a view sees the tables as they are
// then): the query itself, or, with a column list or RECURSIVE, the query
// that renames its columns or recurses (viewText).
type CreateView struct {
	Name        string
	NamePos     Pos
	Replace     bool
	IfNotExists bool
	Temp        bool // CREATE TEMP VIEW: the view temp.v names
	// Columns rename the query's first columns (nil: none); ColumnsPos
	// is the list's position.
	Columns    []string
	ColumnsPos Pos
	Recursive  bool
	Text       string
	// TextAt is Text as a Source placed so that the query in it keeps
	// its positions in the statement (for a column list or RECURSIVE).
	TextAt Source
	// Query is the query as written (without the renaming or recursion
	// of Text): with Recursive it names the view itself, so only Text
	// binds.
	Query *Query
}

// DropView is DROP VIEW [IF EXISTS] name.
type DropView struct {
	Name     string
	NamePos  Pos
	Catalog  string // "temp" or "memory" when the name gives it (CatalogMismatch)
	IfExists bool
}

func (*CreateView) statement() {}
func (*DropView) statement()   {}
