package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// pragma_table_info('t') and PRAGMA table_info('t'), DuckDB's (and
// SQLite's) column listing of a table or view: cid (0-based), name, type,
// notnull, dflt_value (the DEFAULT as written), pk. A view's columns are
// nullable, without default or key.

func init() {
	function.Register(&function.Set{Name: "pragma_table_info", Kind: function.Table, Categories: []string{"table"}, CustomBind: true,
		Description: "The columns of a table or view: cid, name, type, notnull, dflt_value, pk",
		Examples:    []string{"pragma_table_info('t1')"},
		Overloads:   []function.Overload{{Params: []string{"table_name"}, Args: []function.Arg{function.Str}}}})
}

// bindTableInfo binds pragma_table_info(name) called at token at.
func (b *binder) bindTableInfo(args callexpr.SelectExprs, alias string, at int) (*fromItem, error) {
	arg, at := b.oneStringArg(args, at) // bind_summarize.go
	if arg == "" {
		return nil, b.errAt(at, ErrType, "pragma_table_info expects one string argument (a table or view name)")
	}
	var rel *RelationInfo
	for _, r := range b.relations() {
		if strings.EqualFold(relationKey(r), arg) || r.Database == "" && strings.EqualFold(r.Schema+"."+r.Name, arg) {
			rel = &r
			break
		}
	}
	if rel == nil {
		// The binder's own error for the name: unknown table, did you mean.
		_, err := b.bindText("SELECT * FROM " + b.relationText(arg))
		if e, ok := err.(*Error); ok {
			return nil, b.errAt(at, e.Kind, e.Msg)
		}
		return nil, b.errAt(at, ErrUnknownTable, "unknown table "+quoteSQL(arg))
	}
	if alias == "" {
		alias = "pragma_table_info"
	}
	cols := rel.Columns
	if rel.View {
		cols = b.viewColumns(rel.Name)
	}
	v, bl := columnar.TVarchar, columnar.TBool
	out := []tableColumn{{"cid", columnar.TInt32}, {"name", v}, {"type", v}, {"notnull", bl}, {"dflt_value", v}, {"pk", bl}}
	rows := make([][]columnar.Value, len(cols))
	for i, c := range cols {
		rows[i] = []columnar.Value{columnar.IntValue(columnar.TInt32, int64(i)), columnar.StringValue(c.Name), columnar.StringValue(c.Type.String()),
			columnar.BoolValue(!c.Nullable), textOrNull(c.Default), columnar.BoolValue(c.Key == "PRI")}
	}
	return b.constTable(alias, "catalog", out, rows) // bind_func_table.go
}
