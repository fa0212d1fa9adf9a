package planner

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// Expr is a bound, typed scalar expression. Binding has resolved every name
// to a ColID, chosen every function, and inserted every implicit cast, so the
// arguments of a Call already have the types its kernel expects (see
// functions.go for the vocabulary).
type Expr interface {
	Type() columnar.Type
	String() string
}

// ColRef reads a column of the input.
type ColRef struct{ Col Column }

// Const is a literal (possibly a typed NULL).
type Const struct{ Val columnar.Value }

// Call applies a scalar function or operator named Fn (see functions.go).
type Call struct {
	Fn   string
	Args []Expr
	T    columnar.Type
}

// When is one WHEN … THEN … arm of a Case.
type When struct{ Cond, Then Expr }

// Case is a searched CASE (simple CASE is bound to this form). Else nil
// means ELSE NULL. Every Then and Else already has type T.
type Case struct {
	Whens []When
	Else  Expr
	T     columnar.Type
}

// Cast converts Arg to To; a value that does not fit is an error (TRY_CAST
// would give NULL, Try=true).
type Cast struct {
	Arg Expr
	To  columnar.Type
	Try bool
}

func (e *ColRef) Type() columnar.Type { return e.Col.Type }
func (e *Const) Type() columnar.Type  { return e.Val.Type }
func (e *Call) Type() columnar.Type   { return e.T }
func (e *Case) Type() columnar.Type   { return e.T }
func (e *Cast) Type() columnar.Type   { return e.To }

func (e *ColRef) String() string {
	if e.Col.Table != "" {
		return e.Col.Table + "." + e.Col.Name
	}
	return e.Col.Name
}

func (e *Const) String() string {
	v := e.Val
	switch {
	case v.Null:
		return "NULL"
	case v.Type.ID == columnar.Varchar:
		return "'" + strings.ReplaceAll(v.S, "'", "''") + "'"
	case v.Type.IsTemporal() || v.Type.ID == columnar.Time:
		return v.Type.String() + " '" + v.String() + "'"
	}
	return v.String()
}

func (e *Call) String() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	if infix[e.Fn] && len(args) == 2 {
		return "(" + args[0] + " " + strings.ToUpper(e.Fn) + " " + args[1] + ")"
	}
	switch e.Fn {
	case "not":
		return "NOT " + args[0]
	case "neg":
		return "-" + args[0]
	case "is_null":
		return args[0] + " IS NULL"
	case "is_not_null":
		return args[0] + " IS NOT NULL"
	case "in", "not_in":
		op := " IN ("
		if e.Fn == "not_in" {
			op = " NOT IN ("
		}
		return args[0] + op + strings.Join(args[1:], ", ") + ")"
	}
	return e.Fn + "(" + strings.Join(args, ", ") + ")"
}

var infix = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "//": true, "%": true, "||": true,
	"=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true,
	"and": true, "or": true, "like": true, "not_like": true, "ilike": true, "not_ilike": true,
}

func (e *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for _, w := range e.Whens {
		fmt.Fprintf(&b, " WHEN %s THEN %s", w.Cond, w.Then)
	}
	if e.Else != nil {
		fmt.Fprintf(&b, " ELSE %s", e.Else)
	}
	b.WriteString(" END")
	return b.String()
}

func (e *Cast) String() string {
	if e.Try {
		return fmt.Sprintf("TRY_CAST(%s AS %s)", e.Arg, e.To)
	}
	return fmt.Sprintf("CAST(%s AS %s)", e.Arg, e.To)
}

// WalkExpr calls fn on e and every sub-expression, parents first.
func WalkExpr(e Expr, fn func(Expr)) {
	if e == nil {
		return
	}
	fn(e)
	switch x := e.(type) {
	case *Call:
		for _, a := range x.Args {
			WalkExpr(a, fn)
		}
	case *Case:
		for _, w := range x.Whens {
			WalkExpr(w.Cond, fn)
			WalkExpr(w.Then, fn)
		}
		WalkExpr(x.Else, fn)
	case *Cast:
		WalkExpr(x.Arg, fn)
	case *Lambda:
		// The parameters are no columns of the input.
		WalkExpr(x.Body, func(y Expr) {
			if c, ok := y.(*ColRef); !ok || !x.isParam(c.Col.ID) {
				fn(y)
			}
		})
	}
}

// ExprCols returns the set of columns e reads.
func ExprCols(e Expr, into map[ColID]bool) map[ColID]bool {
	if into == nil {
		into = map[ColID]bool{}
	}
	WalkExpr(e, func(x Expr) {
		if c, ok := x.(*ColRef); ok {
			into[c.Col.ID] = true
		}
	})
	return into
}

// SubstCols returns e with every reference to a column in m replaced by
// m's expression for it; e itself is not modified. A nil or empty m
// returns e.
func SubstCols(e Expr, m map[ColID]Expr) Expr {
	if len(m) == 0 || e == nil {
		return e
	}
	switch x := e.(type) {
	case *ColRef:
		if r, ok := m[x.Col.ID]; ok {
			return r
		}
		return x
	case *Call:
		c := *x
		c.Args = make([]Expr, len(x.Args))
		for i, a := range x.Args {
			c.Args[i] = SubstCols(a, m)
		}
		return &c
	case *Case:
		c := *x
		c.Whens = make([]When, len(x.Whens))
		for i, w := range x.Whens {
			c.Whens[i] = When{Cond: SubstCols(w.Cond, m), Then: SubstCols(w.Then, m)}
		}
		c.Else = SubstCols(x.Else, m)
		return &c
	case *Cast:
		c := *x
		c.Arg = SubstCols(x.Arg, m)
		return &c
	}
	return e
}
