package ctable

// RowIDs says a CTable numbers its rows for SQL's rowid pseudo-column
// (b2sql's sql.RowIDSource): a row's id is its position among the live
// rows (_valid_rows), the position Change.DeleteLive takes.
func (t *Table) RowIDs() bool { return true }
