package sql

import (
	"strings"
	"unicode/utf8"

	"github.com/b2sql/b2sql/sql/ast"
)

// createView builds CREATE [OR REPLACE] [TEMP] [RECURSIVE] VIEW [IF NOT
// EXISTS] name [(columns)] AS query; Text is bound anew wherever the view
// is used.
func (b *stmtBuilder) createView(s *ast.CreateView) (Statement, error) {
	path := b.path
	if s.Temp {
		path = Path{} // temp.main's, whatever USE says
	}
	name, catalog, pos, err := b.qualifiedNameIn(s.Name, path)
	if err != nil {
		return nil, err
	}
	switch {
	case s.Temp && catalog == "memory":
		return nil, b.errAt(s.Name[0], ErrSyntax, `a TEMP view's name can only use the "temp" catalog`)
	case !s.Temp && catalog == "temp":
		return nil, b.errAt(s.Name[0], ErrSyntax, `only a TEMP view's name can use the "temp" catalog (CREATE TEMP VIEW)`)
	case s.Recursive && len(s.Columns) == 0:
		return nil, b.errAt(s.Name[0], ErrSyntax, "CREATE RECURSIVE VIEW needs a column list: CREATE RECURSIVE VIEW v(columns) AS …")
	}
	var cols []string
	for _, c := range s.Columns {
		cols = append(cols, c.Name)
	}
	if err := b.checkViewWrites(s.Query); err != nil { // stmt_with_writes.go
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
	v := &CreateView{Name: name, NamePos: pos, Replace: s.OrReplace, IfNotExists: s.IfNotExists, Temp: s.Temp,
		Columns: cols, Recursive: s.Recursive, Text: src.Text, Query: q}
	if len(cols) > 0 {
		v.ColumnsPos = b.pos(s.Columns[0].Start)
		v.Text = viewText(s.Name.Last().Name, cols, src.Text, s.Recursive)
		// The text put before the query is on its first line.
		prefix := v.Text[:strings.Index(v.Text, src.Text)]
		v.TextAt = Source{Text: v.Text, Offset: src.Offset - len(prefix), Line: src.Line, Col: src.Col - utf8.RuneCountInString(prefix)}
	}
	return v, nil
}

// viewText is the query a view with a column list stands for: query
// with its first columns renamed, or, for RECURSIVE, the recursive
// common table expression of that name (as DuckDB defines a recursive
// view).
func viewText(name string, cols []string, query string, recursive bool) string {
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
	}
	n := `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	list := "(" + strings.Join(quoted, ", ") + ")"
	if recursive {
		return "WITH RECURSIVE " + n + list + " AS (" + query + ") SELECT * FROM " + n
	}
	return "SELECT * FROM (" + query + ") AS " + n + list
}
