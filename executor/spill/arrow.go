package spill

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// arrowOf is the Arrow type a column is spilled as: its physical
// representation (the logical type is the reader's to restore).
func arrowOf(t columnar.Type) arrow.DataType {
	switch t.Phys() {
	case columnar.PhysBool:
		return arrow.FixedWidthTypes.Boolean
	case columnar.PhysInt:
		return arrow.PrimitiveTypes.Int64
	case columnar.PhysUint:
		return arrow.PrimitiveTypes.Uint64
	case columnar.PhysFloat:
		return arrow.PrimitiveTypes.Float64
	case columnar.PhysBytes:
		return arrow.BinaryTypes.Binary
	case columnar.PhysNested:
		return arrowNested(t)
	}
	return arrow.Null
}

func schemaOf(types []columnar.Type) *arrow.Schema {
	fields := make([]arrow.Field, len(types))
	for i, t := range types {
		fields[i] = arrow.Field{Name: "c" + itoa(i), Type: arrowOf(t), Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// converter holds the scratch of one writer or reader.
type converter struct {
	flat []*columnar.Vector // write: live rows of each column, contiguous
}

// flatten returns column v's live rows of b as a plain vector (no Sel,
// Const or dictionary), v itself when it is one already.
func (c *converter) flatten(i int, v *columnar.Vector, b *columnar.Batch) *columnar.Vector {
	_, _, coded := dict.Of(v)
	if b.Sel == nil && !v.Const && !coded {
		return v
	}
	for len(c.flat) <= i {
		c.flat = append(c.flat, nil)
	}
	if c.flat[i] == nil || c.flat[i].Type != v.Type {
		c.flat[i] = columnar.NewVector(v.Type, 0)
	}
	dst := c.flat[i]
	n := b.Live()
	dst.Reset(n)
	for k := range n {
		dst.CopyRow(k, v, b.Row(k), n)
	}
	return dst
}

func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(z)))
}

// record converts the live rows of b into an Arrow record that shares the
// vectors' memory where it can; it is valid until the next call.
func (c *converter) record(schema *arrow.Schema, types []columnar.Type, b *columnar.Batch) arrow.RecordBatch {
	n := b.Live()
	cols := make([]arrow.Array, len(types))
	for i, t := range types {
		v := c.flatten(i, b.Cols[i], b)
		var valid *memory.Buffer
		nulls := 0
		if v.Valid != nil {
			nulls = n - v.Valid.CountSet(n)
			if nulls > 0 {
				valid = memory.NewBufferBytes(asBytes(v.Valid[:(n+63)/64]))
			}
		}
		dt := arrowOf(t)
		var data arrow.ArrayData
		switch t.Phys() {
		case columnar.PhysInt:
			data = array.NewData(dt, n, []*memory.Buffer{valid, memory.NewBufferBytes(asBytes(v.Ints[:n]))}, nil, nulls, 0)
		case columnar.PhysUint:
			data = array.NewData(dt, n, []*memory.Buffer{valid, memory.NewBufferBytes(asBytes(v.Uints[:n]))}, nil, nulls, 0)
		case columnar.PhysFloat:
			data = array.NewData(dt, n, []*memory.Buffer{valid, memory.NewBufferBytes(asBytes(v.Floats[:n]))}, nil, nulls, 0)
		case columnar.PhysBool:
			bits := make([]byte, (n+7)/8)
			for k, x := range v.Bools[:n] {
				if x {
					bits[k>>3] |= 1 << (k & 7)
				}
			}
			data = array.NewData(dt, n, []*memory.Buffer{valid, memory.NewBufferBytes(bits)}, nil, nulls, 0)
		case columnar.PhysBytes:
			offs := make([]int32, n+1)
			size := 0
			for k, s := range v.Bytes[:n] {
				if nulls == 0 || v.Valid.Get(k) {
					size += len(s)
				}
				offs[k+1] = int32(size)
			}
			buf := make([]byte, 0, size)
			for k, s := range v.Bytes[:n] {
				if nulls == 0 || v.Valid.Get(k) {
					buf = append(buf, s...)
				}
			}
			data = array.NewData(dt, n, []*memory.Buffer{valid, memory.NewBufferBytes(asBytes(offs)), memory.NewBufferBytes(buf)}, nil, nulls, 0)
		case columnar.PhysNested:
			cols[i] = nestedArray(dt, v, n)
			continue
		default:
			data = array.NewData(dt, n, []*memory.Buffer{nil}, nil, n, 0)
		}
		cols[i] = array.MakeFromData(data)
		data.Release()
	}
	rec := array.NewRecordBatch(schema, cols, int64(n))
	for _, a := range cols {
		a.Release()
	}
	return rec
}

// batch points out's vectors at the columns of rec (which stays alive until
// the reader moves on), restoring the logical types.
func (c *converter) batch(rec arrow.RecordBatch, types []columnar.Type, out *columnar.Batch) {
	n := int(rec.NumRows())
	out.Len, out.Sel = n, nil
	for i, t := range types {
		if out.Cols[i] == nil {
			out.Cols[i] = &columnar.Vector{}
		}
		v := out.Cols[i]
		col := rec.Column(i)
		if t.IsNested() {
			nestedVector(v, t, col, n)
			continue
		}
		*v = columnar.Vector{Type: t, Bools: v.Bools, Bytes: v.Bytes}
		if col.NullN() > 0 && t.Phys() != columnar.PhysNone {
			v.Valid = make(columnar.Bitmap, (n+63)/64)
			bm := col.NullBitmapBytes()
			dst := asBytes(v.Valid)
			copy(dst, bm[:min(len(bm), len(dst))])
		}
		switch t.Phys() {
		case columnar.PhysInt:
			v.Ints = col.(*array.Int64).Int64Values()
		case columnar.PhysUint:
			v.Uints = col.(*array.Uint64).Uint64Values()
		case columnar.PhysFloat:
			v.Floats = col.(*array.Float64).Float64Values()
		case columnar.PhysBool:
			a := col.(*array.Boolean)
			v.Bools = growTo(v.Bools, n)
			for k := range n {
				v.Bools[k] = a.Value(k)
			}
		case columnar.PhysBytes:
			a := col.(*array.Binary)
			v.Bytes = growTo(v.Bytes, n)
			for k := range n {
				v.Bytes[k] = a.Value(k)
			}
		}
	}
}

func growTo[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
