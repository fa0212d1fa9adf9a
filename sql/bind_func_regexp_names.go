package sql

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindRegexpNames binds regexp_extract(s, p, ['name', …] [, opts]) and
// regexp_extract_all's form of it: the groups 1, 2, … of a match as the
// fields of a STRUCT named by the list (a list of them for
// regexp_extract_all). As in DuckDB the names are a constant, non-empty
// list without NULLs or duplicates (ignoring case), the pattern a
// constant with at least as many groups.
func (b *binder) bindRegexpNames(name string, names *planner.Const, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	bad := func(msg string) (planner.Expr, bool, error) {
		return nil, true, b.errAt(b.argTok(at, 2), ErrType, msg)
	}
	if len(names.Val.Elems) == 0 {
		return bad(name + ": the group name list must be non-empty")
	}
	fields := make([]columnar.Field, len(names.Val.Elems))
	seen := map[string]bool{}
	for i, n := range names.Val.Elems {
		if n.Null {
			return bad("NULL group name in " + name)
		}
		s := n.String()
		if seen[strings.ToLower(s)] {
			return bad(fmt.Sprintf("duplicate group name %q in %s", s, name))
		}
		seen[strings.ToLower(s)] = true
		fields[i] = columnar.Field{Name: s, Type: columnar.TVarchar, Nullable: true}
	}
	pat, ok := planner.FoldExpr(xs[1]).(*planner.Const)
	if !ok || pat.Val.Null {
		return nil, true, b.errAt(b.argTok(at, 1), ErrType, name+" with group names needs a constant pattern")
	}
	zero := int64(0)
	rest := append([]planner.Expr{xs[0], xs[1]}, xs[3:]...)
	restSrcs := append([]callexpr.Expr{srcs[0], srcs[1]}, srcs[3:]...)
	e, ok, err := b.bindRegexpArgs(name, 2, rest, restSrcs, at, c, &zero)
	call, isCall := e.(*planner.Call)
	if err != nil || !isCall {
		return e, ok, err
	}
	if k, isConst := call.Args[1].(*planner.Const); isConst {
		if re, err := regexp.Compile(k.Val.S); err == nil && re.NumSubexp() < len(fields) {
			return bad(fmt.Sprintf("%s: %d group names for a pattern with %d groups", name, len(fields), re.NumSubexp()))
		}
	}
	st := columnar.StructOf(fields...)
	call.Args[2] = &planner.Const{Val: columnar.Value{Type: columnar.ListOf(columnar.TVarchar), Elems: names.Val.Elems}}
	call.T = st
	if name == "regexp_extract_all" {
		call.T = columnar.ListOf(st)
	}
	return call, true, nil
}
