package sql

import (
	"fmt"
	"path"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// Bound is a bound query: the logical plan and the output column names as
// a user sees them (Root's schema has the same length and order).
type Bound struct {
	Root  planner.Node
	Names []string
}

// Bind resolves a parsed query against cat into a logical plan:
//
//	Scan (every table column) → Filter (WHERE) → Aggregate → Filter (HAVING)
//	→ Project (select list + hidden ORDER BY columns) → Distinct → Sort
//	→ Limit → Project (drops the hidden columns)
//
// Nodes that a query does not need are left out; a query without FROM
// starts from a one-row Values. ColIDs are unique within the plan; every
// Project and Aggregate output gets a fresh ID. Bind does no optimization
// beyond folding casts of literals. Errors are *Error.
//
// A query with ? markers needs values: see bindWithParams.
func Bind(stmt *Query, cat planner.Catalog) (*Bound, error) {
	return bindWithParams(stmt, cat, nil)
}

// bindWithParams is Bind with values for the query's ? markers, in order
// (params nil: the query has none). A value binds like the literal it
// stands for: a VARCHAR value compared with a DATE column is cast to DATE,
// an integer takes a compared column's type when it fits. Callers check
// the count first; a marker without a value is an error at the marker.
func bindWithParams(stmt *Query, cat planner.Catalog, params []columnar.Value) (*Bound, error) {
	if !stmt.parsed() {
		return nil, &Error{Pos: Pos{1, 1}, Kind: ErrSyntax, Msg: "no query to bind"}
	}
	b := &binder{q: stmt, cat: cat, lits: map[*planner.Const]litInfo{}, expanding: map[string]bool{}, params: params,
		now: new(int64)}
	bd, err := b.bindQuery()
	if err == nil && stmt.table {
		dedupNames(bd.Names)
	}
	return bd, err
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
	noSubq    string                 // why subqueries cannot be bound here ("" = they can)
	postAgg   bool                   // subqueries join above the Aggregate (b.post), uncorrelated only
	post      []*planner.Join        // those joins, Left filled in when the Aggregate is built
	where     *planner.Filter        // the WHERE filter over the FROM plan (decorrelation)
	win       *winState              // window functions of the select list (nil: not allowed here)
	viewDepth int                    // views being expanded around this query

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

// errSpan reports msg at the node of span s (which may lie outside the
// query being bound: a WITH entry's name seen from a nested query).
func (b *binder) errSpan(s ast.Span, kind error, msg string) error {
	return errAt(b.q.src, s.Start, kind, msg)
}

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

// scan builds a Scan of every column of tbl; the optimizer prunes.
func (b *binder) scan(tbl planner.Table, name, alias string) *planner.Scan {
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
