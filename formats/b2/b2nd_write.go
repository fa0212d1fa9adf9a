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
// string such as "<f8" or "|S6".
func WriteArray(path, dtype string, shape []int64, data []byte, opts *ArrayOptions) error {
	var o ArrayOptions
	if opts != nil {
		o = *opts
	}
	dt, err := ParseDType(dtype)
	if err != nil {
		return fmt.Errorf("b2: %w", err)
	}
	if len(shape) > maxNDim {
		return fmt.Errorf("b2: %d dimensions, at most %d", len(shape), maxNDim)
	}
	items := int64(1)
	for _, s := range shape {
		if s < 0 || s > 0 && items > math.MaxInt64/s {
			return fmt.Errorf("b2: bad shape %v", shape)
		}
		items *= s
	}
	if int64(len(data)) != items*int64(dt.ItemSize) {
		return fmt.Errorf("b2: data has %d bytes, shape %v × %d needs %d", len(data), shape, dt.ItemSize, items*int64(dt.ItemSize))
	}
	p := o.cparams(dt)
	chunk, block := o.ChunkShape, o.BlockShape
	if chunk == nil || block == nil {
		ac, ab := autoShapes(shape, dt.ItemSize, &p)
		if chunk == nil {
			chunk = ac
		}
		if block == nil {
			block = ab
			for i := range block {
				block[i] = min(block[i], chunk[i])
			}
		}
	}
	m := B2ndMeta{Shape: shape, ChunkShape: chunk, BlockShape: block, DType: dtype}
	a := &Array{Meta: m, DType: dt, itemsize: dt.ItemSize, Frame: &Frame{}}
	if err := validateShapes(m); err != nil {
		return err
	}
	nchunks, err := a.computeGeometry()
	if err != nil {
		return fmt.Errorf("b2: %w", err)
	}
	chunkBytes := a.chunkItems * a.itemsize
	p.Blocksize = a.blockItems * a.itemsize
	fw, err := CreateFrame(path, &FrameOptions{CParams: &p, Chunksize: chunkBytes, Blocksize: p.Blocksize,
		Meta: append([]Metalayer{{Name: "b2nd", Content: m.Encode()}}, o.Meta...), VLMeta: o.VLMeta})
	if err != nil {
		return err
	}
	bufs := make([][]byte, workerCount(int(nchunks)))
	err = compressOrderedW(int(nchunks), &p, func(w, i int) []byte {
		bufs[w] = grow(bufs[w], chunkBytes)
		a.gatherChunk(bufs[w], data, i)
		return bufs[w]
	}, fw.AppendChunk)
	if err != nil {
		fw.Abort()
		return err
	}
	return fw.Close()
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

// compressOrderedW is compressOrdered with the worker number passed to src,
// so each worker fills its own reusable source buffer.
func compressOrderedW(n int, p *CParams, src func(w, i int) []byte, sink func([]byte) error) error {
	workers := workerCount(n)
	encs := make([]*Encoder, workers)
	outs := make([][]byte, workers)
	for i := range encs {
		encs[i] = encoderPool.Get().(*Encoder)
		defer encoderPool.Put(encs[i])
	}
	for base := 0; base < n; base += workers {
		k := min(workers, n-base)
		err := parallelFor(k, func(_, j int) error {
			var err error
			outs[j], err = encs[j].Compress(outs[j], src(j, base+j), p)
			return err
		})
		if err != nil {
			return err
		}
		for j := 0; j < k; j++ {
			if err := sink(outs[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

// gatherChunk lays out chunk nchunk of the C-order array data as the
// chunk's block-major byte order, zero padding outside the shape.
func (a *Array) gatherChunk(dst, data []byte, nchunk int) {
	clear(dst)
	m := &a.Meta
	nd := len(m.Shape)
	isz := int64(a.itemsize)
	if nd == 0 {
		copy(dst, data)
		return
	}
	cc := make([]int64, nd)
	k := int64(nchunk)
	for i := nd - 1; i >= 0; i-- {
		cc[i] = k % a.chunkGrid[i]
		k /= a.chunkGrid[i]
	}
	if nd == 1 {
		co := cc[0] * int64(m.ChunkShape[0])
		hi := min(m.Shape[0], co+int64(m.ChunkShape[0]))
		copy(dst, data[co*isz:hi*isz])
		return
	}
	co := make([]int64, nd)
	hi := make([]int64, nd)
	for i := 0; i < nd; i++ {
		co[i] = cc[i] * int64(m.ChunkShape[i])
		hi[i] = min(m.Shape[i], co[i]+int64(m.ChunkShape[i]))
	}
	bc := make([]int, nd)
	bo := make([]int64, nd)
	boxhi := make([]int64, nd)
	idx := make([]int64, nd)
	blockBytes := int64(a.blockItems) * isz
	for nblock := 0; ; nblock++ {
		empty := false
		for i := 0; i < nd; i++ {
			bo[i] = co[i] + int64(bc[i]*m.BlockShape[i])
			boxhi[i] = min(hi[i], bo[i]+int64(m.BlockShape[i]))
			if bo[i] >= boxhi[i] {
				empty = true
			}
		}
		if !empty {
			copy(idx, bo)
			run := (boxhi[nd-1] - bo[nd-1]) * isz
			for {
				var so, do int64
				for i := 0; i < nd; i++ {
					do = do*int64(m.BlockShape[i]) + idx[i] - bo[i]
					so = so*m.Shape[i] + idx[i]
				}
				copy(dst[int64(nblock)*blockBytes+do*isz:][:run], data[so*isz:])
				i := nd - 2
				for ; i >= 0; i-- {
					idx[i]++
					if idx[i] < boxhi[i] {
						break
					}
					idx[i] = bo[i]
				}
				if i < 0 {
					break
				}
			}
		}
		i := nd - 1
		for ; i >= 0; i-- {
			bc[i]++
			if bc[i] < a.blockGrid[i] {
				break
			}
			bc[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// ArrayWriter appends items to a 1-D b2nd array of unknown final length,
// compressing full chunks on all cores; Close records the final shape in
// the b2nd metalayer (rewritten in place, as b2nd resizes do).
type ArrayWriter struct {
	fw       *FrameWriter
	meta     B2ndMeta
	p        CParams
	itemsize int
	chunk    int // bytes per chunk
	pending  [][]byte
	free     [][]byte
	cur      []byte
	n        int64
}

// CreateArray1D starts a streaming 1-D b2nd writer.
func CreateArray1D(path, dtype string, opts *ArrayOptions) (*ArrayWriter, error) {
	var o ArrayOptions
	if opts != nil {
		o = *opts
	}
	dt, err := ParseDType(dtype)
	if err != nil {
		return nil, fmt.Errorf("b2: %w", err)
	}
	p := o.cparams(dt)
	chunk, block := o.ChunkShape, o.BlockShape
	if chunk == nil || block == nil {
		ac, ab := autoShapes([]int64{int64(defaultChunkBytes / dt.ItemSize)}, dt.ItemSize, &p)
		if chunk == nil {
			chunk = ac
		}
		if block == nil {
			block = []int{min(ab[0], chunk[0])}
		}
	}
	m := B2ndMeta{Shape: []int64{0}, ChunkShape: chunk, BlockShape: block, DType: dtype}
	if err := validateShapes(m); err != nil {
		return nil, err
	}
	ext := (chunk[0] + block[0] - 1) / block[0] * block[0]
	p.Blocksize = block[0] * dt.ItemSize
	aw := &ArrayWriter{meta: m, p: p, itemsize: dt.ItemSize, chunk: ext * dt.ItemSize}
	aw.fw, err = CreateFrame(path, &FrameOptions{CParams: &p, Chunksize: aw.chunk, Blocksize: p.Blocksize,
		Meta: append([]Metalayer{{Name: "b2nd", Content: m.Encode()}}, o.Meta...), VLMeta: o.VLMeta})
	if err != nil {
		return nil, err
	}
	return aw, nil
}

// Append adds items (len a multiple of the item size).
func (aw *ArrayWriter) Append(items []byte) error {
	if len(items)%aw.itemsize != 0 {
		return fmt.Errorf("b2: %d bytes is not a whole number of %d-byte items", len(items), aw.itemsize)
	}
	aw.n += int64(len(items) / aw.itemsize)
	full := aw.meta.ChunkShape[0] * aw.itemsize
	for len(items) > 0 {
		if aw.cur == nil {
			if k := len(aw.free); k > 0 {
				aw.cur, aw.free = aw.free[k-1][:0], aw.free[:k-1]
			} else {
				aw.cur = make([]byte, 0, aw.chunk)
			}
		}
		k := copy(aw.cur[len(aw.cur):full], items)
		aw.cur = aw.cur[:len(aw.cur)+k]
		items = items[k:]
		if len(aw.cur) == full {
			aw.pending = append(aw.pending, aw.cur)
			aw.cur = nil
			if len(aw.pending) >= workerCount(1<<30) {
				if err := aw.flush(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// flush compresses the pending chunks (one per worker) and writes them.
func (aw *ArrayWriter) flush() error {
	pend := aw.pending
	for i := range pend {
		// Pad to the extended chunk with zeros.
		n := len(pend[i])
		pend[i] = pend[i][:aw.chunk]
		clear(pend[i][n:])
	}
	err := compressOrdered(len(pend), &aw.p, func(i int) []byte { return pend[i] }, aw.fw.AppendChunk)
	aw.free = append(aw.free, pend...)
	aw.pending = aw.pending[:0]
	return err
}

// Close writes the remaining items, the final shape and the trailer.
func (aw *ArrayWriter) Close() error {
	if aw.cur != nil && len(aw.cur) > 0 {
		aw.pending = append(aw.pending, aw.cur)
		aw.cur = nil
	}
	if err := aw.flush(); err != nil {
		aw.fw.Abort()
		return err
	}
	aw.meta.Shape[0] = aw.n
	if err := aw.fw.UpdateMeta("b2nd", aw.meta.Encode()); err != nil {
		aw.fw.Abort()
		return err
	}
	return aw.fw.Close()
}

// Abort discards the partial file.
func (aw *ArrayWriter) Abort() error { return aw.fw.Abort() }
