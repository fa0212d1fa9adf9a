package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// describe builds DESCRIBE / SHOW t / SHOW COLUMNS FROM t of a table, a
// path, a table function or a query, and SUMMARIZE of the same.
func (b *stmtBuilder) describe(s *ast.Describe) (Statement, error) {
	if s.Query != nil {
		src := b.sub(s.Query.Extent())
		if s.Summarize {
			q, err := summarizeQuery(src, src.Text)
			return q, err
		}
		st, err := Parse(src)
		if err != nil {
			return nil, err
		}
		q, ok := st.(*Query)
		if !ok {
			return nil, b.syntax(s.Query)
		}
		return &Describe{Query: q}, nil
	}
	if s.Func != nil {
		// DESCRIBE f(…) is SELECT * FROM f(…), over the call's nodes.
		q, err := b.selectQuery(s.Func.Span, []ast.Expr{&ast.Star{Span: s.Func.Span}}, &ast.TableFunc{Span: s.Func.Span, Func: s.Func}, nil)
		if err != nil {
			return nil, err
		}
		if s.Summarize {
			return nil, b.errAt(s.Func, ErrUnsupported, "SUMMARIZE of a table function is not supported (SUMMARIZE SELECT * FROM f(…))")
		}
		return &Describe{Query: q}, nil
	}
	name, span, path := s.Path, s.Span, true
	if s.Table != nil {
		span, path = s.Table.Span(), false
		if n, _, err := b.tableName(s.Table); err == nil {
			name = n
		} else {
			// DESCRIBE data.parquet: a dotted bare name is one (path) name.
			parts := make([]string, len(s.Table))
			for i, p := range s.Table {
				parts[i] = p.Name
			}
			name = strings.Join(parts, ".")
		}
	} else {
		// The path is the statement's last token, its one string.
		text := b.src.Text[span.Start:span.End]
		q := strings.IndexByte(text, '\'')
		if q > 0 && (text[q-1] == 'e' || text[q-1] == 'E') {
			q--
		}
		span.Start += max(q, 0)
	}
	if s.Summarize {
		return summarizeQuery(b.sub(span), name)
	}
	q, err := starQuery(b.sub(span), name, path)
	if err != nil {
		return nil, err
	}
	return &Describe{Table: name, Query: q}, nil
}
