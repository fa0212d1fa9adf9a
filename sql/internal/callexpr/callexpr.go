// Package callexpr holds the small expression nodes that package sql's
// call, cast, CASE and operator helpers take: a call's name and
// arguments, literals, and the operators the binder builds on top of
// syntax tree operands. The binder makes these nodes itself (their
// operands are sql/ast expressions it wraps, and binds from the tree);
// nothing parses into them. Each carries the span of the syntax it was
// made from (At): a call's name, a literal, a column name, CASE; a node
// the binder builds for a construct (count(CASE …) for count_if) carries
// that construct's span. Errors are positioned from these spans.
//
// They replace the vitess nodes these helpers were first written for
// (issue 15) with the same shape, so that the helpers did not change.
package callexpr

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// Expr is any node: the types of this package, or a package sql wrapper
// of a syntax tree expression.
type Expr interface{ IExpr() }

// SelectExpr is a call argument: an *AliasedExpr or a *StarExpr.
type SelectExpr interface{ iSelectExpr() }

// SelectExprs are a call's arguments.
type SelectExprs []SelectExpr

// AliasedExpr is one argument.
type AliasedExpr struct{ Expr Expr }

// StarExpr is the * of count(*).
type StarExpr struct{}

func (*AliasedExpr) iSelectExpr() {}
func (*StarExpr) iSelectExpr()    {}

// ColIdent is a function or column name as written.
type ColIdent struct{ name string }

// NewColIdent makes a name.
func NewColIdent(s string) ColIdent { return ColIdent{s} }

// String returns the name as written.
func (c ColIdent) String() string { return c.name }

// Lowered returns the name in lower case.
func (c ColIdent) Lowered() string { return strings.ToLower(c.name) }

// IsEmpty reports an empty name.
func (c ColIdent) IsEmpty() bool { return c.name == "" }

// TableIdent is a qualifier's name.
type TableIdent struct{ v string }

// String returns the name.
func (t TableIdent) String() string { return t.v }

// IsEmpty reports an empty name.
func (t TableIdent) IsEmpty() bool { return t.v == "" }

// TableName is a column's qualifier.
type TableName struct{ Name TableIdent }

// IsEmpty reports no qualifier.
func (t TableName) IsEmpty() bool { return t.Name.IsEmpty() }

// FuncExpr is a call: name(args), DISTINCT when Distinct.
type FuncExpr struct {
	At        ast.Span // the name as written
	Qualifier TableIdent
	Name      ColIdent
	Distinct  bool
	Exprs     SelectExprs
}

// ColName is a column reference by name.
type ColName struct {
	At        ast.Span // the (qualified) name as written
	Name      ColIdent
	Qualifier TableName
}

// ValType is the kind of a literal.
type ValType int

// The kinds of literals.
const (
	StrVal ValType = iota
	IntVal
	FloatVal
	ValArg // a ? marker, Val ":vN" for the N-th
)

// SQLVal is a literal: Val holds its text.
type SQLVal struct {
	At   ast.Span
	Type ValType
	Val  []byte
}

// NewStrVal makes a string literal written at at.
func NewStrVal(b []byte, at ast.Span) *SQLVal { return &SQLVal{At: at, Type: StrVal, Val: b} }

// NewIntVal makes an integer literal written at at.
func NewIntVal(b []byte, at ast.Span) *SQLVal { return &SQLVal{At: at, Type: IntVal, Val: b} }

// NewFloatVal makes a number literal with a point or an exponent, written
// at at.
func NewFloatVal(b []byte, at ast.Span) *SQLVal { return &SQLVal{At: at, Type: FloatVal, Val: b} }

// NullVal is NULL.
type NullVal struct{}

// BoolVal is TRUE or FALSE.
type BoolVal bool

// When is one WHEN cond THEN val of a CaseExpr.
type When struct{ Cond, Val Expr }

// CaseExpr is CASE [Expr] WHEN … [ELSE Else] END.
type CaseExpr struct {
	At    ast.Span // the CASE keyword (or the call a CASE stands for)
	Expr  Expr
	Whens []*When
	Else  Expr
}

// UnaryExpr is Operator Expr.
type UnaryExpr struct {
	Operator string
	Expr     Expr
}

// BinaryExpr is Left Operator Right.
type BinaryExpr struct {
	Operator    string
	Left, Right Expr
}

// IsExpr is Expr IS NULL (Operator IsNullStr).
type IsExpr struct {
	Operator string
	Expr     Expr
}

// OrExpr is Left OR Right.
type OrExpr struct{ Left, Right Expr }

// FilterExpr is Val where Cond is true, else NULL, with Val evaluated on
// every row: an aggregate's argument under FILTER (WHERE Cond).
type FilterExpr struct{ Val, Cond Expr }

// Operators.
const (
	BitAndStr     = "&"
	BitOrStr      = "|"
	BitXorStr     = "^"
	ShiftLeftStr  = "<<"
	ShiftRightStr = ">>"
	PlusStr       = "+"
	MinusStr      = "-"
	MultStr       = "*"
	DivStr        = "/"
	IntDivStr     = "div"
	ModStr        = "%"
	UPlusStr      = "+"
	UMinusStr     = "-"
	TildaStr      = "~"
	IsNullStr     = "is null"
)

func (*FuncExpr) IExpr()   {}
func (*ColName) IExpr()    {}
func (*SQLVal) IExpr()     {}
func (*NullVal) IExpr()    {}
func (BoolVal) IExpr()     {}
func (*CaseExpr) IExpr()   {}
func (*UnaryExpr) IExpr()  {}
func (*BinaryExpr) IExpr() {}
func (*IsExpr) IExpr()     {}
func (*OrExpr) IExpr()     {}
func (*FilterExpr) IExpr() {}

// String renders a literal's text, for messages; other nodes print as
// "expression".
func String(e Expr) string {
	switch e := e.(type) {
	case *SQLVal:
		if e.Type == StrVal {
			return "'" + string(e.Val) + "'"
		}
		return string(e.Val)
	case *NullVal:
		return "NULL"
	case BoolVal:
		if e {
			return "true"
		}
		return "false"
	case *FuncExpr:
		return e.Name.String() + "(…)"
	}
	return "expression"
}
