package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// RandomSession is implemented by a catalog that belongs to a session
// with its own random engine (executor/random.go): random() and
// setseed(x) are bound to name it, so that setseed in one statement fixes
// the random() values of the next ones, as in DuckDB.
type RandomSession interface {
	RandomToken() int64
}

// bindRandom binds random() and setseed(x) as the executor's
// random_session(token) and setseed_session(x, token).
func (b *binder) bindRandom(name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	var token int64
	if rs, ok := b.cat.(RandomSession); ok {
		token = rs.RandomToken()
	}
	tok := &planner.Const{Val: columnar.IntValue(columnar.TInt64, token)}
	if name == "random" {
		if len(args) != 0 {
			return nil, b.arity(at, name, "0")
		}
		return &planner.Call{Fn: "random_session", Args: []planner.Expr{tok}, T: columnar.TFloat64}, nil
	}
	if len(args) != 1 {
		return nil, b.arity(at, name, "1")
	}
	x, err := b.bindExpr(args[0], c)
	if err != nil {
		return nil, err
	}
	if t := x.Type(); !isNum(t) && t.ID != columnar.Null && !b.flexible(x, columnar.TFloat64, false) {
		return nil, b.typeErr(args[0], c, "setseed expects a number, got %s", t)
	}
	if x, err = b.coerce(x, columnar.TFloat64, args[0], c); err != nil {
		return nil, err
	}
	return &planner.Call{Fn: "setseed_session", Args: []planner.Expr{x, tok}, T: columnar.TNull}, nil
}

// bindRandomCall is random's and setseed's hook (bind_func_hooks.go).
func bindRandomCall(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	x, err := b.bindRandom(name, args, at, c)
	return x, true, err
}
