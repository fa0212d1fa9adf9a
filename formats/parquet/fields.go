package parquet

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql/columnar"
)

// A STRUCT column's fields are leaf columns of their own in the file, so
// s.a can be read without the rest of s (planner.FieldColumner, used by
// the planner's ReadFields rule). At Open every field of every STRUCT
// column, at any depth through STRUCTs, gets a hidden column, after the
// exposed ones (Schema leaves them out, ScanSchema lists them):
//
//   - a field that is one leaf of a type read flat is read as a flat
//     column of that leaf: its definition level is below the maximum
//     where the field or any STRUCT above it is NULL, which is exactly
//     where s.a is NULL. It has the leaf's statistics and page index, so
//     a filter on it skips row groups and pages as one on a top-level
//     column does.
//   - any other field (a LIST, MAP or STRUCT, or a leaf a flat column
//     reads as another type) is read as a nested column of the field's
//     leaves only: a list of numbers by listReader, which counts the
//     STRUCTs' levels into the list's NULL level, anything else by
//     arrow-go's reader of the top-level field restricted to those
//     leaves, which gives a STRUCT of the path (and of any MAP beside it:
//     arrow-go reads a MAP whole, selected or not); descend takes the
//     field out of it and makes it NULL where a STRUCT on the way is.

// fieldColumns returns the hidden columns of the STRUCT columns among
// cols, each keyed by its field key (the exposed column's index and the
// path of field indexes).
func fieldColumns(sc *schema.Schema, cols []column) []column {
	leafOf := make(map[schema.Node]int, sc.NumColumns())
	for i := 0; i < sc.NumColumns(); i++ {
		leafOf[sc.Column(i).SchemaNode()] = i
	}
	var out []column
	for ci, c := range cols {
		if c.nested == nil || c.nested.list != nil || c.nested.mp != nil || c.field.Type.ID != columnar.Struct {
			continue
		}
		root, ok := sc.Root().Field(c.nested.field).(*schema.GroupNode)
		if !ok || root.RepetitionType() == parquet.Repetitions.Repeated {
			continue
		}
		var walk func(g *schema.GroupNode, t columnar.Type, path []int, name string)
		walk = func(g *schema.GroupNode, t columnar.Type, path []int, name string) {
			fs := t.Fields()
			if !plainGroup(g) || g.NumFields() != len(fs) {
				return
			}
			for i, f := range fs {
				p := append(path[:len(path):len(path)], i)
				fc := fieldColumn(sc, leafOf, root, c.nested.field, g.Field(i), f.Type, p)
				if fc.nested != nil {
					fc.nested.path = append(pathNames(c.field.Type, path), g.Field(i).Name())
				}
				fc.field.Name = name + "." + f.Name
				fc.key = fieldKey(ci, p)
				out = append(out, fc)
				if sub, ok := g.Field(i).(*schema.GroupNode); ok && f.Type.ID == columnar.Struct {
					walk(sub, f.Type, p, fc.field.Name)
				}
			}
		}
		walk(root, c.field.Type, nil, c.field.Name)
	}
	return out
}

// plainGroup reports whether g is a STRUCT group: neither repeated nor a
// LIST, MAP or VARIANT.
func plainGroup(g *schema.GroupNode) bool {
	if g.RepetitionType() == parquet.Repetitions.Repeated {
		return false
	}
	switch g.LogicalType().(type) {
	case schema.ListLogicalType, schema.MapLogicalType, schema.VariantLogicalType:
		return false
	}
	switch g.ConvertedType() {
	case schema.ConvertedTypes.List, schema.ConvertedTypes.Map, schema.ConvertedTypes.MapKeyValue:
		return false
	}
	return true
}

// fieldColumn is the column reading node n, field path of the top-level
// STRUCT root (top-level field index field), of SQL type t.
func fieldColumn(sc *schema.Schema, leafOf map[schema.Node]int, root *schema.GroupNode, field int, n schema.Node, t columnar.Type, path []int) column {
	if leaf, ok := leafOf[n]; ok && n.RepetitionType() != parquet.Repetitions.Repeated {
		col := sc.Column(leaf)
		if c, err := mapColumn(col); err == nil && c.field.Type == t && col.MaxRepetitionLevel() == 0 {
			c.leaf = leaf
			c.maxDef = col.MaxDefinitionLevel()
			c.field = columnar.Field{Type: t, Nullable: true}
			return c
		}
	}
	var leaves []int
	for i := 0; i < sc.NumColumns(); i++ {
		for p := schema.Node(sc.Column(i).SchemaNode()); p != nil; p = p.Parent() {
			if p == n {
				leaves = append(leaves, i)
				break
			}
		}
	}
	return column{
		field:  columnar.Field{Type: t, Nullable: true},
		leaf:   -1,
		nested: &nestedCol{field: field, leaves: leaves, list: listShapeOf(sc, root, leaves, t)},
	}
}

// fieldKey is the key of field path of exposed column col.
func fieldKey(col int, path []int) string {
	var b strings.Builder
	fmt.Fprint(&b, col)
	for _, p := range path {
		fmt.Fprintf(&b, ".%d", p)
	}
	return b.String()
}

// pathNames are the Parquet names of the fields on path in STRUCT type t.
func pathNames(t columnar.Type, path []int) []string {
	out := make([]string, len(path))
	for i, p := range path {
		out[i] = t.Fields()[p].Name
		t = t.Fields()[p].Type
	}
	return out
}

// descend returns the field of a's STRUCTs named by path, one name a
// level, and the rows where a STRUCT on the way is NULL.
func descend(a arrow.Array, path []string) (arrow.Array, []int, error) {
	var nulls []int
	for _, name := range path {
		s, ok := a.(*array.Struct)
		var f int
		if ok {
			f, ok = s.DataType().(*arrow.StructType).FieldIdx(name)
		}
		if !ok {
			return nil, nil, corruptf("field %q of a STRUCT read as %s", name, a.DataType())
		}
		if s.NullN() > 0 {
			for i := range s.Len() {
				if s.IsNull(i) {
					nulls = append(nulls, i)
				}
			}
		}
		a = s.Field(f)
	}
	return a, nulls, nil
}
