package sql

// CreateView is CREATE [OR REPLACE] VIEW name AS query. Text is the
// query's SQL, which is bound anew wherever the view is used (so a view
// sees the tables as they are then).
type CreateView struct {
	Name    string
	NamePos Pos
	Replace bool
	Text    string
	Query   *Query
}

// DropView is DROP VIEW [IF EXISTS] name.
type DropView struct {
	Name     string
	NamePos  Pos
	IfExists bool
}

func (*CreateView) statement() {}
func (*DropView) statement()   {}
