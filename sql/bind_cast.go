package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// castTo builds CAST(x AS to), or TRY_CAST; src is x's syntax.
func (b *binder) castTo(x planner.Expr, src callexpr.Expr, to columnar.Type, try bool, c ectx) (planner.Expr, error) {
	if !canCast(x.Type(), to) {
		return nil, b.typeErr(src, c, "cannot cast %s to %s", x.Type(), to)
	}
	if msg := geometryCastErr(x.Type(), to); msg != "" { // types_geometry.go
		return nil, b.typeErr(src, c, "%s", msg)
	}
	if try && parsesGeometry(x.Type(), to) {
		try = false // DuckDB 1.5 raises a WKT parse error under TRY_CAST too
	}
	if try {
		if y, ok := b.tzCast(x, to, true); ok { // bind_timezone.go
			return y, nil
		}
		if k, ok := x.(*planner.Const); ok {
			if k.Val.Type.IsString() && to.IsNested() {
				v, _ := executor.TryCastValue(k.Val, to) // '[1, x]' reads [1, NULL]
				return &planner.Const{Val: v}, nil
			}
			if v, done, err := castConst(k.Val, to); done {
				if err != nil {
					return &planner.Const{Val: columnar.NullValue(to)}, nil
				}
				return &planner.Const{Val: v}, nil
			}
		}
		if x.Type() == to {
			return x, nil
		}
		return &planner.Cast{Arg: x, To: to, Try: true}, nil
	}
	if x.Type().IsNested() && !to.IsNested() {
		return &planner.Cast{Arg: x, To: to}, nil // coerce refuses it implicitly
	}
	out, err := b.coerce(x, to, src, c)
	if err != nil {
		return nil, err
	}
	if k, ok := out.(*planner.Const); ok {
		if _, lit := b.lits[k]; lit {
			// An explicitly cast literal is typed: it no longer adapts.
			out = &planner.Const{Val: k.Val}
		}
	}
	return out, nil
}

// quoteSQL renders s as a SQL string literal.
func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
