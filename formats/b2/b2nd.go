package b2

import (
	"fmt"
	"math"
)

// maxNDim is the largest ndim c-blosc2 supports (B2ND_MAX_DIM).
const maxNDim = 16

// B2ndMeta is the content of the "b2nd" metalayer (README_B2ND_METALAYER.rst).
type B2ndMeta struct {
	Version     int
	Shape       []int64
	ChunkShape  []int
	BlockShape  []int
	DTypeFormat int    // 0 = NumPy dtype string
	DType       string // "" when absent (raw bytes of the frame typesize)
}

// ParseB2ndMeta decodes and validates a b2nd metalayer. It accepts any
// msgpack integer/str width, as a tolerant reader should, even though
// writers use fixed widths so that the shape can be updated in place.
func ParseB2ndMeta(b []byte) (B2ndMeta, error) {
	var m B2ndMeta
	r := &mpReader{b: b}
	n := r.arrayLen()
	if r.err == nil && n < 6 {
		return m, corruptf("b2nd metalayer: %d fields, want 7", n)
	}
	m.Version = int(r.int())
	nd := int(r.int())
	if r.err != nil {
		return m, r.err
	}
	if nd < 0 || nd > maxNDim {
		return m, corruptf("b2nd metalayer: ndim %d outside [0, %d]", nd, maxNDim)
	}
	if k := r.arrayLen(); r.err == nil && k != nd {
		return m, corruptf("b2nd metalayer: shape has %d dims, ndim is %d", k, nd)
	}
	m.Shape = make([]int64, nd)
	for i := range m.Shape {
		m.Shape[i] = r.int()
	}
	if k := r.arrayLen(); r.err == nil && k != nd {
		return m, corruptf("b2nd metalayer: chunkshape has %d dims, ndim is %d", k, nd)
	}
	m.ChunkShape = make([]int, nd)
	for i := range m.ChunkShape {
		m.ChunkShape[i] = int(r.int())
	}
	if k := r.arrayLen(); r.err == nil && k != nd {
		return m, corruptf("b2nd metalayer: blockshape has %d dims, ndim is %d", k, nd)
	}
	m.BlockShape = make([]int, nd)
	for i := range m.BlockShape {
		m.BlockShape[i] = int(r.int())
	}
	if n >= 7 {
		m.DTypeFormat = int(r.int())
		m.DType = r.str()
	}
	if r.err != nil {
		return m, r.err
	}
	for i := 0; i < nd; i++ {
		switch {
		case m.Shape[i] < 0:
			return m, corruptf("b2nd metalayer: negative shape[%d] %d", i, m.Shape[i])
		case m.ChunkShape[i] <= 0 && m.Shape[i] > 0 || m.ChunkShape[i] < 0 || m.ChunkShape[i] > math.MaxInt32:
			return m, corruptf("b2nd metalayer: bad chunkshape[%d] %d", i, m.ChunkShape[i])
		case m.BlockShape[i] <= 0 && m.ChunkShape[i] > 0 || m.BlockShape[i] < 0 || m.BlockShape[i] > m.ChunkShape[i]:
			return m, corruptf("b2nd metalayer: bad blockshape[%d] %d (chunkshape %d)", i, m.BlockShape[i], m.ChunkShape[i])
		}
	}
	if m.DTypeFormat != 0 {
		return m, unsupportedf("b2nd dtype format %d", m.DTypeFormat)
	}
	return m, nil
}

// Encode returns the metalayer bytes with the fixed widths c-blosc2 writes
// (int64 shape, int32 chunk/block shapes, str32 dtype).
func (m B2ndMeta) Encode() []byte {
	w := &mpWriter{}
	w.u8(0x97)
	w.small(m.Version)
	w.small(len(m.Shape))
	w.u8(0x90 | byte(len(m.Shape)))
	for _, s := range m.Shape {
		w.i64(s)
	}
	w.u8(0x90 | byte(len(m.ChunkShape)))
	for _, s := range m.ChunkShape {
		w.i32(int32(s))
	}
	w.u8(0x90 | byte(len(m.BlockShape)))
	for _, s := range m.BlockShape {
		w.i32(int32(s))
	}
	w.small(m.DTypeFormat)
	w.u8(0xdb)
	w.b = append(w.b, byte(len(m.DType)>>24), byte(len(m.DType)>>16), byte(len(m.DType)>>8), byte(len(m.DType)))
	w.b = append(w.b, m.DType...)
	return w.b
}

// Array is a b2nd N-dimensional array stored in a frame. Its methods are
// safe for concurrent use.
type Array struct {
	Frame *Frame
	Meta  B2ndMeta
	DType DType

	itemsize   int
	extChunk   []int   // chunkshape rounded up to whole blocks
	chunkGrid  []int64 // chunks per dimension
	blockGrid  []int   // blocks per chunk per dimension
	blockItems int     // items per block
	chunkItems int     // items per (extended) chunk
}

// OpenArray opens a b2nd file or sparse directory.
func OpenArray(path string) (*Array, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	a, err := NewArray(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return a, nil
}

// NewArray interprets an open frame as a b2nd array. The Array does not
// own f: closing the Array closes f.
func NewArray(f *Frame) (*Array, error) {
	raw, ok := f.MetaContent("b2nd")
	if !ok {
		return nil, fileError(f.name, corruptf("no b2nd metalayer"))
	}
	m, err := ParseB2ndMeta(raw)
	if err != nil {
		return nil, fileError(f.name, err)
	}
	a := &Array{Frame: f, Meta: m}
	if m.DType == "" {
		a.DType = DType{Kind: 'S', ItemSize: f.Header.Typesize, Order: '|', Str: fmt.Sprintf("|S%d", f.Header.Typesize)}
	} else if a.DType, err = ParseDType(m.DType); err != nil {
		return nil, fileError(f.name, err)
	}
	a.itemsize = a.DType.ItemSize
	if a.itemsize != f.Header.Typesize {
		return nil, fileError(f.name, corruptf("dtype %s has itemsize %d, frame typesize is %d", m.DType, a.itemsize, f.Header.Typesize))
	}
	if err := a.initGeometry(); err != nil {
		return nil, fileError(f.name, err)
	}
	return a, nil
}

func (a *Array) initGeometry() error {
	nchunks, err := a.computeGeometry()
	if err != nil {
		return err
	}
	h := &a.Frame.Header
	if nchunks != int64(a.Frame.nchunks) {
		return corruptf("shape %v / chunkshape %v needs %d chunks, frame has %d", a.Meta.Shape, a.Meta.ChunkShape, nchunks, a.Frame.nchunks)
	}
	if nchunks > 0 && int64(a.chunkItems)*int64(a.itemsize) != int64(h.Chunksize) {
		return corruptf("extended chunk %v × %d bytes ≠ frame chunksize %d", a.extChunk, a.itemsize, h.Chunksize)
	}
	return nil
}

// computeGeometry derives the chunk and block grids from the metalayer and
// returns the number of chunks.
func (a *Array) computeGeometry() (int64, error) {
	m := &a.Meta
	nd := len(m.Shape)
	a.extChunk = make([]int, nd)
	a.chunkGrid = make([]int64, nd)
	a.blockGrid = make([]int, nd)
	a.blockItems, a.chunkItems = 1, 1
	var nchunks int64 = 1
	var items int64 = 1
	for i := 0; i < nd; i++ {
		if m.Shape[i] == 0 {
			nchunks = 0
			items = 0
			a.chunkGrid[i] = 0
			a.extChunk[i] = m.ChunkShape[i]
			a.blockGrid[i] = 1
			continue
		}
		cs, bs := m.ChunkShape[i], m.BlockShape[i]
		a.extChunk[i] = (cs + bs - 1) / bs * bs
		a.blockGrid[i] = a.extChunk[i] / bs
		a.chunkGrid[i] = (m.Shape[i] + int64(cs) - 1) / int64(cs)
		if a.blockItems > math.MaxInt32/bs || a.chunkItems > math.MaxInt32/a.extChunk[i] {
			return 0, corruptf("chunk of shape %v too large", m.ChunkShape)
		}
		a.blockItems *= bs
		a.chunkItems *= a.extChunk[i]
		if nchunks > 0 && nchunks > math.MaxInt32/a.chunkGrid[i] {
			return 0, corruptf("too many chunks for shape %v", m.Shape)
		}
		nchunks *= a.chunkGrid[i]
		if items > math.MaxInt64/m.Shape[i] {
			return 0, corruptf("shape %v overflows", m.Shape)
		}
		items *= m.Shape[i]
	}
	if int64(a.chunkItems)*int64(a.itemsize) > math.MaxInt32 {
		return 0, corruptf("chunk of %v × %d bytes too large", a.extChunk, a.itemsize)
	}
	return nchunks, nil
}

// Close closes the underlying frame.
func (a *Array) Close() error { return a.Frame.Close() }

// NDim returns the number of dimensions (0 for a scalar).
func (a *Array) NDim() int { return len(a.Meta.Shape) }

// Shape returns the array shape; do not modify it.
func (a *Array) Shape() []int64 { return a.Meta.Shape }

// ItemSize returns the bytes per item.
func (a *Array) ItemSize() int { return a.itemsize }

// Len returns the total number of items (1 for a 0-d array).
func (a *Array) Len() int64 {
	n := int64(1)
	for _, s := range a.Meta.Shape {
		n *= s
	}
	return n
}

// NChunks returns the number of chunks.
func (a *Array) NChunks() int { return a.Frame.nchunks }
