package planner

import (
	"fmt"

	"github.com/b2sql/b2sql/executor"
)

// CompileExpr turns a bound expression into an executable one; lay maps
// column IDs to input positions.
func CompileExpr(e Expr, lay map[ColID]int) (executor.Expr, error) {
	switch e := e.(type) {
	case *ColRef:
		pos, ok := lay[e.Col.ID]
		if !ok {
			return nil, fmt.Errorf("planner: column %s (#%d) not in input", e.Col.Name, e.Col.ID)
		}
		return executor.ColumnExpr(pos, e.Col.Type), nil
	case *Const:
		return executor.ConstExpr(e.Val), nil
	case *Cast:
		arg, err := CompileExpr(e.Arg, lay)
		if err != nil {
			return nil, err
		}
		return executor.NewCast(arg, e.To, e.Try), nil
	case *Case:
		conds := make([]executor.Expr, len(e.Whens))
		thens := make([]executor.Expr, len(e.Whens))
		for i, w := range e.Whens {
			c, err := CompileExpr(w.Cond, lay)
			if err != nil {
				return nil, err
			}
			t, err := CompileExpr(w.Then, lay)
			if err != nil {
				return nil, err
			}
			conds[i], thens[i] = c, t
		}
		var els executor.Expr
		if e.Else != nil {
			x, err := CompileExpr(e.Else, lay)
			if err != nil {
				return nil, err
			}
			els = x
		}
		return executor.NewCase(conds, thens, els, e.T), nil
	case *Lambda:
		return compileLambda(e, lay) // lambda.go
	case *Call:
		args := make([]executor.Expr, len(e.Args))
		for i, a := range e.Args {
			x, err := CompileExpr(a, lay)
			if err != nil {
				return nil, err
			}
			args[i] = x
		}
		return executor.NewCall(e.Fn, args, e.T)
	}
	return nil, fmt.Errorf("planner: cannot compile %T", e)
}
