package sql

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// DuckDB's regular-expression options, a constant string of letters:
//
//	c  case-sensitive (the default)      i  case-insensitive
//	s  . matches a newline               m, n, p  ^ and $ match at line breaks
//	l  the pattern is a literal string   g  every match (regexp_replace only)
//
// They become RE2 flags in front of the pattern, so the executor's
// functions see a plain pattern (and regexp_replace still reads 'g').

// bindRegexp binds regexp_matches(s, p [, opts]), regexp_full_match(s, p
// [, opts]), regexp_replace(s, p, r [, opts]) and regexp_extract(s, p
// [, group [, opts]]); ok is false for other names.
func (b *binder) bindRegexp(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	nargs := 2
	switch name {
	case "regexp_matches", "regexp_full_match":
	case "regexp_replace":
		nargs = 3
	case "regexp_extract", "regexp_extract_all":
		return b.bindRegexpExtract(name, xs, srcs, at, c)
	default:
		return nil, false, nil
	}
	if len(xs) < nargs || len(xs) > nargs+1 {
		return nil, true, b.arity(at, name, fmt.Sprintf("%d or %d", nargs, nargs+1))
	}
	return b.bindRegexpArgs(name, nargs, xs, srcs, at, c, nil)
}

// bindRegexpExtract binds regexp_extract(s, p [, group [, opts]]) and
// regexp_extract_all: the group (0, the whole match, by default) must be
// a constant; it becomes the third argument of the executor's function.
// regexp_extract_all takes a negative group (its list is then empty), a
// NULL one (its answer is NULL) and one that is not constant, as DuckDB
// does.
func (b *binder) bindRegexpExtract(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) < 2 || len(xs) > 4 {
		return nil, true, b.arity(at, name, "2 to 4")
	}
	all := name == "regexp_extract_all"
	group := int64(0)
	var groupArg planner.Expr // regexp_extract_all's group that is not constant
	if len(xs) >= 3 {
		k, ok := planner.FoldExpr(xs[2]).(*planner.Const)
		switch {
		case ok && k.Val.Type.ID == columnar.List:
			if k.Val.Null {
				return nil, true, b.errAt(b.argTok(at, 2), ErrType, name+": the group names must be a list, not NULL")
			}
			return b.bindRegexpNames(name, k, xs, srcs, at, c)
		case all && ok && k.Val.Null:
			return &planner.Const{Val: columnar.NullValue(columnar.ListOf(columnar.TVarchar))}, true, nil
		case ok && k.Val.Null:
			group = -1 // regexp_extract of a NULL group is '', as in DuckDB
		case !ok && xs[2].Type().ID == columnar.List:
			return nil, true, b.errAt(b.argTok(at, 2), ErrType, name+": the group names must be a constant list")
		case all && !ok:
			g, err := b.coerceAll(xs[2:3], columnar.TInt64, srcs[2:3], c)
			if err != nil {
				return nil, true, err
			}
			groupArg = g[0]
		case !ok || k.Val.Null || !k.Val.Type.IsInteger() || k.Val.I < 0 && !all:
			return nil, true, b.errAt(b.argTok(at, 2), ErrType, name+" expects a constant non-negative group number")
		case !all && k.Val.I > 9:
			// RE2 rewrites reach \9; a group the pattern lacks gives ''.
			return nil, true, b.errAt(b.argTok(at, 2), ErrType, fmt.Sprintf("regexp_extract: group index must be between 0 and 9, not %d", k.Val.I))
		default:
			group = k.Val.I
		}
		xs = append([]planner.Expr{xs[0], xs[1]}, xs[3:]...)
		srcs = append([]callexpr.Expr{srcs[0], srcs[1]}, srcs[3:]...)
	}
	e, ok, err := b.bindRegexpArgs(name, 2, xs, srcs, at, c, &group)
	if call, isCall := e.(*planner.Call); isCall && groupArg != nil {
		call.Args[2] = groupArg
	}
	return e, ok, err
}

// bindRegexpArgs binds the string, pattern (+ replacement) and options of
// a regexp function whose options, if any, are argument nargs.
func (b *binder) bindRegexpArgs(name string, nargs int, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx, group *int64) (planner.Expr, bool, error) {
	args, err := b.coerceAll(xs, columnar.TVarchar, srcs, c)
	if err != nil {
		return nil, true, err
	}
	opts := ""
	if len(xs) == nargs+1 {
		k, ok := planner.FoldExpr(args[nargs]).(*planner.Const)
		if !ok || k.Val.Null {
			return nil, true, b.errAt(b.argTok(at, nargs), ErrType, fmt.Sprintf("%s expects constant options", name))
		}
		opts = k.Val.S
	}
	flags, literal, global, keep := "", false, false, false
	for _, o := range opts {
		switch o {
		case ' ', '\t', '\n', '\r':
			// whitespace between options is ignored, as in DuckDB
		case 'c':
			flags = strings.ReplaceAll(flags, "i", "")
		case 'i':
			flags += "i"
		case 's':
			flags += "s"
		case 'm', 'n', 'p':
			flags += "m"
		case 'l':
			literal = true
		case 'g':
			if name != "regexp_replace" {
				return nil, true, b.errAt(b.argTok(at, nargs), ErrType, fmt.Sprintf("%s does not take option 'g'", name))
			}
			global = true
		case 'k':
			if name != "regexp_extract" {
				return nil, true, b.errAt(b.argTok(at, nargs), ErrType, fmt.Sprintf("%s does not take option 'k'", name))
			}
			keep = true
		default:
			return nil, true, b.errAt(b.argTok(at, nargs), ErrType, fmt.Sprintf("unrecognized regex option %q", string(o)))
		}
	}
	prefix, suffix := "", ""
	if flags != "" {
		prefix = "(?" + flags + ")"
	}
	if name == "regexp_full_match" {
		prefix, suffix = prefix+`\A(?:`, `)\z`
	}
	pat := args[1]
	if k, ok := planner.FoldExpr(pat).(*planner.Const); ok {
		p := k.Val.S
		if literal {
			p = regexp.QuoteMeta(p)
		}
		if !k.Val.Null {
			_, err := regexp.Compile(prefix + p + suffix)
			if err != nil {
				return nil, true, b.errAt(b.argTok(at, 1), ErrType, fmt.Sprintf("invalid regular expression %s: %v", quoteSQL(k.Val.S), err))
			}
			pat = &planner.Const{Val: columnar.StringValue(prefix + p + suffix)}
		}
	} else if literal {
		return nil, true, b.errAt(b.argTok(at, nargs), ErrType, fmt.Sprintf("%s option 'l' needs a constant pattern", name))
	} else if prefix != "" || suffix != "" {
		str := func(s string) planner.Expr { return &planner.Const{Val: columnar.StringValue(s)} }
		pat = &planner.Call{Fn: "concat", Args: []planner.Expr{str(prefix), pat, str(suffix)}, T: columnar.TVarchar}
	}
	out := []planner.Expr{args[0], pat}
	switch name {
	case "regexp_extract":
		out = append(out, &planner.Const{Val: columnar.IntValue(columnar.TInt64, *group)})
		if keep {
			out = append(out, &planner.Const{Val: columnar.StringValue("k")})
		}
		return &planner.Call{Fn: "regexp_extract", Args: out, T: columnar.TVarchar}, true, nil
	case "regexp_extract_all":
		out = append(out, &planner.Const{Val: columnar.IntValue(columnar.TInt64, *group)})
		return &planner.Call{Fn: name, Args: out, T: columnar.ListOf(columnar.TVarchar)}, true, nil
	case "regexp_replace":
		out = append(out, args[2])
		if global {
			out = append(out, &planner.Const{Val: columnar.StringValue("g")})
		}
		return &planner.Call{Fn: "regexp_replace", Args: out, T: columnar.TVarchar}, true, nil
	}
	return &planner.Call{Fn: "regexp_matches", Args: out, T: columnar.TBool}, true, nil
}

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
