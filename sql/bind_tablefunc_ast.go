package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// tableFuncBindable reports whether the table function call t binds from
// the syntax tree: the series functions, the file functions and the
// other names of tableFuncs (summarize and duckdb_settings still bind
// from the vitess tree).
func tableFuncBindable(t *ast.TableFunc) bool {
	f := t.Func
	if t.Lateral || t.Sample != nil || len(f.Name) != 1 || f.Over != nil || f.Filter != nil || len(f.OrderBy) > 0 {
		return false
	}
	fn := strings.ToLower(f.Name[0].Name)
	switch {
	case seriesFuncs[fn]:
		return !f.Star && allBindable(f.Args...)
	case FileFuncs[fn]:
		return true
	case fn == "unnest":
		return !f.Star && allBindable(f.Args...)
	case fn == "summarize", fn == "duckdb_settings", fn == "duckdb_functions":
		return !f.Star && allBindable(f.Args...)
	}
	for _, n := range tableFuncs {
		if n == fn {
			return true
		}
	}
	return false
}

// bindTableFuncAST binds a table function call in FROM as bindTableFunc
// does; a file function's arguments are read by callArgs from the call's
// tokens.
func (b *binder) bindTableFuncAST(t *ast.TableFunc) (*fromItem, error) {
	f := t.Func
	name := f.Name[0].Name
	fn := strings.ToLower(name)
	alias, cols := aliasName(t.Alias), aliasColumns(t.Alias)
	at := b.q.tokAt(f.Start)
	if fn == "unnest" {
		return b.unnestTable(f, alias, cols, at) // bind_unnest.go
	}
	if fn == "summarize" || fn == "duckdb_settings" || fn == "duckdb_functions" {
		args := make(sqlparser.SelectExprs, len(f.Args))
		for i, a := range f.Args {
			args[i] = &sqlparser.AliasedExpr{Expr: vitessArg(a)}
		}
		if fn == "summarize" {
			return b.bindSummarize(args, alias) // bind_summarize.go
		}
		if fn == "duckdb_functions" {
			return b.bindFunctionsTable(args, alias) // bind_func_table.go
		}
		return b.bindSettingsTable(args, alias) // bind_settings.go
	}
	var n planner.Node
	var err error
	switch {
	case seriesFuncs[fn]:
		args := make(sqlparser.SelectExprs, len(f.Args))
		for i, a := range f.Args {
			args[i] = &sqlparser.AliasedExpr{Expr: astSrc(a)}
		}
		n, err = b.bindSeries(fn, args, alias, cols, at)
	case FileFuncs[fn]:
		var call *FileCall
		if call, err = callArgs(b.q.src, fn, b.q.toks, at+1, b.q.tokAt(f.End)-1); err == nil {
			n, err = b.bindFileCall(call, alias, cols, at)
		}
	default:
		n, err = b.bindPathFunc(fn, f, alias, at)
	}
	if err != nil {
		return nil, err
	}
	return itemOf(n, n.(*planner.Scan).Alias), nil
}

// bindPathFunc binds a table function of one path argument other than
// the file functions (b2_metadata('x.b2nd')).
func (b *binder) bindPathFunc(fn string, f *ast.Func, alias string, at int) (planner.Node, error) {
	var p *ast.Literal
	if len(f.Args) == 1 {
		p, _ = f.Args[0].(*ast.Literal)
	}
	if p == nil || p.Kind != ast.LitString {
		return nil, b.errAt(at, ErrType, fmt.Sprintf("%s expects one string argument (a path or glob)", fn))
	}
	tbl, err := b.cat.OpenPath(fn, p.Val)
	if err != nil {
		return nil, b.errAt(b.q.tokAt(p.Start), ErrUnknownTable, fmt.Sprintf("cannot open %q: %v", p.Val, err))
	}
	if alias == "" {
		alias = fn
	}
	return b.scan(tbl, p.Val, alias), nil
}
