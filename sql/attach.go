package sql

// Attach is ATTACH [DATABASE] 'directory' [AS name]: the directory's
// tables join the catalog and new tables are written there (stmt.go
// builds it).
type Attach struct {
	Path    string
	PathPos Pos
	Alias   string
}

func (*Attach) statement() {}
