package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/sql/ast"
)

// Comment is COMMENT ON TABLE|VIEW|COLUMN|MACRO name IS 'text' | NULL:
// the catalog keeps the text, which duckdb_tables(), duckdb_columns(),
// duckdb_views(), duckdb_functions() and information_schema show.
type Comment struct {
	Kind    string // TABLE, VIEW, COLUMN or MACRO (FUNCTION and MACRO TABLE too)
	Key     string // the relation's or macro's catalog key (relKey)
	NamePos Pos
	// Relation and Column name a COLUMN's table (its key) and column.
	Relation, Column string
	Text             string
	Null             bool // IS NULL: the comment goes
}

func (*Comment) statement() {}

// comment builds COMMENT ON. Comments on indexes, sequences, schemas,
// types and databases have no place b2sql shows them, and are refused.
func (b *stmtBuilder) comment(s *ast.Comment) (Statement, error) {
	c := &Comment{Kind: s.Kind}
	switch s.Kind {
	case "MACRO TABLE", "FUNCTION":
		c.Kind = "MACRO"
	case "TABLE", "VIEW", "COLUMN", "MACRO":
	default:
		return nil, b.errAt(s, ErrUnsupported, fmt.Sprintf("COMMENT ON %s is not supported: b2sql keeps comments on tables, views, columns and macros", s.Kind))
	}
	switch v := s.Text.(type) {
	case *ast.Literal:
		switch v.Kind {
		case ast.LitString:
			c.Text = v.Val
		case ast.LitNull:
			c.Null = true
		default:
			return nil, b.errAt(s.Text, ErrType, "a comment is a string literal or NULL")
		}
	default:
		return nil, b.errAt(s.Text, ErrType, "a comment is a string literal or NULL")
	}
	name := s.Name
	if c.Kind == "COLUMN" {
		if len(name) < 2 {
			return nil, b.errAt(name[0], ErrSyntax, "COMMENT ON COLUMN names the column as table.column")
		}
		c.Column = name.Last().Name
		name = name[:len(name)-1]
	}
	key, _, pos, err := b.qualifiedName(name)
	if err != nil {
		return nil, err
	}
	c.Key, c.NamePos = key, pos
	if c.Kind == "COLUMN" {
		c.Relation = key
	}
	return c, nil
}
