package sql

import (
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// boundArg is a call argument already bound (a window aggregate's, over
// the window's input: bind_window_any.go) that the call helpers take as
// it is: bindExpr returns x, errors point at src.
type boundArg struct {
	x   planner.Expr
	src callexpr.Expr // its syntax, for errors
}

func (*boundArg) IExpr() {}
