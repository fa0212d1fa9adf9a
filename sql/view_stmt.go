package sql

import "github.com/b2sql/b2sql/sql/ast"

// createView builds CREATE [OR REPLACE] VIEW name AS query; Text is the
// query's own text, bound anew wherever the view is used.
func (b *stmtBuilder) createView(s *ast.CreateView) (Statement, error) {
	switch {
	case s.Temp:
		return nil, b.errAt(s, ErrUnsupported, "CREATE TEMP VIEW is not supported")
	case s.Recursive:
		return nil, b.errAt(s, ErrUnsupported, "CREATE RECURSIVE VIEW is not supported")
	case s.IfNotExists:
		return nil, b.errAt(s, ErrUnsupported, "CREATE VIEW IF NOT EXISTS is not supported")
	case len(s.Columns) > 0:
		return nil, b.errAt(s.Columns[0], ErrUnsupported, "CREATE VIEW with a column list is not supported")
	}
	name, pos, err := b.tableName(s.Name)
	if err != nil {
		return nil, err
	}
	src := b.sub(s.Query.Extent())
	st, err := Parse(src)
	if err != nil {
		return nil, err
	}
	q, ok := st.(*Query)
	if !ok {
		return nil, b.syntax(s.Query)
	}
	return &CreateView{Name: name, NamePos: pos, Replace: s.OrReplace, Text: src.Text, Query: q}, nil
}
