package columnar

// Vector is one column of a batch. Exactly one payload slice is used, chosen
// by Type.Phys(); its length is at least the batch's Len. Valid == nil means
// no NULLs; otherwise bit i clear means row i is NULL and its payload slot is
// garbage. Const means row 0 holds the value (and validity) of every row.
//
// Dict, when non-nil, makes a VARCHAR/BLOB vector dictionary-coded: Dict is
// a *dict.Dict, row i's value is code Codes[i] of it, and Bytes is unused
// (or, when a format has the values at hand anyway, holds them too).
// Only consumers that asked for codes (index.ScanSpec.DictCols) receive
// such vectors; Value, CopyRow and Gather decode them, so that generic
// code stays correct. Codes keeps its storage across Reset.
type Vector struct {
	Type   Type
	Valid  Bitmap
	Const  bool
	Bools  []bool
	Ints   []int64
	Uints  []uint64
	Floats []float64
	Bytes  [][]byte
	Dict   any
	Codes  []int32
	// Nested vectors (nested.go, nested_vector.go): a LIST or MAP row i is
	// the child rows [Starts[i], Ends[i]) of Kids[0], which holds KidLen
	// rows; a STRUCT has one child per field in Kids, row i of each being
	// row i's field.
	Starts, Ends []int32
	Kids         []*Vector
	KidLen       int
}

// dictionary is what columnar needs of a Dict (package dict) to decode a
// coded row, without importing it.
type dictionary interface{ Value(code int32) []byte }

// bytesAt returns the byte payload of row i, decoding a coded vector.
func (v *Vector) bytesAt(i int) []byte {
	if v.Dict != nil {
		return v.Dict.(dictionary).Value(v.Codes[i])
	}
	return v.Bytes[i]
}

// NewVector returns a vector of type t with room for n rows and no NULLs.
func NewVector(t Type, n int) *Vector {
	v := &Vector{Type: t}
	v.Grow(n)
	return v
}

// Grow ensures the payload holds at least n rows, keeping existing rows.
func (v *Vector) Grow(n int) {
	switch v.Type.Phys() {
	case PhysBool:
		v.Bools = growSlice(v.Bools, n)
	case PhysInt:
		v.Ints = growSlice(v.Ints, n)
	case PhysUint:
		v.Uints = growSlice(v.Uints, n)
	case PhysFloat:
		v.Floats = growSlice(v.Floats, n)
	case PhysBytes:
		v.Bytes = growSlice(v.Bytes, n)
	case PhysNested:
		v.growNested(n)
	}
}

// Reset prepares v for reuse as a vector of n rows with no NULLs; the payload
// storage is kept and its contents are garbage.
func (v *Vector) Reset(n int) {
	v.Valid = nil
	v.Const = false
	v.Dict = nil
	v.Grow(n)
	if v.Kids != nil {
		v.resetNested(n)
	}
}

func growSlice[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	out := make([]T, n, max(n, 2*cap(s)))
	copy(out, s)
	return out
}

// IsNull reports whether row i is NULL.
func (v *Vector) IsNull(i int) bool {
	if v.Const {
		i = 0
	}
	return v.Type.ID == Null || (v.Valid != nil && !v.Valid.Get(i))
}

// SetNull marks row i NULL, allocating the bitmap on first use. n is the
// vector's row count (used to size the bitmap).
func (v *Vector) SetNull(i, n int) {
	if v.Valid == nil {
		v.Valid = NewBitmap(max(n, i+1))
	} else if len(v.Valid)*64 <= i {
		grown := NewBitmap(i + 1)
		copy(grown, v.Valid)
		v.Valid = grown
	}
	v.Valid.Clear(i)
}

// Value returns row i as a scalar (boxing: use in tests, printing and
// per-group code, never in per-row kernels).
func (v *Vector) Value(i int) Value {
	if v.Const {
		i = 0
	}
	if v.IsNull(i) {
		return NullValue(v.Type)
	}
	out := Value{Type: v.Type}
	switch v.Type.Phys() {
	case PhysBool:
		if v.Bools[i] {
			out.I = 1
		}
	case PhysInt:
		out.I = v.Ints[i]
	case PhysUint:
		out.I = int64(v.Uints[i])
	case PhysFloat:
		out.F = v.Floats[i]
	case PhysBytes:
		out.S = string(v.bytesAt(i))
		if v.Type.ID == Interval {
			out.I = out.Interval().FoldedMicros()
		}
	case PhysNested:
		out.Elems = v.nestedValue(i)
	}
	return out
}

// SetValue stores x at row i (x must have v's physical representation or be NULL).
func (v *Vector) SetValue(i, n int, x Value) {
	if x.Null {
		v.SetNull(i, n)
		v.emptyRow(i, n)
		return
	}
	if v.Valid != nil {
		v.Valid.Set(i)
	}
	switch v.Type.Phys() {
	case PhysBool:
		v.Bools[i] = x.I != 0
	case PhysInt:
		v.Ints[i] = x.I
	case PhysUint:
		v.Uints[i] = uint64(x.I)
	case PhysFloat:
		v.Floats[i] = x.F
	case PhysBytes:
		if v.Type.ID == Interval && len(x.S) != IntervalSize {
			x = IntervalValue(x.Interval()) // built with IntValue: microseconds
		}
		v.Bytes[i] = []byte(x.S)
	case PhysNested:
		v.setNested(i, n, x)
	}
}

// ConstVector returns a constant vector holding x for every row.
func ConstVector(x Value) *Vector {
	v := NewVector(x.Type, 1)
	v.Const = true
	if x.Null {
		v.Valid = Bitmap{0}
		return v
	}
	v.SetValue(0, 1, x)
	return v
}

// Flatten turns a Const vector into a plain one of n rows, in place.
func (v *Vector) Flatten(n int) {
	if !v.Const {
		return
	}
	if v.Type.Phys() == PhysNested {
		v.flattenNested(n)
		return
	}
	v.Const = false
	null := v.IsNull(0)
	v.Grow(n)
	switch v.Type.Phys() {
	case PhysBool:
		fill(v.Bools[:n], v.Bools[0])
	case PhysInt:
		fill(v.Ints[:n], v.Ints[0])
	case PhysUint:
		fill(v.Uints[:n], v.Uints[0])
	case PhysFloat:
		fill(v.Floats[:n], v.Floats[0])
	case PhysBytes:
		fill(v.Bytes[:n], v.Bytes[0])
	}
	if null || v.Type.ID == Null {
		v.Valid = make(Bitmap, (n+63)/64)
	} else {
		v.Valid = nil
	}
}

func fill[T any](s []T, x T) {
	for i := range s {
		s[i] = x
	}
}

// CopyRow copies row src of from into row dst of v (same physical type).
// The byte payload is shared, not copied.
func (v *Vector) CopyRow(dst int, from *Vector, src, n int) {
	if from.Const {
		src = 0
	}
	if from.IsNull(src) {
		v.SetNull(dst, n)
		v.emptyRow(dst, n)
		return
	}
	if v.Valid != nil {
		v.Valid.Set(dst)
	}
	switch v.Type.Phys() {
	case PhysBool:
		v.Bools[dst] = from.Bools[src]
	case PhysInt:
		v.Ints[dst] = from.Ints[src]
	case PhysUint:
		v.Uints[dst] = from.Uints[src]
	case PhysFloat:
		v.Floats[dst] = from.Floats[src]
	case PhysBytes:
		v.Bytes[dst] = from.bytesAt(src)
	case PhysNested:
		v.copyNested(dst, from, src, n)
	}
}

// Gather sets v to rows[i] of from for i in [0, len(rows)): v is reset to
// len(rows) rows and gets a validity bitmap only if some gathered row is
// NULL. One type switch per call, then a plain loop. Byte payloads are
// shared, not copied. from must not be Const.
func (v *Vector) Gather(from *Vector, rows []int32) {
	n := len(rows)
	v.Reset(n)
	if v.Type.Phys() == PhysNested {
		v.gatherNested(from, rows)
		return
	}
	switch v.Type.Phys() {
	case PhysBool:
		gather(v.Bools[:n], from.Bools, rows)
	case PhysInt:
		gather(v.Ints[:n], from.Ints, rows)
	case PhysUint:
		gather(v.Uints[:n], from.Uints, rows)
	case PhysFloat:
		gather(v.Floats[:n], from.Floats, rows)
	case PhysBytes:
		if from.Dict != nil {
			for k, r := range rows {
				v.Bytes[k] = from.bytesAt(int(r))
			}
		} else {
			gather(v.Bytes[:n], from.Bytes, rows)
		}
	}
	if from.Valid == nil {
		return
	}
	for k, r := range rows {
		if !from.Valid.Get(int(r)) {
			v.SetNull(k, n)
		}
	}
}

func gather[T any](dst, src []T, rows []int32) {
	for k, r := range rows {
		dst[k] = src[r]
	}
}
