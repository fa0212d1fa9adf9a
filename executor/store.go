package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// rowStore accumulates rows copied out of batches (whose memory belongs to
// their producer), for operators that must hold rows: sort, top-k. Byte
// payloads are copied into large shared blocks to avoid a heap object per
// string.
type rowStore struct {
	types []columnar.Type
	cols  []*columnar.Vector
	n     int
	bytes arena
}

// viewRows points v at rows [from, to) of the stored column c, sharing
// the store's memory. from must be a multiple of 64, so the validity is a
// whole-word slice of the stored bitmap (batches replayed from a store
// start at multiples of MaxBatch).
func (s *rowStore) viewRows(v *columnar.Vector, c, from, to int) {
	*v = s.cols[c].View(from, to)
}

func newRowStore(types []columnar.Type) *rowStore {
	s := &rowStore{types: types, cols: make([]*columnar.Vector, len(types))}
	for i, t := range types {
		s.cols[i] = columnar.NewVector(t, 0)
	}
	return s
}

// appendRows copies the live rows of cols (vectors of batch b) into the store.
func (s *rowStore) appendRows(b *columnar.Batch, cols []*columnar.Vector) {
	live := b.Live()
	base := s.n
	s.n += live
	for c, v := range cols {
		dst := s.cols[c]
		dst.Grow(s.n)
		if v.Valid != nil || v.Const && v.IsNull(0) {
			if dst.Valid == nil {
				dst.Valid = columnar.NewBitmap(s.n)
			}
		}
		if dst.Valid != nil && len(dst.Valid)*64 < s.n {
			grown := columnar.NewBitmap(s.n + s.n/2)
			copy(grown, dst.Valid)
			dst.Valid = grown
		}
		for k := 0; k < live; k++ {
			i := b.Row(k)
			j := idx(v, i)
			r := base + k
			if v.Type.IsNested() {
				dst.CopyRowOwned(r, v, j, s.n)
				continue
			}
			if v.IsNull(j) {
				dst.Valid.Clear(r)
				continue
			}
			if dst.Valid != nil {
				dst.Valid.Set(r)
			}
			switch v.Type.Phys() {
			case columnar.PhysBool:
				dst.Bools[r] = v.Bools[j]
			case columnar.PhysInt:
				dst.Ints[r] = v.Ints[j]
			case columnar.PhysUint:
				dst.Uints[r] = v.Uints[j]
			case columnar.PhysFloat:
				dst.Floats[r] = v.Floats[j]
			case columnar.PhysBytes:
				src := bytesAt(v, j)
				buf := s.bytes.alloc(len(src))
				copy(buf, src)
				dst.Bytes[r] = buf
			}
		}
	}
}

// gather fills out (one vector per column, reused) with rows perm[from:to].
func (s *rowStore) gather(out *columnar.Batch, perm []int32, from, to int) {
	out.Len = to - from
	out.Sel = nil
	for c, src := range s.cols {
		out.Cols[c].Gather(src, perm[from:to])
	}
}

// bytesAt returns row j's bytes, decoding a dictionary-coded vector (a
// coded column may reach a store through a pass-through operator).
func bytesAt(v *columnar.Vector, j int) []byte {
	if d, codes, ok := dict.Of(v); ok {
		return d.Value(codes[j])
	}
	return v.Bytes[j]
}
