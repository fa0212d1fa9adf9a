package sql

// WriteTarget is the table an INSERT, UPDATE or DELETE writes, where the
// statement names it, and its RETURNING query (nil: none); ok is false
// for any other statement.
func WriteTarget(st Statement) (table string, at Pos, returning *Query, ok bool) {
	switch s := st.(type) {
	case *Insert:
		return s.Table, s.TablePos, s.Returning, true
	case *Update:
		return s.Table, s.TablePos, s.Returning, true
	case *Delete:
		return s.Table, s.TablePos, s.Returning, true
	}
	return "", Pos{}, nil, false
}
