package arrowrec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/b2sql/b2sql/columnar"
)

// An ENUM goes to Arrow as DuckDB exports it: dictionary<values: utf8,
// indices: the ENUM's code type (uint8, uint16 or uint32)>, the dictionary
// the type's values in order, the indices the codes. A TIME WITH TIME ZONE
// goes as DuckDB exports it too: time64[us] of its local time, the offset
// dropped (Arrow has no time of day with an offset).

// enumType is the Arrow type of an ENUM.
func enumType(t columnar.Type) arrow.DataType {
	idx := arrow.PrimitiveTypes.Uint8
	switch t.EnumCodeType().ID {
	case columnar.Uint16:
		idx = arrow.PrimitiveTypes.Uint16
	case columnar.Uint32:
		idx = arrow.PrimitiveTypes.Uint32
	}
	return &arrow.DictionaryType{IndexType: idx, ValueType: arrow.BinaryTypes.String}
}

// arrowEnum converts the live rows of b of the ENUM column v.
func arrowEnum(dt arrow.DataType, v *columnar.Vector, b *columnar.Batch, valid *memory.Buffer, nulls int) (*array.Data, error) {
	var idx []byte
	switch dt.(*arrow.DictionaryType).IndexType.ID() {
	case arrow.UINT8:
		idx = bytesOf(gather(v.Ints, v.Const, b, func(x int64) uint8 { return uint8(x) }))
	case arrow.UINT16:
		idx = bytesOf(gather(v.Ints, v.Const, b, func(x int64) uint16 { return uint16(x) }))
	default:
		idx = bytesOf(gather(v.Ints, v.Const, b, func(x int64) uint32 { return uint32(x) }))
	}
	vals := v.Type.EnumValues()
	offsets := make([]int32, len(vals)+1)
	var data []byte
	for i, s := range vals {
		data = append(data, s...)
		offsets[i+1] = int32(len(data))
	}
	dict := array.NewData(arrow.BinaryTypes.String, len(vals), []*memory.Buffer{nil, memory.NewBufferBytes(bytesOf(offsets)), memory.NewBufferBytes(data)}, nil, 0, 0)
	defer dict.Release()
	return array.NewDataWithDictionary(dt, b.Live(), []*memory.Buffer{valid, memory.NewBufferBytes(idx)}, nulls, 0, dict), nil
}

// timeTZLocal is the local time of a TIMETZ key, in microseconds.
func timeTZLocal(key int64) int64 {
	us, _ := columnar.TimeTZParts(key)
	return us
}
