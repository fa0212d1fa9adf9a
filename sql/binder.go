package sql

import (
	"fmt"
	"path"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// winState collects the window functions of a select list (and ORDER BY);
// they are computed by one Window node under the projection.
type winState struct {
	funcs []planner.WindowFunc
	cols  []planner.Column
	// binding counts the window calls whose arguments, PARTITION BY or
	// ORDER BY are being bound: a window call inside them is nested.
	binding int
	// frameArgs are the per-row frame offsets of the window call being
	// bound, which each function it adds takes as its last arguments
	// (bind_window_frame.go).
	frameArgs []planner.Expr
}

// selItem is one output column of the select list after * expansion.
type selItem struct {
	src   callexpr.Expr   // nil for a column from *
	star  *planner.Column // the column a * expanded to
	alias string          // AS name, "" if none
	name  string          // name shown to the user
	sp    span
	expr  planner.Expr // bound
}

// cteDef is a WITH entry: its query and the names in scope where it was
// defined (earlier entries, not later ones).
type cteDef struct {
	name      string
	cols      []string
	nq        nestedQuery
	ctes      map[string]*cteDef
	recursive bool
	work      *planner.WorkTable // inside its own recursive step: the work table
	cte       *planner.CTE       // shared by the references (planner/cte.go)
	at        ast.Span           // the entry's name where it is defined
	// owner is the binder of the query whose WITH defines the entry: the
	// body reads that query's outer query, as a derived table there would
	// (DuckDB: SELECT (WITH c AS (SELECT t.a) SELECT * FROM c) FROM t).
	owner *binder
}

// hide says how a FROM column is kept from names and *.
type hide uint8

// aggState collects what the Aggregate node computes while the expressions
// above it are bound: group keys first, then aggregate calls, each with its
// output column.
type aggState struct {
	groups    []planner.Expr
	groupCols []planner.Column
	// subqKeys are the group keys whose syntax holds a subquery: matched
	// by syntax above the Aggregate, never by printed form
	// (bind_group_subquery.go).
	subqKeys  []syntaxKey
	aggs      []planner.AggCall
	aggCols   []planner.Column
	aggKeys   map[string]int
	groupings []groupingCall // grouping() calls (bind_grouping_sets.go)
	ordered   []orderedAgg   // string_agg(… ORDER BY …) calls (bind_agg_ordered.go)
	// filter is the FILTER (WHERE …) of the call being bound, which every
	// aggregate call it adds carries; filterUsed says one did
	// (bind_agg_filter.go).
	filter     planner.Expr
	filterUsed bool
}

// litKind says what literal a constant came from: untyped string and
// numeric literals adapt to the type they meet (see types.go).
type litKind uint8

const (
	litString litKind = iota + 1
	litInt
	litFloat
)

type litInfo struct {
	kind litKind
	text string // the literal's text, for exact decimal folding
	tok  int    // token index, for errors
}

type binder struct {
	// arrayOf marks the body of ARRAY(query): its rows become one list in
	// its ORDER BY's order (bind_array_subquery.go); ordered is what that
	// needs of the bound query.
	arrayOf bool
	ordered *orderedRoot
	// readsEnclosing: a name of this query resolved to a column of the
	// outer query of an enclosing one (lookupOuter), so its plan is
	// correlated though this binder has no outer query of its own.
	readsEnclosing bool
	// collated are the COLLATE nodes that bind to their collated form
	// (bind_collate.go); any other is refused.
	collated map[*ast.Collate]bool
	// aggTag sets apart the aggregate calls one volatile user call is
	// bound to (bind_agg_volatile.go).
	aggTag string
	q      *Query
	cat    planner.Catalog

	nextID planner.ColID
	scope  []planner.Column       // columns of the FROM tables; Table is the qualifier
	quals  []string               // qualifiers in scope
	hidden map[planner.ColID]hide // scope columns merged by USING (qualified access only) or virtual (* skips them)
	// unreadable maps the lower-case names of columns a FROM table has
	// but does not expose (nested Parquet columns, CTable kinds b2sql
	// cannot read) to the table's name, for a better error than
	// "unknown column".
	unreadable map[string]string
	lits       map[*planner.Const]litInfo
	agg        *aggState // non-nil while binding above an Aggregate

	input     planner.Node           // the FROM plan that subqueries in WHERE and SELECT join onto
	outer     *binder                // the enclosing query of a subquery (correlation)
	enclosing *binder                // the query a derived table, CTE or set-operation leaf is nested in (for errors only)
	outerRefs map[planner.ColID]bool // outer columns this query reads
	used      []span                 // nested queries already bound, by token range
	ctes      map[string]*cteDef     // WITH names in scope (lower case)
	fromFuncs map[string]int         // table functions of FROM bound so far, by name (bind_unnest.go)
	postAgg   bool                   // subqueries join above the Aggregate (b.post)
	post      []*planner.Join        // those joins, Left filled in when the Aggregate is built
	postRows  []*planner.Project     // the domains of correlated ones (postAggFlatten), Input filled in then too
	where     *planner.Filter        // the WHERE filter over the FROM plan (decorrelation)
	win       *winState              // window functions of the select list (nil: not allowed here)
	viewDepth int                    // views being expanded around this query
	// inTry counts the try(…) calls around the expression being bound: a
	// constant that does not cast is then a cast that fails when it runs,
	// for try to catch (bind_try.go), not an error of the statement.
	inTry int

	now       *int64           // the query's current_timestamp (µs, 0 until asked), shared with nested queries
	params    []columnar.Value // values of ? markers
	items     []selItem        // the select list, for alias references
	sel       *ast.Select      // the SELECT being bound from the syntax tree (its WINDOW clause)
	groupSets [][]int          // GROUPING SETS, ROLLUP, CUBE as indexes into the GROUP BY keys; nil: a plain GROUP BY
	onConds   []ast.Expr       // syntax trees of the JOIN … ON conditions, in binding order (onSyntax)
	onNext    int              // the next of onConds to bind
	expanding map[string]bool  // aliases being expanded, against cycles
	// colSchemas holds the schema (lower case) of the columns of an
	// unaliased table or view in FROM, which s.t.col may name
	// (schemaColumn).
	colSchemas map[planner.ColID]string
}

func (b *binder) newCol(name, table string, t columnar.Type) planner.Column {
	b.nextID++
	return planner.Column{ID: b.nextID, Name: name, Table: table, Type: t}
}

// errAt reports msg at token i.
func (b *binder) errAt(i int, kind error, msg string) error { return b.q.errAtTok(i, kind, msg) }

// knownExts are file extensions that make an identifier a path.
var knownExts = []string{".parquet", ".b2d", ".b2z", ".b2nd", ".b2frame"}

func hasKnownExt(name string) bool {
	l := strings.ToLower(name)
	for _, e := range knownExts {
		if strings.HasSuffix(l, e) {
			return true
		}
	}
	return false
}

// bindTable binds the table of main or the path name written at token at;
// quoted says it was written as a string, a path.
func (b *binder) bindTable(name string, quoted bool, alias string, at int) (*planner.Scan, error) {
	full := name
	isPath := quoted || strings.ContainsAny(name, "/\\.*") || hasKnownExt(full)
	if isPath {
		tbl, err := b.openPath(full)
		if err != nil {
			return nil, b.errAt(at, ErrUnknownTable, fmt.Sprintf("cannot open %q: %v", full, err))
		}
		if alias == "" {
			// DuckDB names a file by its stem: FROM 'data/x.parquet' is x.
			base := path.Base(strings.ReplaceAll(full, "\\", "/"))
			if i := strings.IndexByte(base, '.'); i > 0 {
				base = base[:i]
			}
			alias = base
		}
		return b.scan(tbl, full, alias), nil
	}
	tbl, ok := b.cat.Table(name)
	if !ok {
		return nil, b.errAt(at, ErrUnknownTable, fmt.Sprintf("unknown table %q%s", name, didYouMean(name, b.cat.TableNames())))
	}
	if alias == "" {
		alias = name
	}
	return b.scan(tbl, name, alias), nil
}

// openPath opens a path written as a table: through the catalog's file
// reader when the query names a virtual column (bind_virtual.go).
func (b *binder) openPath(path string) (planner.Table, error) {
	if v := b.q.virtualNames(); len(v) > 0 {
		if fo, ok := b.cat.(FileOpener); ok {
			return fo.OpenFiles(&FileCall{Paths: []string{path}, Virtual: v})
		}
	}
	return b.cat.OpenPath("", path)
}

// withRowIDs is tbl read through a RowIDTable when the statement names
// rowid, tbl numbers its rows and has no column of that name; tbl
// otherwise.
func (b *binder) withRowIDs(tbl planner.Table) planner.Table {
	if _, ok := tbl.(*RowIDTable); ok {
		return tbl
	}
	if src, ok := tbl.(RowIDSource); !ok || !src.RowIDs() || hasRowIDColumn(tbl.Schema()) || !b.q.namesRowID() {
		return tbl
	}
	return NewRowIDTable(tbl)
}

// scan builds a Scan of every column of tbl; the optimizer prunes.
func (b *binder) scan(tbl planner.Table, name, alias string) *planner.Scan {
	tbl = b.withRowIDs(tbl) // rowid.go
	schema := tbl.Schema()
	s := &planner.Scan{Table: tbl, Name: name, Alias: alias, Limit: -1}
	if sk, ok := tbl.(interface{ Skipped() []string }); ok {
		for _, p := range sk.Skipped() {
			top, _, _ := strings.Cut(p, ".") // a nested leaf's path: its column first
			if b.unreadable == nil {
				b.unreadable = map[string]string{}
			}
			b.unreadable[strings.ToLower(top)] = alias
		}
	}
	for i, f := range schema {
		c := b.newCol(f.Name, alias, f.Type)
		s.TableCols = append(s.TableCols, i)
		s.Cols = append(s.Cols, c)
	}
	return s
}

// orderedRoot is a bound query's plan as its ORDER BY and LIMIT leave it,
// before the columns only the ORDER BY reads are dropped (dropHidden): its
// first column is the query's first output column, and keys are its ORDER
// BY over root's columns.
type orderedRoot struct {
	root planner.Node
	keys []planner.SortKey
}

// nestedQuery is a nested query with its own tokens (for error positions
// and column names) and the values of its statement's parameters.
type nestedQuery struct {
	q      *Query
	params []columnar.Value
	array  bool // ARRAY(q): the rows as one list (bind_array_subquery.go)
}

// groupingCall is one grouping(a, b, …) / grouping_id(…) of the query: its
// output column and the GROUP BY keys it asks about, leftmost the most
// significant bit.
type groupingCall struct {
	col  planner.Column
	keys []int
}

// orderedAgg is a bound ordered string_agg: its index in aggState.aggs,
// its keys, their text (to compare orderings) and its position.
type orderedAgg struct {
	idx  int
	keys []planner.SortKey
	text string
	at   int
}

// errSpan reports msg at the node of span s (which may lie outside the
// query being bound: a WITH entry's name seen from a nested query).
func (b *binder) errSpan(s ast.Span, kind error, msg string) error {
	return errAt(b.q.src, s.Start, kind, msg)
}

// syntaxKey is group key i, written as n.
type syntaxKey struct {
	n ast.Expr
	i int
}
