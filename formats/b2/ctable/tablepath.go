package ctable

// FilePath returns the path the table was opened from (what Begin takes).
func (t *Table) FilePath() string { return t.path }
