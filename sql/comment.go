package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// Comment is COMMENT ON TABLE|VIEW|COLUMN|MACRO|SEQUENCE|INDEX|TYPE name
// IS 'text' | NULL: the catalog keeps the text, which duckdb_tables(),
// duckdb_columns(), duckdb_views(), duckdb_functions(),
// duckdb_sequences(), duckdb_indexes(), duckdb_types() and
// information_schema show.
type Comment struct {
	Kind    string // TABLE, VIEW, COLUMN, MACRO (FUNCTION and MACRO TABLE too), SEQUENCE, INDEX or TYPE
	Key     string // the relation's, macro's, sequence's, index's or type's catalog key (relKey)
	NamePos Pos
	// Relation and Column name a COLUMN's table (its key) and column.
	Relation, Column string
	Text             string
	Null             bool // IS NULL: the comment goes
}

func (*Comment) statement() {}

// comment builds COMMENT ON. Comments on schemas and databases are
// refused, with DuckDB's words (DuckDB 1.5 refuses them too).
func (b *stmtBuilder) comment(s *ast.Comment) (Statement, error) {
	c := &Comment{Kind: s.Kind}
	switch s.Kind {
	case "MACRO TABLE", "FUNCTION":
		c.Kind = "MACRO"
	case "TABLE", "VIEW", "COLUMN", "MACRO", "SEQUENCE", "INDEX", "TYPE":
	default:
		return nil, b.errAt(s, ErrUnsupported, fmt.Sprintf("adding comments to %ss is not implemented (in DuckDB neither)", strings.ToLower(s.Kind)))
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
