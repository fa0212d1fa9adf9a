package b2

import (
	"fmt"
	"math"
)

// defaultChunkBytes is the uncompressed chunk size the writers aim for:
// large enough to amortise per-chunk costs, small enough that one chunk
// per core stays in memory comfortably.
const defaultChunkBytes = 4 << 20

// ArrayOptions configure the b2nd writers; the zero value picks shapes
// automatically and compresses with DefaultCParams.
type ArrayOptions struct {
	ChunkShape []int // nil = automatic
	BlockShape []int // nil = automatic
	// CParams; nil = DefaultCParams(itemsize), with SHUFFLE meta 4 for
	// NumPy U dtypes (python-blosc2 shuffles their 4-byte code units).
	CParams *CParams
	Meta    []Metalayer // extra fixed metalayers
	VLMeta  []Metalayer // variable-length metalayers (msgpack by convention)
}

func (o *ArrayOptions) cparams(dt DType) CParams {
	if o.CParams != nil {
		p := *o.CParams
		p.Typesize = dt.ItemSize
		return p
	}
	p := DefaultCParams(dt.ItemSize)
	if dt.Kind == 'U' {
		p.FiltersMeta[5] = 4
	}
	return p
}

// autoShapes picks chunk and block shapes: C-order tiles of about
// defaultChunkBytes, with blocks sized by c-blosc2's block heuristic.
func autoShapes(shape []int64, itemsize int, p *CParams) (chunk, block []int) {
	nd := len(shape)
	chunk = make([]int, nd)
	block = make([]int, nd)
	fill := func(dst []int, bound func(d int) int64, budget int64) {
		for d := nd - 1; d >= 0; d-- {
			n := min(bound(d), max(budget, 1))
			dst[d] = int(max(n, 1))
			budget /= max(n, 1)
		}
	}
	fill(chunk, func(d int) int64 { return shape[d] }, int64(defaultChunkBytes/itemsize))
	cb := itemsize
	for _, c := range chunk {
		cb *= c
	}
	bs := p.ComputeBlocksize(cb)
	fill(block, func(d int) int64 { return int64(chunk[d]) }, int64(max(bs/itemsize, 1)))
	return chunk, block
}

// WriteArray writes data (C order, len = prod(shape) × itemsize) as a b2nd
// array at path, compressing chunks on all cores. dtype is a NumPy dtype
// string such as "<f8" or "|S6". It is CreateArray + Append + Close, so
// beyond data itself it holds one padded and one compressed chunk per
// worker.
func WriteArray(path, dtype string, shape []int64, data []byte, opts *ArrayOptions) error {
	for _, s := range shape {
		if s < 0 {
			return fmt.Errorf("b2: bad shape %v", shape)
		}
	}
	if len(shape) > maxNDim {
		return fmt.Errorf("b2: %d dimensions, at most %d", len(shape), maxNDim)
	}
	dt, err := ParseDType(dtype)
	if err != nil {
		return fmt.Errorf("b2: %w", err)
	}
	items := int64(1)
	for _, s := range shape {
		if s > 0 && items > math.MaxInt64/s {
			return fmt.Errorf("b2: bad shape %v", shape)
		}
		items *= s
	}
	if items > math.MaxInt64/int64(dt.ItemSize) || int64(len(data)) != items*int64(dt.ItemSize) {
		return fmt.Errorf("b2: data has %d bytes, shape %v × %d needs %d", len(data), shape, dt.ItemSize, items*int64(dt.ItemSize))
	}
	w, err := CreateArray(path, dtype, shape, opts)
	if err != nil {
		return err
	}
	if len(data) > 0 || len(shape) == 0 {
		if err := w.Append(data); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}

func validateShapes(m B2ndMeta) error {
	nd := len(m.Shape)
	if len(m.ChunkShape) != nd || len(m.BlockShape) != nd {
		return fmt.Errorf("b2: shape %v, chunkshape %v and blockshape %v differ in rank", m.Shape, m.ChunkShape, m.BlockShape)
	}
	for i := 0; i < nd; i++ {
		if m.ChunkShape[i] <= 0 || m.BlockShape[i] <= 0 || m.BlockShape[i] > m.ChunkShape[i] {
			return fmt.Errorf("b2: bad chunkshape %v / blockshape %v", m.ChunkShape, m.BlockShape)
		}
	}
	return nil
}

// ArrayWriter appends items to a 1-D b2nd array of unknown final length,
// compressing full chunks on all cores; Close records the final shape in
// the b2nd metalayer (rewritten in place, as b2nd resizes do). It is an
// NDWriter of shape [-1]; memory is about two chunks per worker.
type ArrayWriter struct{ w *NDWriter }

// CreateArray1D starts a streaming 1-D b2nd writer.
func CreateArray1D(path, dtype string, opts *ArrayOptions) (*ArrayWriter, error) {
	w, err := CreateArray(path, dtype, []int64{-1}, opts)
	if err != nil {
		return nil, err
	}
	return &ArrayWriter{w}, nil
}

// Append adds items (len a multiple of the item size).
func (aw *ArrayWriter) Append(items []byte) error { return aw.w.Append(items) }

// SetVLMeta adds or replaces a variable-length metalayer, written with the
// trailer on Close (so it may describe every item appended).
func (aw *ArrayWriter) SetVLMeta(name string, content []byte) error {
	return aw.w.SetVLMeta(name, content)
}

// Close writes the remaining items, the final shape and the trailer.
func (aw *ArrayWriter) Close() error { return aw.w.Close() }

// Abort discards the partial file.
func (aw *ArrayWriter) Abort() error { return aw.w.Abort() }
