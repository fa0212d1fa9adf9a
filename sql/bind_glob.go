package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// glob(pattern), DuckDB's table function of the files a pattern matches:
// one row per file, its name in the column file, as the pattern spells
// it. The catalog lists them (Globber), confined to the root as the file
// functions' paths are; the rows are constants of the statement.

func init() {
	function.Register(&function.Set{Name: "glob", Kind: function.Table, Categories: []string{"table"}, CustomBind: true,
		Description: "The files a glob pattern matches (local or remote), one row each", Examples: []string{"glob('data/*.parquet')"},
		Overloads: []function.Overload{{Params: []string{"pattern"}, Args: []function.Arg{function.Str}}}})
}

// Globber is a catalog that lists the files a pattern matches.
type Globber interface {
	Glob(pattern string) ([]string, error)
}

// bindGlob binds glob('pattern') called at token at.
func (b *binder) bindGlob(f *ast.Func, alias string, cols []string, at int) (*fromItem, error) {
	if len(f.Args) != 1 {
		return nil, b.arity(at, "glob", "1")
	}
	argAt := b.q.tokAt(f.Args[0].Extent().Start)
	v, err := b.constArg(f.Args[0]) // bind_query_func.go
	if err != nil || v.Null || v.Type.Phys() != columnar.PhysBytes {
		return nil, b.errAt(argAt, ErrType, "glob expects a constant string pattern")
	}
	g, ok := b.cat.(Globber)
	if !ok {
		return nil, b.errAt(at, ErrUnsupported, "glob: this database does not list files")
	}
	files, err := g.Glob(v.S)
	if err != nil {
		return nil, b.errAt(argAt, ErrUnknownTable, fmt.Sprintf("glob(%s): %v", quoteSQL(v.S), err))
	}
	if alias == "" {
		alias = "glob"
	}
	n := &planner.Values{Note: "files matched"}
	n.Out = append(n.Out, b.newCol("file", alias, columnar.TVarchar))
	for _, name := range files {
		n.Rows = append(n.Rows, []planner.Expr{&planner.Const{Val: columnar.StringValue(name)}})
	}
	return b.relation(&Bound{Root: n, Names: []string{"file"}}, alias, cols, func(kind error, msg string) error { return b.errAt(at, kind, msg) })
}
