package dml

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// defaults are the DEFAULT values of a table's columns for one statement:
// each bound once (sql.BindDefault) and evaluated per row, so that
// DEFAULT random() gives every row its own value. A column without a
// DEFAULT takes NULL.
type defaults struct {
	schema columnar.Schema
	src    []sql.Source // per column; Text "" none
	cat    planner.Catalog
	bound  []planner.Expr
	kernel []executor.Expr
}

// newDefaults returns the defaults of table t (an in-memory table or a
// CTable) with columns schema.
func newDefaults(cat planner.Catalog, t any, schema columnar.Schema) *defaults {
	d := &defaults{schema: schema, cat: cat, src: make([]sql.Source, len(schema)),
		bound: make([]planner.Expr, len(schema)), kernel: make([]executor.Expr, len(schema))}
	switch t := t.(type) {
	case *catalog.MemTable:
		copy(d.src, t.Defaults())
	default:
		// A CTable keeps constant defaults in its schema: each is bound
		// as the literal it is.
		for i, r := range catalog.Constraints(t) {
			if i < len(d.src) && r.Default != nil {
				d.src[i] = sql.Source{Text: literalSQL(*r.Default)}
			}
		}
	}
	return d
}

// targetTable is the table tg locked.
func targetTable(tg *catalog.Target) any {
	if tg.Mem != nil {
		return tg.Mem
	}
	return tg.CT
}

// constDefault is a CTable column's DEFAULT x as the value its schema
// keeps: a constant number, string or boolean.
func constDefault(x planner.Expr) (columnar.Value, bool) {
	k, ok := planner.FoldExpr(x).(*planner.Const)
	if !ok {
		return columnar.Value{}, false
	}
	v := k.Val
	switch t := v.Type; {
	case v.Null:
		return v, true // DEFAULT NULL is no default
	case t.IsInteger(), t.ID == columnar.Bool, t.ID == columnar.Varchar:
		return v, true
	case t.Phys() == columnar.PhysFloat || t.ID == columnar.Decimal:
		f := v.AsFloat()
		return columnar.FloatValue(columnar.TFloat64, f), !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return columnar.Value{}, false
}

// literalSQL writes v, a CTable's default, as a SQL literal.
func literalSQL(v columnar.Value) string {
	switch {
	case v.Type.ID == columnar.Bool:
		return strconv.FormatBool(v.Bool())
	case v.Type.IsString():
		return "'" + strings.ReplaceAll(v.S, "'", "''") + "'"
	case v.Type.Phys() == columnar.PhysUint:
		return strconv.FormatUint(v.Uint(), 10)
	case v.Type.IsInteger():
		return strconv.FormatInt(v.I, 10)
	}
	f := v.AsFloat()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "'" + strconv.FormatFloat(f, 'g', -1, 64) + "'::DOUBLE"
	}
	return strconv.FormatFloat(f, 'g', -1, 64) + "::DOUBLE"
}

// setDefaultCells makes DEFAULT in the k-th value of a row of s's VALUES
// take the DEFAULT of table column pos[k], and values that do not combine
// into one type take column pos[k]'s.
func setDefaultCells(s *sql.Insert, pos []int, d *defaults) {
	if !s.ByName {
		ts := make([]columnar.Type, len(pos))
		for k, i := range pos {
			ts[k] = d.schema[i].Type
		}
		s.Query.SetTargetTypes(ts)
	}
	s.Query.SetDefaults(func(k int) (planner.Expr, error) {
		if s.ByName || k >= len(pos) {
			return nil, fmt.Errorf("no column to take the DEFAULT of")
		}
		return d.expr(pos[k])
	})
}

// ExplainDefaults readies s's DEFAULT values for EXPLAIN, which binds its
// query without running the INSERT.
func ExplainDefaults(cat *catalog.Catalog, s *sql.Insert) {
	t, ok := cat.Table(s.Table)
	if !ok || s.Query == nil {
		return
	}
	schema := t.Schema()
	pos, err := insertPositions(schema, s, s.Table)
	if err != nil {
		return // the INSERT's own checks report it
	}
	setDefaultCells(s, pos, newDefaults(cat, t, schema))
}

// has reports whether column i has a DEFAULT expression.
func (d *defaults) has(i int) bool { return d.src[i].Text != "" }

// expr is column i's DEFAULT as a bound expression of the column's type.
func (d *defaults) expr(i int) (planner.Expr, error) {
	if d.bound[i] != nil {
		return d.bound[i], nil
	}
	var x planner.Expr = &planner.Const{Val: columnar.NullValue(d.schema[i].Type)}
	if d.has(i) {
		var err error
		if x, err = sql.BindDefault(d.src[i], d.schema[i].Type, d.cat); err != nil {
			return nil, err
		}
	}
	d.bound[i] = x
	return x, nil
}

// eval is column i's DEFAULT for every row of b (a constant vector when
// the column has none).
func (d *defaults) eval(i int, b *columnar.Batch) (*columnar.Vector, error) {
	if d.kernel[i] == nil {
		x, err := d.expr(i)
		if err != nil {
			return nil, err
		}
		if d.kernel[i], err = planner.CompileExpr(x, nil); err != nil {
			return nil, err
		}
	}
	return d.kernel[i].Eval(b)
}
