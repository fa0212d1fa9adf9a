package sql

import (
	"context"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// Generated columns, as DuckDB has them: c [type] GENERATED ALWAYS AS
// (expr) [VIRTUAL], or c [type] AS (expr). They are VIRTUAL: the table
// stores its other columns only, and every query that reads the table
// computes c from them. So a table with generated columns binds as a
// Project over the scan of its stored columns, every column in the order
// CREATE TABLE gave (generatedNode); filters and pruning reach the scan
// through the Project as through any. An expression may read other
// generated columns (not itself, not in a cycle), which are inlined. A
// declared type is a cast of the expression's value; without one the
// column takes the expression's type, found at CREATE TABLE
// (ResolveGenerated). The table keeps only in-memory rows: INSERT fills
// the stored columns, UPDATE sets them.

// GeneratedColumn is a generated column as its table keeps it: At is its
// place among all the table's columns (stored ones fill the others, in
// order).
type GeneratedColumn struct {
	Name string
	Type columnar.Type
	Expr Source
	At   int
}

// GeneratedTable is a table with generated columns: its Schema is its
// stored columns.
type GeneratedTable interface {
	Generated() []GeneratedColumn
}

// generatedOf returns the GENERATED constraint of d, if it has one.
func generatedOf(d *ast.ColumnDef) *ast.Constraint {
	for _, k := range d.Constraints {
		if k.Kind == "GENERATED" {
			return k
		}
	}
	return nil
}

// generatedDef reads a generated column's definition into col, refusing
// what DuckDB refuses: STORED, other constraints on it, a subquery.
func (b *stmtBuilder) generatedDef(col *ColumnDef, d *ast.ColumnDef, gen *ast.Constraint) error {
	if gen.Value == "STORED" {
		return b.errAt(gen, ErrUnsupported, "cannot create a STORED generated column (generated columns are VIRTUAL: computed when read)")
	}
	for _, k := range d.Constraints {
		switch k.Kind {
		case "GENERATED", "NULL":
		case "DEFAULT":
			return b.errAt(k, ErrSyntax, fmt.Sprintf("column %q has a DEFAULT value, it cannot be a generated column", col.Name))
		default:
			return b.errAt(k, ErrUnsupported, fmt.Sprintf("column %q: constraints on generated columns are not allowed (DuckDB refuses them too)", col.Name))
		}
	}
	if astHasSubquery(gen.Expr) { // bind_group_subquery.go
		return b.errAt(gen.Expr, ErrUnsupported, fmt.Sprintf("the expression of generated column %q contains a subquery, which is not allowed", col.Name))
	}
	if d.Type != nil {
		var err error
		if col.Type, col.TypeRef, err = b.columnType(d.Type); err != nil {
			return err
		}
	}
	sp := gen.Expr.Extent()
	col.Generated, col.GeneratedPos = b.src.Text[sp.Start:sp.End], b.pos(sp.Start)
	return nil
}

// generatedSource is the Source of column c's expression, positioned
// where its CREATE TABLE wrote it.
func generatedSource(c ColumnDef) Source {
	return Source{Text: c.Generated, Line: c.GeneratedPos.Line, Col: c.GeneratedPos.Col}
}

// ResolveGenerated checks the generated columns of a CREATE TABLE (cols,
// user types resolved): each expression binds over the other columns,
// with no aggregate, window or cycle. It returns the columns with the
// types of generated columns declared without one filled in, and the
// generated columns as the table keeps them (nil: none).
func ResolveGenerated(table string, cols []ColumnDef, cat planner.Catalog) ([]ColumnDef, []GeneratedColumn, error) {
	var stored columnar.Schema
	var gens []GeneratedColumn
	for i, c := range cols {
		if c.Generated == "" {
			stored = append(stored, columnar.Field{Name: c.Name, Type: c.Type, Nullable: !c.NotNull})
			continue
		}
		gens = append(gens, GeneratedColumn{Name: c.Name, Type: c.Type, Expr: generatedSource(c), At: i})
	}
	if gens == nil {
		return cols, nil, nil
	}
	if len(stored) == 0 {
		return nil, nil, &Error{Pos: cols[0].Pos, Kind: ErrSyntax, Msg: "a table needs at least one column that is not generated"}
	}
	b := &binder{cat: cat, lits: map[*planner.Const]litInfo{}, expanding: map[string]bool{}, now: new(int64)}
	n, err := b.generatedNode(b.scan(shapeOnly(stored), table, table), gens)
	if err != nil {
		return nil, nil, err
	}
	out := append([]ColumnDef(nil), cols...)
	for k, c := range n.Schema() {
		if out[k].Generated != "" && out[k].Type.ID == columnar.Null {
			out[k].Type = c.Type
		}
	}
	for k := range gens {
		gens[k].Type = out[gens[k].At].Type
	}
	return out, gens, nil
}

// shapeOnly is a table of a schema and no rows, to bind expressions over.
type shapeOnly columnar.Schema

func (s shapeOnly) Schema() columnar.Schema { return columnar.Schema(s) }
func (s shapeOnly) Scan(context.Context, index.ScanSpec) (columnar.Reader, error) {
	return nil, fmt.Errorf("internal error: a generated column's check scanned its table")
}

// generatedNode returns scan's rows with gens computed: a Project whose
// columns are the table's in definition order.
func (b *binder) generatedNode(scan *planner.Scan, gens []GeneratedColumn) (planner.Node, error) {
	// Each expression binds over the stored columns and a placeholder per
	// generated column; placeholders are then replaced by their columns'
	// expressions, innermost first.
	scope := append([]planner.Column(nil), scan.Cols...)
	holder := map[planner.ColID]int{}
	for k, g := range gens {
		c := b.newCol(g.Name, scan.Alias, g.Type)
		if g.Type.ID == columnar.Null {
			c.Type = columnar.TNull // typed once bound (ResolveGenerated)
		}
		holder[c.ID] = k
		scope = append(scope, c)
	}
	order, err := generatedOrder(gens)
	if err != nil {
		return nil, err
	}
	exprs := make([]planner.Expr, len(gens))
	for _, k := range order { // what an expression reads is bound (typed) before it
		x, err := b.bindGenerated(gens[k], scope, scan.Alias)
		if err != nil {
			return nil, err
		}
		exprs[k] = x
		if h := &scope[len(scan.Cols)+k]; h.Type.ID == columnar.Null {
			h.Type = x.Type()
		}
	}
	// Replace each placeholder by its column's expression, in order: the
	// expressions a column reads are whole by then.
	for _, k := range order {
		exprs[k] = mapColRefs(exprs[k], func(r *planner.ColRef) planner.Expr {
			if j, ok := holder[r.Col.ID]; ok {
				return exprs[j]
			}
			return r
		})
		if t := gens[k].Type; t.ID != columnar.Null && exprs[k].Type() != t {
			exprs[k] = &planner.Cast{Arg: exprs[k], To: t}
		}
	}
	p := &planner.Project{Input: scan}
	next := 0 // the next stored column
	for at := 0; at < len(scan.Cols)+len(gens); at++ {
		k := generatedAt(gens, at)
		if k < 0 {
			// A stored column passes through as the scan's own, so that
			// what finds the scan's columns above (DML's row ids) does.
			c := scan.Cols[next]
			next++
			p.Exprs = append(p.Exprs, &planner.ColRef{Col: c})
			p.Out = append(p.Out, c)
			continue
		}
		p.Exprs = append(p.Exprs, exprs[k])
		p.Out = append(p.Out, b.newCol(gens[k].Name, scan.Alias, exprs[k].Type()))
	}
	return p, nil
}

// generatedOrder orders gens so that each comes after the generated
// columns its expression names, refusing a cycle.
func generatedOrder(gens []GeneratedColumn) ([]int, error) {
	reads := make([][]int, len(gens))
	for k, g := range gens {
		e, err := parseExprAt(g.Expr)
		if err != nil {
			return nil, err
		}
		ast.Inspect(e, func(x ast.Expr) bool {
			if r, ok := x.(*ast.ColumnRef); ok {
				for j, h := range gens {
					if strings.EqualFold(r.Name.Last().Name, h.Name) {
						reads[k] = append(reads[k], j)
					}
				}
			}
			return true
		})
	}
	var order []int
	state := make([]int, len(gens)) // 0 new, 1 on the path, 2 ordered
	var visit func(k int) error
	visit = func(k int) error {
		switch state[k] {
		case 1:
			g := gens[k]
			return &Error{Pos: Pos{g.Expr.Line, g.Expr.Col}, Kind: ErrSyntax,
				Msg: fmt.Sprintf("circular dependency among the generated columns' expressions (at %q)", g.Name)}
		case 2:
			return nil
		}
		state[k] = 1
		for _, j := range reads[k] {
			if err := visit(j); err != nil {
				return err
			}
		}
		state[k] = 2
		order = append(order, k)
		return nil
	}
	for k := range gens {
		if err := visit(k); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// generatedAt returns the generated column at place at, or -1.
func generatedAt(gens []GeneratedColumn, at int) int {
	for k, g := range gens {
		if g.At == at {
			return k
		}
	}
	return -1
}

// bindGenerated binds generated column g's expression over scope, the
// columns of the table alias, in a binder of its own text (for error
// positions) that numbers columns on from b's.
func (b *binder) bindGenerated(g GeneratedColumn, scope []planner.Column, alias string) (planner.Expr, error) {
	e, q, err := exprQuery(g.Expr) // bind_default.go
	if err != nil {
		return nil, err
	}
	c := b.child(q, nil)
	c.scope, c.quals, c.hidden = scope, []string{alias}, map[planner.ColID]hide{}
	x, err := c.bindAST(e, ectx{sp: c.q.spanOf(e), clause: "generated columns"})
	b.nextID = c.nextID
	if err != nil {
		return nil, err
	}
	return x, nil
}
