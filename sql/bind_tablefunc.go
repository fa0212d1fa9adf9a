package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// tableFuncBindable reports whether the table function call t binds from
// the syntax tree: the series functions, the file functions and the
// other table functions of the registry.
func tableFuncBindable(t *ast.TableFunc) bool {
	f := t.Func
	if t.Lateral && !isUnnestCall(t) && !isSeriesCall(t) || len(f.Name) != 1 || f.Over != nil || f.Filter != nil || len(f.OrderBy) > 0 {
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
	case fn == "repeat" && len(f.Args) == 2: // bind_tablefunc_repeat.go
		return !f.Star && allBindable(f.Args...)
	case catalogTableFuncs[fn]:
		return !f.Star && allBindable(f.Args...)
	case queryFuncs[fn] || fn == "glob":
		return !f.Star
	}
	_, ok := function.Find(function.Table, fn) // b2_metadata
	return ok
}

// catalogTableFuncs are the table functions whose rows the binder makes
// from the catalog or the session (constants, or a query for summarize).
var catalogTableFuncs = map[string]bool{"summarize": true, "duckdb_settings": true, "duckdb_functions": true, "duckdb_schemas": true, "duckdb_variables": true,
	"duckdb_tables": true, "duckdb_columns": true, "duckdb_views": true, "duckdb_databases": true,
	"duckdb_sequences": true, "duckdb_indexes": true, "duckdb_types": true, "pragma_table_info": true}

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
	if queryFuncs[fn] {
		return b.bindQueryFunc(fn, f, alias, cols, at) // bind_query_func.go
	}
	if fn == "glob" {
		return b.bindGlob(f, alias, cols, at) // bind_glob.go
	}
	if catalogTableFuncs[fn] {
		args := make(callexpr.SelectExprs, len(f.Args))
		for i, a := range f.Args {
			args[i] = &callexpr.AliasedExpr{Expr: callArg(a)}
		}
		switch fn {
		case "summarize":
			return b.bindSummarize(args, alias, at) // bind_summarize.go
		case "duckdb_functions":
			return b.bindFunctionsTable(args, alias, at) // bind_func_table.go
		case "duckdb_schemas":
			return b.bindSchemasTable(args, alias, at) // bind_schemas.go
		case "duckdb_variables":
			return b.bindVariablesTable(args, alias, at) // variables.go
		case "duckdb_tables", "duckdb_columns", "duckdb_views", "duckdb_databases":
			return b.catalogTables(fn, args, alias, at) // bind_catalog_tables.go
		case "duckdb_sequences", "duckdb_indexes", "duckdb_types":
			return b.catalogObjects(fn, args, alias, at) // bind_catalog_objects.go
		case "pragma_table_info":
			return b.bindTableInfo(args, alias, at) // bind_table_info.go
		}
		return b.bindSettingsTable(args, alias, at) // bind_settings.go
	}
	var n planner.Node
	var err error
	switch {
	case seriesFuncs[fn]:
		args := make(callexpr.SelectExprs, len(f.Args))
		for i, a := range f.Args {
			args[i] = &callexpr.AliasedExpr{Expr: astSrc(a)}
		}
		n, err = b.bindSeries(fn, args, alias, cols, b.q.spanOf(f), b.refTok(t))
	case FileFuncs[fn]:
		var call *FileCall
		if call, err = callArgs(b.q.src, fn, b.q.toks, at+1, b.q.tokAt(f.End)-1); err == nil {
			call.Virtual = b.q.virtualNames()
			n, err = b.bindFileCall(call, alias, cols, at, b.refTok(t))
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

// Series table functions, as in DuckDB:
//
//	range(stop)                    0, 1, … stop-1
//	range(start, stop [, step])    start, start+step, … before stop
//	generate_series(…)             the same, stop included
//	range(ts, ts, INTERVAL)        TIMESTAMPs (DATE bounds become TIMESTAMPs)
//
// The one column is named after the function (BIGINT or TIMESTAMP) unless
// the alias names it: range(5) AS t(i). Arguments are constants (folded
// here); a NULL argument gives no rows, a zero step is an error.
var seriesFuncs = map[string]bool{"range": true, "generate_series": true}

// isSeriesCall reports whether t calls range or generate_series plainly.
func isSeriesCall(t *ast.TableFunc) bool {
	f := t.Func
	return len(f.Name) == 1 && seriesFuncs[strings.ToLower(f.Name[0].Name)] && t.Sample == nil && f.Over == nil &&
		f.Filter == nil && len(f.OrderBy) == 0 && !f.Star && !f.Distinct
}

// bindSeries binds range/generate_series in FROM to a scan of a
// planner.SeriesTable. sp is the call's span, aliasAt the token of its
// alias (refTok).
func (b *binder) bindSeries(fn string, args callexpr.SelectExprs, alias string, cols []string, sp span, aliasAt int) (planner.Node, error) {
	at := sp.lo
	c := ectx{sp: sp, clause: "FROM"}
	saved := b.saveScope()
	b.scope, b.quals, b.hidden = nil, nil, nil
	defer b.restoreScope(saved)
	var srcs []callexpr.Expr
	var vals []*planner.Const
	// errArg reports an error at the first token of argument i.
	errArg := func(i int, format string, a ...any) error {
		return b.errAt(b.argTok(at, i), ErrType, fmt.Sprintf(format, a...))
	}
	for i, a := range args {
		ae, ok := a.(*callexpr.AliasedExpr)
		if !ok {
			return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("%s(*) is not valid", fn))
		}
		x, err := b.bindExpr(ae.Expr, c)
		if err != nil {
			return nil, err
		}
		k, ok := planner.FoldExpr(x).(*planner.Const)
		if !ok {
			return nil, errArg(i, "%s expects constant arguments", fn)
		}
		srcs, vals = append(srcs, ae.Expr), append(vals, k)
	}
	if len(vals) < 1 || len(vals) > 3 {
		return nil, b.arity(at, fn, "1 to 3")
	}
	s := planner.Series{Step: 1, Inclusive: fn == "generate_series", Type: columnar.TInt64}
	empty := false
	if len(vals) == 3 && vals[2].Val.Type.ID == columnar.Interval {
		if err := b.timestampSeries(&s, fn, vals, errArg); err != nil {
			return nil, err
		}
		empty = vals[0].Val.Null || vals[1].Val.Null || vals[2].Val.Null
	} else {
		ints := make([]int64, len(vals))
		for i, k := range vals {
			t := k.Val.Type
			if t.ID != columnar.Null && !t.IsInteger() {
				want := "BIGINT"
				if i == 2 && (t.ID == columnar.Timestamp || t.ID == columnar.Date) {
					want = "INTERVAL"
				}
				return nil, errArg(i, "%s expects %s arguments, got %s", fn, want, t)
			}
			if t.Phys() == columnar.PhysUint && k.Val.I < 0 {
				return nil, errArg(i, "%s argument %s is out of range for BIGINT", fn, k.Val)
			}
			empty = empty || k.Val.Null
			ints[i] = k.Val.I
		}
		switch len(ints) {
		case 1:
			s.Stop = ints[0]
		default:
			s.Start, s.Stop = ints[0], ints[1]
			if len(ints) == 3 {
				s.Step = ints[2]
			}
		}
	}
	if !empty && s.Step == 0 && s.Months == 0 {
		return nil, errArg(len(vals)-1, "%s step cannot be 0", fn)
	}
	if empty {
		// No rows: an exclusive series from 0 to 0.
		s.Start, s.Stop, s.Step, s.Months, s.Inclusive = 0, 0, 1, 0, false
	}
	if alias == "" {
		alias = fn
	}
	name := fn
	if len(cols) > 0 {
		if len(cols) > 1 {
			return nil, b.errAt(aliasAt, ErrUnsupported,
				fmt.Sprintf("%q has 1 column but %d column names were given", alias, len(cols)))
		}
		name = cols[0]
	}
	tbl := &planner.SeriesTable{Func: name, Series: s}
	return b.scan(tbl, fn, alias), nil
}

// timestampSeries fills s for range(start, stop, INTERVAL): DATE and
// string bounds become TIMESTAMPs, the step keeps its calendar months.
func (b *binder) timestampSeries(s *planner.Series, fn string, vals []*planner.Const, errArg func(int, string, ...any) error) error {
	s.Type = columnar.TTimestamp
	for i := range 2 {
		v := vals[i].Val
		switch v.Type.ID {
		case columnar.Timestamp, columnar.Null:
		case columnar.Date, columnar.Varchar:
			k, ok := planner.FoldExpr(&planner.Cast{Arg: vals[i], To: columnar.TTimestamp}).(*planner.Const)
			if !ok {
				return errArg(i, "could not cast %s to TIMESTAMP", quoteSQL(v.String()))
			}
			v = k.Val
		default:
			return errArg(i, "%s with an INTERVAL step expects TIMESTAMP bounds, got %s", fn, v.Type)
		}
		if i == 0 {
			s.Start = v.I
		} else {
			s.Stop = v.I
		}
	}
	step := vals[2].Val.Interval()
	s.Months = int64(step.Months)
	s.Step = int64(step.Days)*columnar.MicrosPerDay + step.Micros
	return nil
}

// argTok returns the first token of argument i of the call whose name is
// token at (the name itself if the call has no such argument).
func (b *binder) argTok(at, i int) int {
	toks := b.q.toks
	depth, arg := 0, 0
	for j := at + 1; j < len(toks); j++ {
		switch {
		case toks[j].isOp("("):
			depth++
			if depth == 1 && arg == i {
				return j + 1
			}
		case toks[j].isOp(")"):
			if depth--; depth == 0 {
				return at
			}
		case toks[j].isOp(",") && depth == 1:
			if arg++; arg == i {
				return j + 1
			}
		}
	}
	return at
}
