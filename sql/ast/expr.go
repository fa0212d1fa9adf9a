package ast

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// ColumnRef is a column name, possibly qualified (t.a, main.t.a) or a
// path into a struct (s.a.b): which parts name a table and which a field
// is decided by the binder.
type ColumnRef struct {
	Span
	Name Name
}

// LitKind tells the kind of a Literal.
type LitKind uint8

const (
	LitNumber LitKind = iota // Val is the number as written without its _ separators (12, 1.5e3, 1000 for 1_000)
	LitString                // Val is the unquoted string
	LitBool                  // Val is "true" or "false"
	LitNull                  // Val is ""
	LitBlob                  // X'…': Val holds the bytes
)

// Literal is a number, string, TRUE/FALSE or NULL constant.
type Literal struct {
	Span
	Kind LitKind
	Val  string
}

// TypedLit is a type name before a string: DATE '2024-01-01',
// TIMESTAMP '…', INTEGER '1' (a cast of the string).
type TypedLit struct {
	Span
	Type *TypeName
	Val  string
}

// Interval is INTERVAL '1 day', INTERVAL 3 DAY or INTERVAL (x) HOUR.
// Unit is upper case, "" when none was written.
type Interval struct {
	Span
	Value Expr
	Unit  string
}

// Param is a prepared-statement parameter: ? (Index 0, Name ""), $1 or
// ?1 (Index 1), $name (Name).
type Param struct {
	Span
	Index int
	Name  string
}

// PositionalRef is #n, the n-th column of the FROM clause.
type PositionalRef struct {
	Span
	Index int
}

// Default is DEFAULT in a VALUES row, an INSERT or an UPDATE.
type Default struct{ Span }

// Unary is a prefix operator: -, +, NOT, ~, @ or another operator.
type Unary struct {
	Span
	Op string // upper case for NOT
	X  Expr
}

// Binary is a binary operator: AND, OR, comparisons (=, <>, <, <=, >, >=;
// == is =, != is <>), arithmetic (+ - * / // % ^; ** is ^), || and any
// other operator (~, !~, ^@, <<, &, ->>, …). Op is upper case for words.
type Binary struct {
	Span
	Op   string
	L, R Expr
}

// Is is x IS [NOT] NULL|TRUE|FALSE|UNKNOWN (also x ISNULL, x NOTNULL).
type Is struct {
	Span
	X    Expr
	Not  bool
	What string // NULL, TRUE, FALSE, UNKNOWN
}

// DistinctFrom is x IS [NOT] DISTINCT FROM y.
type DistinctFrom struct {
	Span
	L, R Expr
	Not  bool
}

// Between is x [NOT] BETWEEN [SYMMETRIC] lo AND hi.
type Between struct {
	Span
	X, Lo, Hi Expr
	Not       bool
	Symmetric bool
}

// Like is x [NOT] LIKE|ILIKE|GLOB|SIMILAR TO pattern [ESCAPE e]. Op is
// "LIKE", "ILIKE", "GLOB" or "SIMILAR TO"; Escape is nil when absent.
type Like struct {
	Span
	Op                 string
	Not                bool
	X, Pattern, Escape Expr
}

// InList is x [NOT] IN (e, …); the list may be empty.
type InList struct {
	Span
	X    Expr
	List []Expr
	Not  bool
	// Expr: x IN e without parentheses, e a list expression (List holds e).
	Expr bool
}

// InQuery is x [NOT] IN (query).
type InQuery struct {
	Span
	X     Expr
	Query *Query
	Not   bool
}

// Quantified is x op ANY|SOME|ALL (query), or the same over a list
// expression (x = ANY([1, 2])): Query or List is set.
type Quantified struct {
	Span
	X     Expr
	Op    string
	Quant string // ANY, ALL (SOME is ANY)
	Query *Query
	List  Expr
}

// SubqueryKind tells scalar, EXISTS and ARRAY subqueries apart.
type SubqueryKind uint8

const (
	SubScalar SubqueryKind = iota // (query)
	SubExists                     // EXISTS (query)
	SubArray                      // ARRAY (query)
)

// Subquery is a query used as an expression.
type Subquery struct {
	Span
	Kind  SubqueryKind
	Query *Query
}

// Case is CASE [operand] WHEN … THEN … [ELSE …] END.
type Case struct {
	Span
	Operand Expr // nil for the searched form
	Whens   []*When
	Else    Expr // nil when absent
}

// When is one WHEN cond THEN result of a Case.
type When struct {
	Span
	Cond, Then Expr
}

// Cast is CAST(x AS T), TRY_CAST(x AS T) or x::T.
type Cast struct {
	Span
	X    Expr
	Type *TypeName
	Try  bool
}

// Collate is x COLLATE name.
type Collate struct {
	Span
	X         Expr
	Collation Name
}

// NullsMode is a function's IGNORE NULLS / RESPECT NULLS.
type NullsMode uint8

const (
	NullsDefault NullsMode = iota
	IgnoreNulls
	RespectNulls
)

// Func is a function call: name([DISTINCT] args [ORDER BY …] [IGNORE
// NULLS]) [WITHIN GROUP (ORDER BY …)] [FILTER (WHERE …)] [OVER …].
// Special forms become plain calls with DuckDB's function names and
// argument order: EXTRACT(f FROM x) is date_part('f', x), POSITION(a IN
// b) position(b, a), SUBSTRING(x FROM a FOR b) substring(x, a, b),
// TRIM([BOTH|LEADING|TRAILING] [c] FROM x) trim/ltrim/rtrim(x[, c]),
// OVERLAY(x PLACING y FROM a [FOR b]) overlay(x, y, a[, b]), x AT TIME
// ZONE z timezone(z, x), ROW(a, b) row(a, b).
type Func struct {
	Span
	Name        Name
	Args        []Expr // a NamedArg for name := v
	Star        bool   // count(*)
	Distinct    bool
	OrderBy     []*OrderItem
	Nulls       NullsMode
	NullsAt     Span // the IGNORE or RESPECT of Nulls
	WithinGroup []*OrderItem
	Filter      Expr
	Over        *Window
	// Method: written x.name(args) (Args[0] is x).
	Method bool
	// ExportState: agg(…) EXPORT_STATE, the aggregate's state itself.
	ExportState bool
}

// NamedArg is name := value (or name => value) in a call, and name =
// value among a table function's arguments.
type NamedArg struct {
	Span
	Name  *Ident
	Value Expr
}

// Lambda is x -> body, (x, y) -> body or LAMBDA x, y: body.
type Lambda struct {
	Span
	Params []*Ident
	Body   Expr
}

// Star is [qualifier.]* [EXCLUDE (…)] [REPLACE (…)] [RENAME (…)], or
// * LIKE|ILIKE|GLOB|SIMILAR TO pattern or * ~ pattern (another matching
// operator: ~* !~ !~* ~~ ~~* !~~ !~~*, Op then the operator) (Like, a
// *Like whose X is nil).
type Star struct {
	Span
	Qualifier Name
	Exclude   []Name
	Replace   []*SelectItem // expression AS column
	Rename    []*Rename
	Like      *Like
}

// Rename is one old AS new of * RENAME (…).
type Rename struct {
	Span
	From Name
	To   *Ident
}

// Columns is COLUMNS(arg) (arg a *Star, a lambda, a regex string or a
// list), or *COLUMNS(arg) when Unpack.
type Columns struct {
	Span
	Arg    Expr
	Unpack bool
}

// List is [a, b, …] or ARRAY[a, b, …].
type List struct {
	Span
	Elems []Expr
}

// Comprehension is [expr FOR x IN list [IF cond]].
type Comprehension struct {
	Span
	X    Expr
	Var  *Ident
	List Expr
	Cond Expr // nil when absent
}

// Struct is {'key': value, …} (keys may be identifiers or strings).
type Struct struct {
	Span
	Fields []*StructField
}

// StructField is one key: value of a Struct.
type StructField struct {
	Span
	Key   *Ident
	Value Expr
}

// Map is MAP {k: v, …}.
type Map struct {
	Span
	Entries []*MapEntry
}

// MapEntry is one key: value of a Map.
type MapEntry struct {
	Span
	Key, Value Expr
}

// Row is (a, b, …): a row constructor of two or more elements, or () in
// GROUPING SETS.
type Row struct {
	Span
	Elems []Expr
}

// Index is x[i].
type Index struct {
	Span
	X, Index Expr
}

// Slice is x[lo:hi] or x[lo:hi:step]; an omitted bound is nil.
type Slice struct {
	Span
	X, Lo, Hi, Step Expr
}

// Field is x.name on an expression that is not a plain name ((s).a,
// l[1].b, f(x).c); s.a.b stays a ColumnRef.
type Field struct {
	Span
	X    Expr
	Name *Ident
}

// GroupingSet is GROUPING SETS (…), CUBE (…) or ROLLUP (…) in GROUP BY;
// elements are expressions, Rows (a, b) and the empty Row ().
type GroupingSet struct {
	Span
	Kind  string // GROUPING SETS, CUBE, ROLLUP
	Items []Expr
}

func (*ColumnRef) exprNode()     {}
func (*Literal) exprNode()       {}
func (*TypedLit) exprNode()      {}
func (*Interval) exprNode()      {}
func (*Param) exprNode()         {}
func (*PositionalRef) exprNode() {}
func (*Default) exprNode()       {}
func (*Unary) exprNode()         {}
func (*Binary) exprNode()        {}
func (*Is) exprNode()            {}
func (*DistinctFrom) exprNode()  {}
func (*Between) exprNode()       {}
func (*Like) exprNode()          {}
func (*InList) exprNode()        {}
func (*InQuery) exprNode()       {}
func (*Quantified) exprNode()    {}
func (*Subquery) exprNode()      {}
func (*Case) exprNode()          {}
func (*Cast) exprNode()          {}
func (*Collate) exprNode()       {}
func (*Func) exprNode()          {}
func (*NamedArg) exprNode()      {}
func (*Lambda) exprNode()        {}
func (*Star) exprNode()          {}
func (*Columns) exprNode()       {}
func (*List) exprNode()          {}
func (*Struct) exprNode()        {}
func (*Comprehension) exprNode() {}
func (*Map) exprNode()           {}
func (*Row) exprNode()           {}
func (*Index) exprNode()         {}
func (*Slice) exprNode()         {}
func (*Field) exprNode()         {}
func (*GroupingSet) exprNode()   {}

// TypeName is a type as written: Name upper case with multi-word names
// joined by one space (DOUBLE PRECISION, TIMESTAMP WITH TIME ZONE,
// CHARACTER VARYING), possibly qualified (Schema); Params are DECIMAL(p,
// s), VARCHAR(n) and ENUM('a', …) arguments; Fields are STRUCT(a INT, …)
// and UNION(…) members; Args are MAP(K, V) key and value types; Array
// holds one entry per [] or [n] suffix (-1 for []).
type TypeName struct {
	Span
	Schema string
	Name   string
	Params []Expr
	Fields []*TypeField
	Args   []*TypeName
	Array  []int
	// Qualifier is an INTERVAL type's unit range (DAY TO SECOND), ""
	// when none.
	Qualifier string
}

// TypeField is one name TYPE of a STRUCT or UNION type.
type TypeField struct {
	Span
	Name *Ident
	Type *TypeName
}

// Window is an OVER clause or a WINDOW definition: OVER w is a Window
// with only Base set.
type Window struct {
	Span
	Base        *Ident // an existing window's name, or nil
	PartitionBy []Expr
	OrderBy     []*OrderItem
	Frame       *Frame
}

// Frame is ROWS|RANGE|GROUPS start or BETWEEN start AND end, with an
// optional EXCLUDE.
type Frame struct {
	Span
	Unit    string // ROWS, RANGE, GROUPS
	Start   *Bound
	End     *Bound // nil without BETWEEN
	Exclude string // "", CURRENT ROW, GROUP, TIES, NO OTHERS
}

// Bound is one end of a Frame.
type Bound struct {
	Span
	Kind   string // UNBOUNDED PRECEDING, PRECEDING, CURRENT ROW, FOLLOWING, UNBOUNDED FOLLOWING
	Offset Expr   // for PRECEDING and FOLLOWING
}

// OrderItem is one ORDER BY key: expression [ASC|DESC] [NULLS
// FIRST|LAST], or ALL (ORDER BY ALL) when X is nil.
type OrderItem struct {
	Span
	X     Expr
	Desc  bool
	Asc   bool   // ASC written
	Nulls string // "", FIRST, LAST
}
