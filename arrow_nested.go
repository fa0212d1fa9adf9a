package b2sql

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/b2sql/b2sql/columnar"
)

// Nested columns in Arrow records: LIST → list<element>, STRUCT →
// struct<fields>, MAP → map<key, value> (keys not nullable), nested to any
// depth, every child nullable but a map's key. A columnar LIST is a list
// view (rows may share or reorder child ranges), Arrow's a list of
// ascending offsets, so the child rows are gathered in row order: nested
// columns are always copied.

// arrowNestedType is arrowType for LIST, STRUCT and MAP.
func arrowNestedType(t columnar.Type) arrow.DataType {
	switch t.ID {
	case columnar.List:
		return arrow.ListOfField(arrow.Field{Name: "element", Type: arrowType(t.Elem()), Nullable: true})
	case columnar.Map:
		fs := t.Fields()
		return arrow.MapOf(arrowType(fs[0].Type), arrowType(fs[1].Type))
	}
	fs := t.Fields()
	fields := make([]arrow.Field, len(fs))
	for i, f := range fs {
		fields[i] = arrow.Field{Name: f.Name, Type: arrowType(f.Type), Nullable: true}
	}
	return arrow.StructOf(fields...)
}

// arrowNested converts the live rows of b of the nested column v.
func arrowNested(dt arrow.DataType, v *columnar.Vector, b *columnar.Batch) (*array.Data, error) {
	rows := make([]int, b.Live())
	for k := range rows {
		rows[k] = rowAt(v.Const, b, k)
	}
	return arrowRows(dt, v.Type, v, rows)
}

// arrowRows converts rows of v (payload indexes, in the order wanted, a
// row possibly more than once) of any type.
func arrowRows(dt arrow.DataType, t columnar.Type, v *columnar.Vector, rows []int) (*array.Data, error) {
	n := len(rows)
	if v.Type.ID == columnar.Null && t.ID != columnar.Null {
		// An untyped NULL vector standing for a nested value: all NULL.
		a := array.MakeArrayOfNull(memory.DefaultAllocator, dt, n)
		defer a.Release()
		d := a.Data().(*array.Data)
		d.Retain()
		return d, nil
	}
	if !t.IsNested() {
		// arrowData gathers the live rows of a batch: one whose selection
		// lists the rows wanted reads exactly those.
		return arrowData(dt, t, v, &columnar.Batch{Len: len(rows), Sel: rows})
	}
	valid, nulls := arrowValidity(v, &columnar.Batch{Len: n, Sel: rows})
	switch t.ID {
	case columnar.Struct:
		fs := t.Fields()
		kids := make([]arrow.ArrayData, len(fs))
		defer releaseAll(kids)
		for f := range fs {
			d, err := arrowRows(dt.(*arrow.StructType).Field(f).Type, fs[f].Type, v.Kids[f], rows)
			if err != nil {
				return nil, err
			}
			kids[f] = d
		}
		return array.NewData(dt, n, []*memory.Buffer{valid}, kids, nulls, 0), nil
	case columnar.List, columnar.Map:
		offsets := make([]int32, n+1)
		var kidRows []int
		for k, i := range rows {
			if !v.IsNull(i) {
				for j := v.Starts[i]; j < v.Ends[i]; j++ {
					kidRows = append(kidRows, int(j))
				}
			}
			if len(kidRows) > 1<<31-1 {
				return nil, fmt.Errorf("batch holds %d list elements, more than Arrow list offsets address", len(kidRows))
			}
			offsets[k+1] = int32(len(kidRows))
		}
		if kidRows == nil {
			kidRows = []int{}
		}
		var elemType arrow.DataType
		if t.ID == columnar.Map {
			elemType = dt.(*arrow.MapType).Elem()
		} else {
			elemType = dt.(*arrow.ListType).Elem()
		}
		kid, err := arrowRows(elemType, t.Elem(), v.Kids[0], kidRows)
		if err != nil {
			return nil, err
		}
		defer kid.Release()
		return array.NewData(dt, n, []*memory.Buffer{valid, memory.NewBufferBytes(bytesOf(offsets))}, []arrow.ArrayData{kid}, nulls, 0), nil
	}
	return nil, fmt.Errorf("type %s has no Arrow mapping", t)
}

func releaseAll(ds []arrow.ArrayData) {
	for _, d := range ds {
		if d != nil {
			d.Release()
		}
	}
}
