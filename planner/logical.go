package planner

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// ColID identifies a column produced somewhere in a bound plan. IDs are
// unique within one query; every reference after binding uses them, never
// names, so rules can rearrange the tree without re-resolving anything.
type ColID int

// Column is one output column of a plan node.
type Column struct {
	ID    ColID
	Name  string // display name (alias or derived text)
	Table string // qualifier it was reachable under, "" if none
	Type  columnar.Type
}

// Node is a bound logical plan node. Schema returns the node's output
// columns in order. WithChildren returns a copy of the node whose inputs
// are kids (as many, in Children's order), so that a rule can rebuild any
// node without knowing its type; a leaf returns itself.
type Node interface {
	Schema() []Column
	Children() []Node
	WithChildren(kids []Node) Node
}

// Scan reads columns of a table. Cols[i] is produced from table column
// TableCols[i]. Filter and Limit start empty; the rules fill them in.
type Scan struct {
	Table     Table
	Name      string // table name or path, for EXPLAIN
	Alias     string // qualifier in the query
	TableCols []int
	Cols      []Column
	Filter    []index.Pred    // predicates offered to the table (pushed)
	Support   []index.Support // what the table answered, per Filter entry
	Limit     int64           // -1 = none
}

// Filter keeps rows where Cond is TRUE (NULL and FALSE drop the row).
type Filter struct {
	Input Node
	Cond  Expr
}

// Project computes Exprs over its input; output column i is Out[i].
type Project struct {
	Input Node
	Exprs []Expr
	Out   []Column
}

// AggFunc names an aggregate function.
type AggFunc uint8

const (
	AggCountStar AggFunc = iota
	AggCount
	AggSum
	AggAvg
	AggMin
	AggMax
)

var aggNames = [...]string{"count_star", "count", "sum", "avg", "min", "max"}

func (f AggFunc) String() string {
	if int(f) < len(aggNames) {
		return aggNames[f]
	}
	return holisticNames[f]
}

// AggCall is one aggregate: Func over Arg (nil for count(*)), optionally
// DISTINCT. Type is the result type.
type AggCall struct {
	Func     AggFunc
	Arg      Expr
	Arg2     Expr // arg_max/arg_min: the val compared (argminmax.go)
	Distinct bool
	// Filter, when not nil, is the call's FILTER (WHERE …), a BOOLEAN over
	// the input: the aggregate sees only the rows where it is TRUE
	// (executor/aggfilter.go); rules that answer or rewrite an aggregate
	// from its Arg alone leave a filtered one be.
	Filter Expr
	Type   columnar.Type
	Param  columnar.Value // quantile_cont's fraction, string_agg's separator
}

// Aggregate groups its input by Groups and computes Aggs per group. Output
// columns are Out: first one per group key, then one per aggregate. With no
// Groups it yields exactly one row, even over an empty input.
type Aggregate struct {
	Input  Node
	Groups []Expr
	Aggs   []AggCall
	Out    []Column
	// Partial marks EagerAggregate's pre-aggregate (rule_eager_agg.go): a
	// group may come out in several rows (one per worker, whose partial
	// aggregates are not merged), as the aggregate above it merges them
	// anyway.
	Partial bool
	// OnePhase, set by EagerAggregate on the aggregate above its
	// pre-aggregate, runs it as one HashAggregate instead of parallel
	// partials merged by partition: its rows come already about one per
	// group (one per outer row and worker), so a partial phase would insert
	// as many groups as the final and deal them to partitions for nothing.
	OnePhase bool
}

// SortKey orders by Expr; NULLs sort last ascending and first descending
// unless NullsFirst says otherwise explicitly (DuckDB: NULLS LAST by default
// in both directions).
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// Sort orders all input rows by Keys (stable).
type Sort struct {
	Input Node
	Keys  []SortKey
}

// Limit skips Offset rows then passes at most Count rows (Count -1 = all).
type Limit struct {
	Input  Node
	Count  int64
	Offset int64
}

// TopK is Sort followed by Limit, executed with a bounded heap. The rules
// create it; the binder never does.
type TopK struct {
	Input  Node
	Keys   []SortKey
	Count  int64
	Offset int64
}

// Distinct removes duplicate rows.
type Distinct struct {
	Input Node
}

// Values is a constant relation (SELECT without FROM yields one row of no
// columns).
type Values struct {
	Rows [][]Expr
	Out  []Column
	Note string // why the rows are constant, for EXPLAIN (e.g. "answered from metadata")
}

func (n *Scan) Schema() []Column      { return n.Cols }
func (n *Filter) Schema() []Column    { return n.Input.Schema() }
func (n *Project) Schema() []Column   { return n.Out }
func (n *Aggregate) Schema() []Column { return n.Out }
func (n *Sort) Schema() []Column      { return n.Input.Schema() }
func (n *Limit) Schema() []Column     { return n.Input.Schema() }
func (n *TopK) Schema() []Column      { return n.Input.Schema() }
func (n *Distinct) Schema() []Column  { return n.Input.Schema() }
func (n *Values) Schema() []Column    { return n.Out }

func (n *Scan) Children() []Node      { return nil }
func (n *Filter) Children() []Node    { return []Node{n.Input} }
func (n *Project) Children() []Node   { return []Node{n.Input} }
func (n *Aggregate) Children() []Node { return []Node{n.Input} }
func (n *Sort) Children() []Node      { return []Node{n.Input} }
func (n *Limit) Children() []Node     { return []Node{n.Input} }
func (n *TopK) Children() []Node      { return []Node{n.Input} }
func (n *Distinct) Children() []Node  { return []Node{n.Input} }
func (n *Values) Children() []Node    { return nil }

func (n *Scan) WithChildren([]Node) Node   { return n }
func (n *Values) WithChildren([]Node) Node { return n }
func (n *Filter) WithChildren(k []Node) Node {
	c := *n
	c.Input = k[0]
	return &c
}
func (n *Project) WithChildren(k []Node) Node {
	c := *n
	c.Input = k[0]
	return &c
}
func (n *Aggregate) WithChildren(k []Node) Node {
	c := *n
	c.Input = k[0]
	return &c
}
func (n *Sort) WithChildren(k []Node) Node {
	c := *n
	c.Input = k[0]
	return &c
}
func (n *Limit) WithChildren(k []Node) Node {
	c := *n
	c.Input = k[0]
	return &c
}
func (n *TopK) WithChildren(k []Node) Node {
	c := *n
	c.Input = k[0]
	return &c
}
func (n *Distinct) WithChildren(k []Node) Node {
	c := *n
	c.Input = k[0]
	return &c
}

// mapChildren rebuilds n with f applied to each child; a leaf is
// returned as it is.
func mapChildren(n Node, f func(Node) Node) Node {
	kids := n.Children()
	if len(kids) == 0 {
		return n
	}
	out := make([]Node, len(kids))
	for i, k := range kids {
		out[i] = f(k)
	}
	return n.WithChildren(out)
}
