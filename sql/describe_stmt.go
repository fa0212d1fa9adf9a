package sql

import (
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
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
	parts := []string{s.Path}
	if s.Table != nil {
		span, path = s.Table.Span(), false
		parts = nameParts(s.Table)
		if n, _, err := b.tableName(s.Table); err == nil {
			name = n
		} else {
			// DESCRIBE data.parquet: a dotted bare name is one (path) name.
			name = strings.Join(parts, ".")
		}
	} else {
		span = s.PathAt
	}
	if s.Summarize {
		return summarizeQuery(b.sub(span), name)
	}
	q, err := starQuery(b.sub(span), parts, path)
	if err != nil {
		return nil, err
	}
	return &Describe{Table: name, Query: q}, nil
}

// describeNames are DESCRIBE's columns, DuckDB's, all VARCHAR: the name
// and type of each column, whether it may hold NULL ("YES" or "NO"), its
// key ("PRI" for a PRIMARY KEY column, "UNI" for one in a UNIQUE key, else
// NULL), its default and extra (NULL: b2sql shows none).
var describeNames = []string{"column_name", "column_type", "null", "key", "default", "extra"}

// DescribeNames are DESCRIBE's column names (describeNames), for the
// engine's DESCRIBE statement.
func DescribeNames() []string { return slices.Clone(describeNames) }

// DescribeRow is DESCRIBE's row of a column: its name, its type, whether
// it may hold NULL and its key (a NULL VARCHAR for none). The DESCRIBE
// statement (the engine's) and (DESCRIBE …) in FROM both make their rows
// here.
func DescribeRow(name string, t columnar.Type, nullable bool, key columnar.Value) []columnar.Value {
	null := "YES"
	if !nullable {
		null = "NO"
	}
	none := columnar.NullValue(columnar.TVarchar)
	return []columnar.Value{columnar.StringValue(name), columnar.StringValue(t.String()), columnar.StringValue(null), key, none, none}
}
