package columnar

// Nested vectors. A LIST (or MAP) vector holds, per row i, the range
// [Starts[i], Ends[i]) of rows of its one child Kids[0], of which KidLen
// are in use: a list view, so that rows may be written in any order and a
// child range may be shared by several rows. Arrow's offsets (n+1 of them)
// are the special case Starts = off[:n], Ends = off[1:], which is how
// Arrow lists come in without a copy. A NULL or empty row has an empty
// range. A STRUCT vector has one child per field, each with the parent's
// rows; a NULL struct row has every field NULL as well, so that a child
// read alone (s.a) stays right.
//
// The batch invariants hold at every level: validity bits say NULL, Sel
// and Const apply to the top-level rows only (children are never Const
// or selected), and Value, SetValue, CopyRow, Gather and Flatten work on
// nested rows like on flat ones, copying child rows as needed.

// growNested makes room for n rows of a nested vector, creating its
// children on first use.
func (v *Vector) growNested(n int) {
	if v.Kids == nil {
		if v.Type.ID == Struct {
			fs := v.Type.Fields()
			v.Kids = make([]*Vector, len(fs))
			for i, f := range fs {
				v.Kids[i] = NewVector(f.Type, n)
			}
		} else {
			v.Kids = []*Vector{NewVector(v.Type.Elem(), 0)}
		}
	}
	if v.Type.ID == Struct {
		for _, k := range v.Kids {
			k.Grow(n)
		}
		return
	}
	v.Starts = growSlice(v.Starts, n)
	v.Ends = growSlice(v.Ends, n)
}

// resetNested empties the children (Reset of the parent).
func (v *Vector) resetNested(n int) {
	if v.Type.ID == Struct {
		for _, k := range v.Kids {
			k.Reset(n)
		}
		return
	}
	v.KidLen = 0
	v.Kids[0].Reset(0)
}

// emptyRow gives a row just made NULL an empty list range, or NULL fields.
func (v *Vector) emptyRow(i, n int) {
	if v.Type.Phys() != PhysNested || v.Kids == nil {
		return
	}
	if v.Type.ID == Struct {
		for _, k := range v.Kids {
			k.SetNull(i, n)
			k.emptyRow(i, n)
		}
		return
	}
	v.Starts[i], v.Ends[i] = int32(v.KidLen), int32(v.KidLen)
}

// ExtendValid makes a validity bitmap (if any) cover n rows, the rows it
// adds valid: for writers that append to a nested vector's child.
func (v *Vector) ExtendValid(n int) {
	if v.Valid != nil && len(v.Valid)*64 < n {
		grown := NewBitmap(max(n, 2*len(v.Valid)*64))
		copy(grown, v.Valid)
		v.Valid = grown
	}
}

// kidSlot appends a row to a list's child and returns its index.
func (v *Vector) kidSlot() int {
	k, i := v.Kids[0], v.KidLen
	k.Grow(i + 1)
	k.ExtendValid(i + 1)
	v.KidLen++
	return i
}

// nestedValue returns the elements (or fields) of row i.
func (v *Vector) nestedValue(i int) []Value {
	if v.Type.ID == Struct {
		out := make([]Value, len(v.Kids))
		for f, k := range v.Kids {
			out[f] = k.Value(i)
		}
		return out
	}
	s, e := int(v.Starts[i]), int(v.Ends[i])
	out := make([]Value, 0, e-s)
	for j := s; j < e; j++ {
		out = append(out, v.Kids[0].Value(j))
	}
	return out
}

// setNested stores the nested value x (not NULL) at row i.
func (v *Vector) setNested(i, n int, x Value) {
	if v.Type.ID == Struct {
		for f, k := range v.Kids {
			k.ExtendValid(n)
			if f < len(x.Elems) {
				k.SetValue(i, n, x.Elems[f])
			} else {
				k.SetValue(i, n, NullValue(k.Type))
			}
		}
		return
	}
	v.Starts[i] = int32(v.KidLen)
	for _, e := range x.Elems {
		j := v.kidSlot()
		v.Kids[0].SetValue(j, j+1, e)
	}
	v.Ends[i] = int32(v.KidLen)
}

// copyNested copies row src of from (not NULL) into row dst.
func (v *Vector) copyNested(dst int, from *Vector, src, n int) {
	if v.Type.ID == Struct {
		for f, k := range v.Kids {
			k.ExtendValid(n)
			k.CopyRow(dst, from.Kids[f], src, n)
		}
		return
	}
	v.Starts[dst] = int32(v.KidLen)
	fk := from.Kids[0]
	for j := from.Starts[src]; j < from.Ends[src]; j++ {
		k := v.kidSlot()
		v.Kids[0].CopyRow(k, fk, int(j), k+1)
	}
	v.Ends[dst] = int32(v.KidLen)
}

// gatherNested is Gather for nested vectors (v already Reset to
// len(rows)): child rows are copied, so v shares nothing with from.
func (v *Vector) gatherNested(from *Vector, rows []int32) {
	n := len(rows)
	for k, r := range rows {
		v.CopyRow(k, from, int(r), n)
	}
}

// flattenNested is Flatten for nested vectors: n copies of row 0.
func (v *Vector) flattenNested(n int) {
	src := *v
	nv := Vector{Type: v.Type}
	nv.Grow(n)
	for i := range n {
		nv.CopyRow(i, &src, 0, n)
	}
	*v = nv
}

// CopyRowOwned is CopyRow that also copies the byte payloads of the row
// (at every level), so that v keeps nothing of from's memory: for
// operators that store rows beyond the life of their input batch.
func (v *Vector) CopyRowOwned(dst int, from *Vector, src, n int) {
	v.CopyRow(dst, from, src, n)
	if !v.IsNull(dst) {
		v.ownRow(dst)
	}
}

// ownRow replaces the byte payloads of row i (and its child rows) by
// copies.
func (v *Vector) ownRow(i int) {
	if v.IsNull(i) {
		return
	}
	switch v.Type.Phys() {
	case PhysBytes:
		v.Bytes[i] = append([]byte(nil), v.Bytes[i]...)
	case PhysNested:
		if v.Type.ID == Struct {
			for _, k := range v.Kids {
				k.ownRow(i)
			}
			return
		}
		for j := v.Starts[i]; j < v.Ends[i]; j++ {
			v.Kids[0].ownRow(int(j))
		}
	}
}

// View returns rows [from, to) of v as a vector sharing v's memory. from
// must be a multiple of 64 (the validity is a whole-word slice); v must
// not be Const or dictionary-coded. A list view keeps the whole child.
func (v *Vector) View(from, to int) Vector {
	out := Vector{Type: v.Type}
	switch v.Type.Phys() {
	case PhysBool:
		out.Bools = v.Bools[from:to]
	case PhysInt:
		out.Ints = v.Ints[from:to]
	case PhysUint:
		out.Uints = v.Uints[from:to]
	case PhysFloat:
		out.Floats = v.Floats[from:to]
	case PhysBytes:
		out.Bytes = v.Bytes[from:to]
	case PhysNested:
		if v.Type.ID == Struct {
			out.Kids = make([]*Vector, len(v.Kids))
			for f, k := range v.Kids {
				kv := k.View(from, to)
				out.Kids[f] = &kv
			}
		} else {
			out.Starts, out.Ends = v.Starts[from:to], v.Ends[from:to]
			out.Kids, out.KidLen = v.Kids, v.KidLen
		}
	}
	if v.Valid != nil {
		out.Valid = v.Valid[from/64 : (to+63)/64]
	}
	return out
}

// AppendKid appends row src of from to the child of the LIST (or MAP)
// vector v and returns its child row: kernels building lists set
// Starts[i] = KidLen, append a row's elements, then set Ends[i] = KidLen.
// The byte payload is shared, as CopyRow shares it.
func (v *Vector) AppendKid(from *Vector, src int) int {
	j := v.kidSlot()
	v.Kids[0].CopyRow(j, from, src, j+1)
	return j
}

// AppendKidOwned is AppendKid with the row's byte payloads copied, for a
// list that outlives from (an aggregate's state: the producer reuses its
// batch's bytes).
func (v *Vector) AppendKidOwned(from *Vector, src int) int {
	j := v.kidSlot()
	v.Kids[0].CopyRowOwned(j, from, src, j+1)
	return j
}
