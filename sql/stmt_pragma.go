package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql/ast"
)

// pragma reads DuckDB's PRAGMA forms that are settings under another
// spelling: PRAGMA name = value sets name (PRAGMA threads = 4 is SET
// threads = 4); PRAGMA enable_x / disable_x set the boolean setting
// enable_x (PRAGMA disable_optimizer); PRAGMA show_tables is SHOW TABLES;
// PRAGMA table_info('t') is SELECT * FROM pragma_table_info('t'). Which
// names are settings is the engine's to say, as for SET. The other call
// forms (storage_info, …) are DuckDB's pragma functions: refused by name.
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
	case s.Call && name == "table_info" && len(s.Args) == 1:
		return b.pragmaTableInfo(s)
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

// setValue reads SET's value: BIGINT or DOUBLE for numbers, BOOLEAN for
// true/false/on/off, VARCHAR for strings and other bare words.
func (b *stmtBuilder) setValue(e ast.Expr) (columnar.Value, error) {
	neg := false
	if u, ok := e.(*ast.Unary); ok && u.Op == "-" {
		if l, ok := u.X.(*ast.Literal); ok && l.Kind == ast.LitNumber {
			neg, e = true, l
		}
	}
	switch x := e.(type) {
	case *ast.Literal:
		switch x.Kind {
		case ast.LitNumber:
			text := strings.ReplaceAll(x.Val, "_", "")
			if neg {
				text = "-" + text
			}
			if n, err := strconv.ParseInt(text, 10, 64); err == nil {
				return columnar.IntValue(columnar.TInt64, n), nil
			}
			if f, err := strconv.ParseFloat(text, 64); err == nil && !math.IsInf(f, 0) {
				return columnar.FloatValue(columnar.TFloat64, f), nil
			}
			return columnar.Value{}, b.errAt(x, ErrType, fmt.Sprintf("number %s is out of range", text))
		case ast.LitString:
			return columnar.StringValue(x.Val), nil
		case ast.LitBool:
			return columnar.BoolValue(x.Val == "true"), nil
		}
	case *ast.ColumnRef:
		if len(x.Name) == 1 {
			w := x.Name[0]
			switch strings.ToLower(w.Name) {
			case "on":
				return columnar.BoolValue(true), nil
			case "off":
				return columnar.BoolValue(false), nil
			}
			return columnar.StringValue(w.Name), nil
		}
	}
	// DuckDB folds a constant expression here (SET threads = 1 + 1).
	return columnar.Value{}, b.errAt(e, ErrUnsupported, "a setting's value must be a number, a string, a boolean or a word")
}

// pragmaTableInfo is PRAGMA table_info('t') (or table_info(t)) as the
// query SELECT * FROM pragma_table_info('t'), made of the statement's
// nodes so that errors point into it.
func (b *stmtBuilder) pragmaTableInfo(s *ast.Pragma) (Statement, error) {
	var arg *ast.Literal
	switch x := s.Args[0].(type) {
	case *ast.Literal:
		if x.Kind == ast.LitString {
			arg = x
		}
	case *ast.ColumnRef:
		parts := make([]string, len(x.Name))
		for i, p := range x.Name {
			parts[i] = p.Name
		}
		arg = &ast.Literal{Span: x.Span, Kind: ast.LitString, Val: strings.Join(parts, ".")}
	}
	if arg == nil {
		return nil, b.errAt(s.Args[0], ErrType, "PRAGMA table_info expects a table name")
	}
	name := s.Name[0]
	fn := &ast.TableFunc{Span: s.Span, Func: &ast.Func{Span: s.Span, Name: ast.Name{{Span: name.Span, Name: "pragma_table_info"}}, Args: []ast.Expr{arg}}}
	return b.selectQuery(s.Span, []ast.Expr{&ast.Star{Span: s.Span}}, fn, nil)
}
