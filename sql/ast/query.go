package ast

// QueryBody is the body of a Query: a *Select, a *SetOp, a *Values or a
// parenthesized *Query.
type QueryBody interface {
	Node
	queryBody()
}

// Query is [WITH …] body [ORDER BY …] [LIMIT …] [OFFSET …].
type Query struct {
	Span
	With    *With
	Body    QueryBody
	OrderBy []*OrderItem
	Limit   *Limit
	Offset  Expr
}

// Limit is LIMIT n, LIMIT n% (Percent), or LIMIT ALL (Count nil).
type Limit struct {
	Span
	Count   Expr
	Percent bool
}

// With is WITH [RECURSIVE] name [(cols)] AS [[NOT] MATERIALIZED] (query), ….
type With struct {
	Span
	Recursive bool
	CTEs      []*CTE
}

// CTE is one common table expression; Materialized is "", "MATERIALIZED"
// or "NOT MATERIALIZED".
type CTE struct {
	Span
	Name         *Ident
	Columns      []*Ident
	UsingKey     []*Ident
	Materialized string
	Query        *Query
	DML          Stmt // an INSERT, UPDATE or DELETE … RETURNING instead of Query
}

// Select is one SELECT (FROM-first queries and bare FROM t, whose select
// list is *, become the same node).
type Select struct {
	Span
	Distinct   bool
	DistinctOn []Expr
	Items      []*SelectItem
	From       []TableRef
	Where      Expr
	GroupBy    *GroupBy
	Having     Expr
	Windows    []*NamedWindow
	Qualify    Expr
	Sample     *Sample
}

// SelectItem is an expression with its optional alias.
type SelectItem struct {
	Span
	X     Expr
	Alias *Ident
}

// GroupBy is GROUP BY ALL or GROUP BY items (expressions and
// GroupingSets).
type GroupBy struct {
	Span
	All   bool
	Items []Expr
}

// NamedWindow is one name AS (window) of a WINDOW clause.
type NamedWindow struct {
	Span
	Name   *Ident
	Window *Window
}

// SetOp is l UNION|INTERSECT|EXCEPT [ALL|DISTINCT] [BY NAME] r.
type SetOp struct {
	Span
	Op     string // UNION, INTERSECT, EXCEPT
	OpAt   Span   // the operator's keyword
	All    bool
	ByName bool
	L, R   QueryBody
}

// Values is VALUES (…), (…) as a query.
type Values struct {
	Span
	Rows [][]Expr
}

// Sample is USING SAMPLE or TABLESAMPLE: a size in percent or rows, an
// optional method (reservoir, bernoulli, system) and seed.
type Sample struct {
	Span
	Size    Expr
	Percent bool
	Rows    bool   // ROWS written
	Method  string // lower case, "" when not given
	Seed    Expr
}

func (*Select) queryBody() {}
func (*SetOp) queryBody()  {}
func (*Values) queryBody() {}
func (*Query) queryBody()  {}

// TableRef is an item of FROM.
type TableRef interface {
	Node
	tableRef()
}

// Alias is AS name [(col, …)] after a table reference.
type Alias struct {
	Span
	Name    *Ident
	Columns []*Ident
}

// Table is a named table or view (possibly qualified), or a file path
// written as a string (FROM 'x.parquet': Path set, Name nil).
type Table struct {
	Span
	Name   Name
	Path   string
	Alias  *Alias
	Sample *Sample
	// SQLite's index hints after the alias: NOT INDEXED, INDEXED BY name.
	NotIndexed bool
	IndexedBy  *Ident
}

// TableFunc is a table function call in FROM: range(10),
// read_parquet('x', hive_partitioning = true).
type TableFunc struct {
	Span
	Func    *Func
	Lateral bool
	Alias   *Alias
	Sample  *Sample
}

// Derived is a subquery in FROM.
type Derived struct {
	Span
	Query   *Query
	Stmt    Stmt // (DESCRIBE …), (SHOW …), (SUMMARIZE …) instead of Query
	Lateral bool
	Alias   *Alias
	Sample  *Sample
}

// Join is l [NATURAL|ASOF] [kind] JOIN r [ON …|USING (…)], or l, r
// (Kind CROSS, Comma).
type Join struct {
	Span
	Kind    string // INNER, LEFT, RIGHT, FULL, CROSS, SEMI, ANTI, POSITIONAL
	Natural bool
	Asof    bool
	Comma   bool
	L, R    TableRef
	On      Expr
	Using   []*Ident
	Alias   *Alias // (a JOIN b) AS x
}

// Pivot is PIVOT/UNPIVOT of a table in DuckDB's form (PIVOT t ON … USING
// … GROUP BY …; UNPIVOT t ON … INTO NAME n VALUE v) or the SQL standard
// one (t PIVOT (agg FOR col IN (…)); t UNPIVOT (v FOR n IN (…))), both
// the same node. For PIVOT, On are the pivoted columns (each with its
// IN list, if given), Using the aggregates; for UNPIVOT, On are the
// unpivoted columns (or row groups), Name and Values the new columns.
type Pivot struct {
	Span
	Source       TableRef
	Unpivot      bool
	IncludeNulls bool
	On           []*PivotOn
	Using        []*SelectItem
	GroupBy      []Expr
	Name         *Ident
	Values       []*Ident
	Alias        *Alias
}

// PivotOn is one ON column (or expression) of a Pivot with its values:
// In lists them (each with an optional alias), InEnum names an ENUM type
// whose values they are; both empty means every distinct value. For
// UNPIVOT the Alias names a group of columns.
type PivotOn struct {
	Span
	X      Expr
	In     []*SelectItem
	InEnum *Ident
	Alias  *Ident
}

func (*Table) tableRef()     {}
func (*TableFunc) tableRef() {}
func (*Derived) tableRef()   {}
func (*Join) tableRef()      {}
func (*Pivot) tableRef()     {}
