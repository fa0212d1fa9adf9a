package sql

import (
	"fmt"
	"strconv"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// aggArity is how an aggregate may be called: lo to hi arguments, the
// first bind of them bound by aggArgs (the others are constants or bins
// the caller binds itself), and DISTINCT refused when plain.
type aggArity struct {
	lo, hi, bind int
	plain        bool
}

// aggPlace reports an aggregate call (at token at) where none may be:
// inside another aggregate's argument, or in a clause without aggregates.
func (b *binder) aggPlace(at int, c ectx) error {
	switch {
	case c.inAgg:
		return b.errAt(at, ErrGrouping, "aggregate function calls cannot be nested")
	case !c.aggOK:
		return b.errAt(at, ErrGrouping, fmt.Sprintf("aggregate functions are not allowed in %s", c.clause))
	}
	return nil
}

// aggArgs is every aggregate call's prologue: where it is called
// (aggPlace), with how many arguments and no * (ar), then its first
// ar.bind arguments bound inside the aggregate. It returns them and the
// context the caller binds the other arguments in.
func (b *binder) aggArgs(name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx, ar aggArity) ([]planner.Expr, ectx, error) {
	if err := b.aggPlace(at, c); err != nil {
		return nil, c, err
	}
	if star || len(args) < ar.lo || len(args) > ar.hi {
		want := strconv.Itoa(ar.lo)
		if ar.hi > ar.lo {
			want += " or " + strconv.Itoa(ar.hi)
		}
		return nil, c, b.arity(at, name, want)
	}
	if ar.plain && e.Distinct {
		return nil, c, b.errAt(at, ErrSyntax, fmt.Sprintf("DISTINCT is not valid in %s", name))
	}
	ac := c
	ac.inAgg, ac.aggOK = true, false
	xs := make([]planner.Expr, min(ar.bind, len(args)))
	for k := range xs {
		x, err := b.bindExpr(args[k], ac)
		if err != nil {
			return nil, ac, err
		}
		xs[k] = x
	}
	return xs, ac, nil
}

// twoArgAgg is arg_max, covar_pop, corr, regr_* and the like: two
// arguments, both bound, no DISTINCT.
var twoArgAgg = aggArity{lo: 2, hi: 2, bind: 2, plain: true}
