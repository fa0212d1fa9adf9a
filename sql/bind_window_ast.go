package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// bindWindowAST binds a call with OVER from the syntax tree: its named
// windows resolved against the SELECT's WINDOW clause (b.sel), then as
// bindWindow.
func (b *binder) bindWindowAST(f *ast.Func, c ectx) (planner.Expr, error) {
	name := strings.ToLower(f.Name[0].Name)
	at := b.q.tokAt(f.Start)
	over := b.q.tokAt(f.Over.Start)
	if !b.q.toks[min(over, len(b.q.toks)-1)].is("OVER") && over > 0 {
		over-- // OVER ( … ): the window's span starts at "("
	}
	if err := b.windowAllowed(over, c); err != nil {
		return nil, err
	}
	b.win.binding++
	defer func() { b.win.binding-- }()
	spec, err := b.resolveWindowAST(f.Over, over)
	if err != nil {
		return nil, err
	}
	w := winCall{name: name, distinct: f.Distinct, at: at, over: over, star: f.Star}
	if err := w.checkDistinct(b); err != nil {
		return nil, err
	}
	for _, a := range f.Args {
		w.args = append(w.args, astSrc(a))
	}
	if len(w.args) == 1 && f.Filter == nil {
		// count_if and any_value are other aggregates (bind_agg_more.go).
		if r := rewriteAgg(name, w.args[0]); r != nil {
			if w.args, _, err = b.callArgs(r, at); err != nil {
				return nil, err
			}
			w.name = r.Name.Lowered()
		}
	}
	if f.Filter != nil {
		if !windowAggNames[name] && argMinMaxAggs[name] == 0 {
			return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("FILTER is only valid for aggregate functions, not %s", name))
		}
		w.args, w.star = filteredArgs(name, w.args, w.star, f.Filter)
	}
	for _, p := range spec.PartitionBy {
		w.partition = append(w.partition, astSrc(p))
	}
	for _, o := range spec.OrderBy {
		w.order = append(w.order, winOrder{expr: astSrc(o.X), desc: o.Desc, nullsFirst: o.Nulls == "FIRST"})
	}
	if w.frame, err = b.astFrame(spec.Frame); err != nil {
		return nil, err
	}
	if f.Nulls != ast.NullsDefault {
		kw := "IGNORE"
		if f.Nulls == ast.RespectNulls {
			kw = "RESPECT"
		}
		w.nulls = &nullsMode{ignore: f.Nulls == ast.IgnoreNulls, at: b.q.findKeyword(kw, span{at, over})}
	}
	return b.bindWindowCall(w, c)
}

// filteredArgs folds agg(args) FILTER (WHERE cond) into the arguments:
// agg(CASE WHEN cond THEN x END, …), whose NULLs every aggregate skips
// (count(*) counts CASE WHEN cond THEN 1 END); arg_max(arg, val) wraps
// val, whose NULL rows it skips.
func filteredArgs(name string, args []sqlparser.Expr, star bool, cond ast.Expr) ([]sqlparser.Expr, bool) {
	k := 0
	if argMinMaxAggs[name] != 0 && len(args) == 2 {
		k = 1
	}
	if star || len(args) == 0 {
		args, star = []sqlparser.Expr{sqlparser.NewIntVal([]byte("1"))}, false
	}
	out := append([]sqlparser.Expr(nil), args...)
	out[k] = &sqlparser.CaseExpr{Whens: []*sqlparser.When{{Cond: astSrc(cond), Val: args[k]}}}
	return out, star
}

// resolveWindowAST resolves OVER w, OVER (w …) and WINDOW definitions in
// terms of one another as resolveWindow does.
func (b *binder) resolveWindowAST(o *ast.Window, over int) (*ast.Window, error) {
	spec := &ast.Window{PartitionBy: o.PartitionBy, OrderBy: o.OrderBy, Frame: o.Frame}
	var defs []*ast.NamedWindow
	if b.sel != nil {
		defs = b.sel.Windows
	}
	ref := o.Base
	defAt := len(defs)
	for seen := 0; ref != nil; seen++ {
		at, dups := -1, 0
		for i, d := range defs {
			if strings.EqualFold(d.Name.Name, ref.Name) {
				if dups++; dups == 2 {
					return nil, b.errAt(b.q.tokAt(d.Name.Start), ErrSyntax, fmt.Sprintf("window %q is defined twice", ref.Name))
				}
				at = i
			}
		}
		if at < 0 {
			return nil, b.errAt(b.q.tokAt(ref.Start), ErrUnknownColumn, fmt.Sprintf("unknown window %q", ref.Name))
		}
		if at >= defAt {
			return nil, b.errAt(b.q.tokAt(ref.Start), ErrUnknownColumn, fmt.Sprintf("window %q does not exist before its use in the WINDOW clause", ref.Name))
		}
		defAt = at
		if seen > len(defs) {
			return nil, b.errAt(over, ErrSyntax, fmt.Sprintf("window %q is defined in terms of itself", ref.Name))
		}
		def := defs[at].Window
		if len(def.PartitionBy) > 0 {
			if len(spec.PartitionBy) > 0 {
				return nil, b.errAt(over, ErrSyntax, fmt.Sprintf("cannot override PARTITION BY of window %q", ref.Name))
			}
			spec.PartitionBy = def.PartitionBy
		}
		if len(def.OrderBy) > 0 {
			if len(spec.OrderBy) > 0 {
				return nil, b.errAt(over, ErrSyntax, fmt.Sprintf("cannot override ORDER BY of window %q", ref.Name))
			}
			spec.OrderBy = def.OrderBy
		}
		if def.Frame != nil && seen == 0 && over+1 < len(b.q.toks) && b.q.toks[over+1].isOp("(") {
			return nil, b.errAt(over, ErrSyntax, fmt.Sprintf("cannot copy window %q because it has a frame clause", ref.Name))
		}
		if spec.Frame == nil {
			spec.Frame = def.Frame
		}
		ref = def.Base
	}
	return spec, nil
}

// astFrame is the winFrame of a frame clause of the syntax tree. An
// INTERVAL '…' offset is checked here, where the text is: it must parse,
// and count no months.
func (b *binder) astFrame(fr *ast.Frame) (*winFrame, error) {
	if fr == nil {
		return nil, nil
	}
	out := &winFrame{unit: fr.Unit}
	switch fr.Exclude {
	case "CURRENT ROW":
		out.exclude = planner.ExcludeCurrentRow
	case "GROUP":
		out.exclude = planner.ExcludeGroup
	case "TIES":
		out.exclude = planner.ExcludeTies
	case "NO OTHERS":
		out.exclude = planner.ExcludeNoOthers
	}
	bound := func(bd *ast.Bound) (*winBound, error) {
		wb := &winBound{kind: bd.Kind}
		if bd.Offset == nil {
			return wb, nil
		}
		wb.expr = astSrc(bd.Offset)
		if iv, ok := bd.Offset.(*ast.Interval); ok {
			if l, ok := iv.Value.(*ast.Literal); ok && iv.Unit == "" && l.Kind == ast.LitString {
				if _, ok := parseInterval(l.Val); !ok {
					return nil, b.errAt(b.q.tokAt(l.Start), ErrType, fmt.Sprintf("could not cast %s to INTERVAL", quoteSQL(l.Val)))
				}
				if hasCalendarUnit(l.Val) {
					return nil, b.errAt(b.q.tokAt(iv.Start), ErrUnsupported, "RANGE offsets in months, quarters or years are not supported")
				}
			}
			wb.calendar = iv.Unit != "" && hasCalendarUnit("1 "+iv.Unit)
		}
		return wb, nil
	}
	var err error
	if out.start, err = bound(fr.Start); err != nil {
		return nil, err
	}
	if fr.End != nil {
		if out.end, err = bound(fr.End); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// windowBindable reports whether every expression of an OVER clause has
// a bind case.
func windowBindable(w *ast.Window) bool {
	if !allBindable(w.PartitionBy...) {
		return false
	}
	for _, o := range w.OrderBy {
		if !astBindable(o.X) {
			return false
		}
	}
	if fr := w.Frame; fr != nil {
		for _, bd := range []*ast.Bound{fr.Start, fr.End} {
			if bd != nil && bd.Offset != nil && !astBindable(bd.Offset) {
				return false
			}
		}
	}
	return true
}
