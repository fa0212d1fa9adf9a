package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql/ast"
)

// pragma reads DuckDB's PRAGMA forms that are settings under another
// spelling: PRAGMA name = value sets name (PRAGMA threads = 4 is SET
// threads = 4); PRAGMA enable_x / disable_x set the boolean setting
// enable_x (PRAGMA disable_optimizer); PRAGMA show_tables is SHOW TABLES.
// Which names are settings is the engine's to say, as for SET. The call
// forms (table_info('t'), storage_info, …) are DuckDB's pragma functions:
// refused by name.
func (b *stmtBuilder) pragma(s *ast.Pragma) (Statement, error) {
	if len(s.Name) != 1 {
		return nil, b.syntax(s.Name[1])
	}
	name := strings.ToLower(s.Name[0].Name)
	switch {
	case s.Value != nil:
		v, err := b.setValue(s.Value)
		if err != nil {
			return nil, err
		}
		return &Set{Name: name, Value: v}, nil
	case s.Call:
	case name == "show_tables":
		return &ShowTables{}, nil
	case strings.HasPrefix(name, "enable_"):
		return &Set{Name: name, Value: columnar.BoolValue(true)}, nil
	case strings.HasPrefix(name, "disable_"):
		return &Set{Name: "enable_" + strings.TrimPrefix(name, "disable_"), Value: columnar.BoolValue(false)}, nil
	}
	return nil, b.errAt(s, ErrUnsupported, "PRAGMA "+name+" is not supported")
}
