package parquet

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql/columnar"
)

// Nested columns are written in the standard layout of the Parquet
// format's LogicalTypes.md, which is also DuckDB's:
//
//	optional group l (LIST) { repeated group list { optional <elem> element; } }
//	optional group m (MAP) { repeated group key_value { required <k> key; optional <v> value; } }
//	optional group s { optional <f1> f1; … }
//
// Each row is shredded into its leaf columns (Dremel's algorithm): every
// leaf gets one (repetition, definition) level pair per value, NULL or
// empty list it passes through, and the non-NULL leaf values go to the
// leaf's buffer as a flat column's do. The definition level counts the
// optional and repeated ancestors that are present, so that a NULL list,
// an empty list and a list holding one NULL element stay apart; the
// repetition level says at which list level a new element starts (0: a
// new row).

// wnode is one node of a nested column's schema, as shred walks it.
type wnode struct {
	typ      columnar.Type
	optional bool     // the node may be NULL: it adds a definition level
	key      bool     // a MAP's key (required)
	leaf     int      // a flat node: its index in Writer.cols
	kids     []*wnode // STRUCT: the fields; LIST: the element; MAP: key and value
	rep      int16    // LIST, MAP: the repetition level of its repeated group
	first    int      // the leaves under the node are cols[first:end]
	end      int
}

// nestedNode is the Parquet schema node of the nested type t.
func nestedNode(name string, rep parquet.Repetition, t columnar.Type) (schema.Node, error) {
	opt := parquet.Repetitions.Optional
	switch t.ID {
	case columnar.Struct:
		fs := t.Fields()
		if len(fs) == 0 {
			return nil, errors.New("cannot write a STRUCT with no fields")
		}
		fields := make(schema.FieldList, len(fs))
		for i, f := range fs {
			n, err := fieldNode(f.Name, opt, f.Type)
			if err != nil {
				return nil, fmt.Errorf("field %q: %w", f.Name, err)
			}
			fields[i] = n
		}
		return schema.NewGroupNode(name, rep, fields, -1)
	case columnar.List:
		elem, err := fieldNode("element", opt, t.Elem())
		if err != nil {
			return nil, err
		}
		list, err := schema.NewGroupNode("list", parquet.Repetitions.Repeated, schema.FieldList{elem}, -1)
		if err != nil {
			return nil, err
		}
		return schema.NewGroupNodeLogical(name, rep, schema.FieldList{list}, schema.ListLogicalType{}, -1)
	case columnar.Map:
		fs := t.Fields()
		key, err := fieldNode("key", parquet.Repetitions.Required, fs[0].Type)
		if err != nil {
			return nil, fmt.Errorf("map key: %w", err)
		}
		value, err := fieldNode("value", opt, fs[1].Type)
		if err != nil {
			return nil, fmt.Errorf("map value: %w", err)
		}
		kv, err := schema.NewGroupNode("key_value", parquet.Repetitions.Repeated, schema.FieldList{key, value}, -1)
		if err != nil {
			return nil, err
		}
		return schema.NewGroupNodeLogical(name, rep, schema.FieldList{kv}, schema.MapLogicalType{}, -1)
	}
	return nil, fmt.Errorf("cannot write type %s", t)
}

// planNested builds the wnode tree of a column of nested type t, in the
// order nestedNode lays out its leaves, appending one wcol per leaf to
// cols. rep is the repetition level of the enclosing repeated group.
func planNested(t columnar.Type, optional bool, rep int16, cols *[]wcol) *wnode {
	n := &wnode{typ: t, optional: optional, first: len(*cols)}
	switch t.ID {
	case columnar.Struct:
		for _, f := range t.Fields() {
			n.kids = append(n.kids, planNested(f.Type, true, rep, cols))
		}
	case columnar.List:
		n.rep = rep + 1
		n.kids = []*wnode{planNested(t.Elem(), true, n.rep, cols)}
	case columnar.Map:
		n.rep = rep + 1
		fs := t.Fields()
		key := planNested(fs[0].Type, false, n.rep, cols)
		key.key = true
		n.kids = []*wnode{key, planNested(fs[1].Type, true, n.rep, cols)}
	default:
		n.leaf = len(*cols)
		*cols = append(*cols, wcol{typ: t, phys: physOf(t), null: true, nested: true, reps: []int16{}})
	}
	n.end = len(*cols)
	return n
}

// nameLeaves gives each leaf its dotted path from the Parquet schema (the
// key of per-column writer properties), checking that the leaves planned
// match the schema's.
func nameLeaves(root *schema.GroupNode, cols []wcol) error {
	sc := schema.NewSchema(root)
	if sc.NumColumns() != len(cols) {
		return fmt.Errorf("internal error: %d leaf columns planned, schema has %d", len(cols), sc.NumColumns())
	}
	for i := range cols {
		cols[i].path = sc.Column(i).Path()
	}
	return nil
}

// shred appends rows of v, a column of n's type, to n's leaves.
func (n *wnode) shred(cols []wcol, v *columnar.Vector, rows []int) error {
	for _, r := range rows {
		if v.Const {
			r = 0
		}
		if err := n.value(cols, v, r, 0, 0); err != nil {
			return err
		}
	}
	for k := n.first; k < n.end; k++ {
		cols[k].flushLive()
	}
	return nil
}

// value shreds row i of v: rep is the repetition level of its first leaf
// value, def the definition level its ancestors reached.
func (n *wnode) value(cols []wcol, v *columnar.Vector, i int, rep, def int16) error {
	if v.Type.ID == columnar.Null || v.IsNull(i) {
		if !n.optional {
			return n.nullError()
		}
		n.levels(cols, rep, def)
		return nil
	}
	if n.optional {
		def++
	}
	switch n.typ.ID {
	case columnar.Struct:
		for f, k := range n.kids {
			if err := k.value(cols, v.Kids[f], i, rep, def); err != nil {
				return err
			}
		}
	case columnar.List, columnar.Map:
		s, e := int(v.Starts[i]), int(v.Ends[i])
		if s == e {
			n.levels(cols, rep, def) // an empty list: present, no element
			return nil
		}
		kid := v.Kids[0]
		for j := s; j < e; j++ {
			if n.typ.ID == columnar.List {
				if err := n.kids[0].value(cols, kid, j, rep, def+1); err != nil {
					return err
				}
			} else {
				if kid.IsNull(j) {
					return errors.New("NULL map entry")
				}
				for f, k := range n.kids {
					if err := k.value(cols, kid.Kids[f], j, rep, def+1); err != nil {
						return err
					}
				}
			}
			rep = n.rep
		}
	default:
		c := &cols[n.leaf]
		c.defs = append(c.defs, def)
		c.reps = append(c.reps, rep)
		if c.src != v {
			c.flushLive()
			c.src = v
		}
		c.live = append(c.live, i)
	}
	return nil
}

// levels gives every leaf under n one level pair and no value: n (or an
// ancestor) is NULL, or n is an empty list.
func (n *wnode) levels(cols []wcol, rep, def int16) {
	for k := n.first; k < n.end; k++ {
		cols[k].defs = append(cols[k].defs, def)
		cols[k].reps = append(cols[k].reps, rep)
	}
}

func (n *wnode) nullError() error {
	if n.key {
		return errors.New("NULL map key")
	}
	return errors.New("NULL in a NOT NULL column")
}

// flushLive buffers the values of the rows of src that value collected.
func (c *wcol) flushLive() {
	if c.src != nil && len(c.live) > 0 {
		c.appendValues(c.src, c.live)
	}
	c.live, c.src = c.live[:0], nil
}
