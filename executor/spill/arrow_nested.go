package spill

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/b2sql/b2sql/columnar"
)

// Nested columns spill as Arrow lists and structs of their children's
// physical types (a MAP as the list of its key/value structs, its layout),
// written through builders and read back a row at a time: a copy either
// way, which a spill makes anyway.

// arrowNested is arrowOf for a nested type.
func arrowNested(t columnar.Type) arrow.DataType {
	if t.ID == columnar.Struct {
		fs := make([]arrow.Field, len(t.Fields()))
		for i, f := range t.Fields() {
			fs[i] = arrow.Field{Name: "f" + itoa(i), Type: arrowOf(f.Type), Nullable: true}
		}
		return arrow.StructOf(fs...)
	}
	return arrow.ListOf(arrowOf(t.Elem()))
}

// nestedArray builds the Arrow array of rows [0, n) of the nested vector v.
func nestedArray(dt arrow.DataType, v *columnar.Vector, n int) arrow.Array {
	b := array.NewBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	for i := range n {
		appendRow(b, v, i)
	}
	return b.NewArray()
}

// appendRow appends row i of v to b (of v's spilled Arrow type).
func appendRow(b array.Builder, v *columnar.Vector, i int) {
	if v.IsNull(i) {
		b.AppendNull()
		return
	}
	switch v.Type.Phys() {
	case columnar.PhysBool:
		b.(*array.BooleanBuilder).Append(v.Bools[i])
	case columnar.PhysInt:
		b.(*array.Int64Builder).Append(v.Ints[i])
	case columnar.PhysUint:
		b.(*array.Uint64Builder).Append(v.Uints[i])
	case columnar.PhysFloat:
		b.(*array.Float64Builder).Append(v.Floats[i])
	case columnar.PhysBytes:
		b.(*array.BinaryBuilder).Append([]byte(v.Value(i).S))
	case columnar.PhysNested:
		if v.Type.ID == columnar.Struct {
			sb := b.(*array.StructBuilder)
			sb.Append(true)
			for f, k := range v.Kids {
				appendRow(sb.FieldBuilder(f), k, i)
			}
			return
		}
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		for j := v.Starts[i]; j < v.Ends[i]; j++ {
			appendRow(lb.ValueBuilder(), v.Kids[0], int(j))
		}
	default:
		b.AppendNull()
	}
}

// nestedVector sets v to the n rows of the spilled nested array a.
func nestedVector(v *columnar.Vector, t columnar.Type, a arrow.Array, n int) {
	*v = *columnar.NewVector(t, n)
	for i := range n {
		v.SetValue(i, n, arrowValue(t, a, i))
	}
}

// arrowValue returns row i of the spilled array a as a value of type t.
func arrowValue(t columnar.Type, a arrow.Array, i int) columnar.Value {
	if a.IsNull(i) {
		return columnar.NullValue(t)
	}
	switch t.Phys() {
	case columnar.PhysBool:
		return columnar.Value{Type: t, I: b2i(a.(*array.Boolean).Value(i))}
	case columnar.PhysInt:
		return columnar.Value{Type: t, I: a.(*array.Int64).Value(i)}
	case columnar.PhysUint:
		return columnar.Value{Type: t, I: int64(a.(*array.Uint64).Value(i))}
	case columnar.PhysFloat:
		return columnar.Value{Type: t, F: a.(*array.Float64).Value(i)}
	case columnar.PhysBytes:
		return columnar.Value{Type: t, S: string(a.(*array.Binary).Value(i))}
	case columnar.PhysNested:
		if t.ID == columnar.Struct {
			s := a.(*array.Struct)
			out := columnar.Value{Type: t, Elems: make([]columnar.Value, len(t.Fields()))}
			for f, fd := range t.Fields() {
				out.Elems[f] = arrowValue(fd.Type, s.Field(f), i)
			}
			return out
		}
		l := a.(*array.List)
		lo, hi := l.ValueOffsets(i)
		out := columnar.Value{Type: t, Elems: make([]columnar.Value, 0, hi-lo)}
		for j := lo; j < hi; j++ {
			out.Elems = append(out.Elems, arrowValue(t.Elem(), l.ListValues(), int(j)))
		}
		return out
	}
	return columnar.NullValue(t)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
