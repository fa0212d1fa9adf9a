package planner

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

// Lambda is x -> body or (x, y) -> body, an argument of list_transform,
// list_filter and list_reduce only (functions.go). Params are the
// columns the body reads for the parameters; the function binds them to
// a list's elements (and their positions, or an accumulator). Any other
// column the body reads is the input row's (a capture).
type Lambda struct {
	Params []Column
	Body   Expr
}

func (e *Lambda) Type() columnar.Type { return e.Body.Type() }

func (e *Lambda) String() string {
	names := make([]string, len(e.Params))
	for i, p := range e.Params {
		names[i] = p.Name
	}
	if len(names) == 1 {
		return names[0] + " -> " + e.Body.String()
	}
	return "(" + strings.Join(names, ", ") + ") -> " + e.Body.String()
}

// isParam reports whether c is one of the lambda's parameters.
func (e *Lambda) isParam(c ColID) bool {
	for _, p := range e.Params {
		if p.ID == c {
			return true
		}
	}
	return false
}

// compileLambda compiles the body over a batch whose columns are the
// parameters, then the captured input columns, which it reads from the
// input (lay) per row.
func compileLambda(e *Lambda, lay map[ColID]int) (executor.Expr, error) {
	inner := map[ColID]int{}
	for i, p := range e.Params {
		inner[p.ID] = i
	}
	var caps []executor.Expr
	var err error
	WalkExpr(e.Body, func(x Expr) {
		c, ok := x.(*ColRef)
		if !ok || err != nil {
			return
		}
		if _, seen := inner[c.Col.ID]; seen {
			return
		}
		inner[c.Col.ID] = len(inner)
		var k executor.Expr
		if k, err = CompileExpr(c, lay); err == nil {
			caps = append(caps, k)
		}
	})
	if err != nil {
		return nil, err
	}
	body, err := CompileExpr(e.Body, inner)
	if err != nil {
		return nil, err
	}
	types := make([]columnar.Type, len(e.Params))
	for i, p := range e.Params {
		types[i] = p.Type
	}
	return executor.NewLambda(body, caps, types), nil
}
