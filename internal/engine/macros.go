package engine

import "github.com/b2sql/b2sql/sql"

// expandMacros replaces *src and *stmt by their expansion when the
// statement calls macros (sql.ExpandMacros), returning the expansion,
// whose MapError puts errors back into the statement as written; nil
// when there is nothing to expand.
func (s *Session) expandMacros(src *sql.Source, stmt *sql.Statement) (*sql.MacroExpansion, error) {
	x, ok, err := sql.ExpandMacros(*src, s.cat())
	if err != nil || !ok {
		return nil, err
	}
	st, err := s.Parse(x.Src)
	if err != nil {
		return nil, x.MapError(err)
	}
	*src, *stmt = x.Src, st
	return x, nil
}
