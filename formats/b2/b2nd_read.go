package b2

import (
	"fmt"
	"math"
	"unsafe"
)

// ReadSlice decodes the hyper-slab [start, stop) of the array into dst in C
// order; dst must hold prod(stop-start)×ItemSize bytes. Only the chunks and
// blocks that intersect the slab are decompressed; chunks are decoded in
// parallel when the slab spans several.
func (a *Array) ReadSlice(dst []byte, start, stop []int64) error {
	nd := a.NDim()
	if len(start) != nd || len(stop) != nd {
		return fmt.Errorf("b2: %s: slice has %d/%d dims, array has %d", a.Frame.name, len(start), len(stop), nd)
	}
	items := int64(1)
	for i := 0; i < nd; i++ {
		if start[i] < 0 || start[i] > stop[i] || stop[i] > a.Meta.Shape[i] {
			return fmt.Errorf("b2: %s: slice [%v, %v) outside shape %v", a.Frame.name, start, stop, a.Meta.Shape)
		}
		items *= stop[i] - start[i]
	}
	need := items * int64(a.itemsize)
	if int64(len(dst)) < need {
		return shortDst(len(dst), int(need))
	}
	if items == 0 {
		return nil
	}
	if nd == 0 {
		return a.Frame.DecompressChunkRange(nil, dst[:a.itemsize], 0, 0)
	}
	// Enumerate intersecting chunk coordinates.
	clo := make([]int64, nd)
	chi := make([]int64, nd)
	count := 1
	for i := 0; i < nd; i++ {
		cs := int64(a.Meta.ChunkShape[i])
		clo[i], chi[i] = start[i]/cs, (stop[i]-1)/cs
		count *= int(chi[i] - clo[i] + 1)
	}
	workers := workerCount(count)
	decs := make([]*Decoder, workers)
	scratch := make([]partScratch, workers)
	for i := range decs {
		decs[i] = getDecoder()
	}
	defer func() {
		for _, d := range decs {
			putDecoder(d)
		}
	}()
	return parallelFor(count, func(w, k int) error {
		s := &scratch[w]
		s.size(nd)
		cc := s.i64[:nd]
		for i := nd - 1; i >= 0; i-- {
			span := int(chi[i] - clo[i] + 1)
			cc[i] = clo[i] + int64(k%span)
			k /= span
		}
		return a.readChunkPart(decs[w], s, cc, start, stop, dst)
	})
}

// partScratch is one worker's reusable state for readChunkPart: a slab of
// millions of tiny chunks (which a frame of a few hundred bytes can
// declare) must not cost allocations per chunk.
type partScratch struct {
	buf  []byte
	i64  []int64 // cc, lo, hi, co, bo, boxlo, boxhi, idx: nd each
	ints []int   // blo, bhi, bc: nd each
}

func (s *partScratch) size(nd int) {
	if len(s.i64) < 8*nd {
		s.i64 = make([]int64, 8*nd)
		s.ints = make([]int, 3*nd)
	}
}

// Slice allocates and returns the hyper-slab [start, stop).
func (a *Array) Slice(start, stop []int64) ([]byte, error) {
	items := int64(1)
	for i := range start {
		if i < len(stop) && stop[i] > start[i] {
			items *= stop[i] - start[i]
		} else {
			items = 0
		}
	}
	if items > math.MaxInt/int64(a.itemsize) {
		return nil, fmt.Errorf("b2: %s: slice of %d items too large", a.Frame.name, items)
	}
	dst := make([]byte, items*int64(a.itemsize))
	return dst, a.ReadSlice(dst, start, stop)
}

// ReadAll decodes the whole array (C order, padding dropped) using all cores.
func (a *Array) ReadAll() ([]byte, error) {
	start := make([]int64, a.NDim())
	return a.Slice(start, a.Meta.Shape)
}

// readChunkPart copies the part of chunk cc that lies inside [start, stop).
// s may be nil for a 1-D array.
func (a *Array) readChunkPart(d *Decoder, s *partScratch, cc, start, stop []int64, dst []byte) error {
	nd := len(cc)
	m := &a.Meta
	nchunk := 0
	for i := 0; i < nd; i++ {
		nchunk = nchunk*int(a.chunkGrid[i]) + int(cc[i])
	}
	wrap := func(err error) error { return chunkError(a.Frame.name, nchunk, a.Frame.chunkPos(nchunk), err) }
	load := func(off, n int) (chunk, error) {
		c, err := a.Frame.loadChunk(d, nchunk, off, n)
		if err == nil && c.Nbytes != a.chunkItems*a.itemsize {
			err = wrap(corruptf("nbytes %d, b2nd geometry needs %d", c.Nbytes, a.chunkItems*a.itemsize))
		}
		return c, err
	}
	isz := int64(a.itemsize)
	if nd == 1 {
		// 1-D chunks are plain item runs: decode straight into dst.
		co := cc[0] * int64(m.ChunkShape[0])
		lo, hi := max(start[0], co), min(stop[0], co+int64(m.ChunkShape[0]))
		off := int((lo - co) * isz)
		part := dst[(lo-start[0])*isz : (hi-start[0])*isz]
		// Blocks this read covers in part stay cached for the next read
		// (blockcache.go): batches rarely end where blocks do.
		k := cacheKey{a.Frame, nchunk}
		if off, part = d.cache.copyFrom(k, off, part); len(part) == 0 {
			return nil
		}
		c, err := load(off, len(part))
		if err != nil {
			return err
		}
		d.key = k
		err = d.rangeOf(&c, part, off)
		d.key = cacheKey{}
		return wrap(err)
	}
	s.size(nd)
	lo, hi, co := s.i64[nd:2*nd], s.i64[2*nd:3*nd], s.i64[3*nd:4*nd]
	bo, boxlo, boxhi, idx := s.i64[4*nd:5*nd], s.i64[5*nd:6*nd], s.i64[6*nd:7*nd], s.i64[7*nd:8*nd]
	blo, bhi, bc := s.ints[:nd], s.ints[nd:2*nd], s.ints[2*nd:3*nd]
	for i := 0; i < nd; i++ {
		co[i] = cc[i] * int64(m.ChunkShape[i])
		lo[i] = max(start[i], co[i])
		hi[i] = min(stop[i], co[i]+int64(m.ChunkShape[i]))
		bs := int64(m.BlockShape[i])
		blo[i], bhi[i] = int((lo[i]-co[i])/bs), int((hi[i]-1-co[i])/bs)
	}
	blockBytes := a.blockItems * a.itemsize
	// Blocks tile the chunk in C order: those of the box lie between its
	// first and last corner.
	first, last := 0, 0
	for i := 0; i < nd; i++ {
		first = first*a.blockGrid[i] + blo[i]
		last = last*a.blockGrid[i] + bhi[i]
	}
	c, err := load(first*blockBytes, (last-first+1)*blockBytes)
	if err != nil {
		return err
	}
	s.buf = grow(s.buf, blockBytes)
	buf := s.buf
	copy(bc, blo)
	for {
		nblock := 0
		for i := 0; i < nd; i++ {
			nblock = nblock*a.blockGrid[i] + bc[i]
			bo[i] = co[i] + int64(bc[i]*m.BlockShape[i])
			boxlo[i] = max(lo[i], bo[i])
			boxhi[i] = min(hi[i], bo[i]+int64(m.BlockShape[i]))
		}
		if err := d.rangeOf(&c, buf, nblock*blockBytes); err != nil {
			return wrap(err)
		}
		// Copy runs along the last dimension.
		copy(idx, boxlo)
		run := (boxhi[nd-1] - boxlo[nd-1]) * isz
		for {
			var so, do int64
			for i := 0; i < nd; i++ {
				so = so*int64(m.BlockShape[i]) + idx[i] - bo[i]
				do = do*(stop[i]-start[i]) + idx[i] - start[i]
			}
			copy(dst[do*isz:do*isz+run], buf[so*isz:])
			i := nd - 2
			for ; i >= 0; i-- {
				idx[i]++
				if idx[i] < boxhi[i] {
					break
				}
				idx[i] = boxlo[i]
			}
			if i < 0 {
				break
			}
		}
		// Next block coordinate.
		i := nd - 1
		for ; i >= 0; i-- {
			bc[i]++
			if bc[i] <= bhi[i] {
				break
			}
			bc[i] = blo[i]
		}
		if i < 0 {
			return nil
		}
	}
}

// ChunkItems returns the item range [start, start+n) of the array covered
// by chunk i of a 1-D array (n excludes the padding of the last chunk).
func (a *Array) ChunkItems(i int) (start int64, n int) {
	cs := int64(a.Meta.ChunkShape[0])
	start = int64(i) * cs
	return start, int(min(cs, a.Meta.Shape[0]-start))
}

// ReadChunk1D decodes the items of chunk i of a 1-D array into dst (which
// must hold ChunkItems(i) items) and returns the item range it covers. d
// may be nil; pass one Decoder per goroutine to avoid pool traffic.
func (a *Array) ReadChunk1D(d *Decoder, dst []byte, i int) (start int64, n int, err error) {
	if a.NDim() != 1 {
		return 0, 0, fmt.Errorf("b2: %s: ReadChunk1D on a %d-d array", a.Frame.name, a.NDim())
	}
	if i < 0 || i >= a.NChunks() {
		return 0, 0, fmt.Errorf("b2: %s: chunk %d out of range [0, %d)", a.Frame.name, i, a.NChunks())
	}
	start, n = a.ChunkItems(i)
	if len(dst) < n*a.itemsize {
		return 0, 0, shortDst(len(dst), n*a.itemsize)
	}
	if d == nil {
		d = getDecoder()
		defer putDecoder(d)
	}
	c, err := a.Frame.loadChunk(d, i, 0, n*a.itemsize)
	if err != nil {
		return 0, 0, err
	}
	if c.Nbytes != a.chunkItems*a.itemsize {
		err = corruptf("nbytes %d, b2nd geometry needs %d", c.Nbytes, a.chunkItems*a.itemsize)
	} else {
		err = d.rangeOf(&c, dst[:n*a.itemsize], 0)
	}
	if err != nil {
		return 0, 0, chunkError(a.Frame.name, i, a.Frame.chunkPos(i), err)
	}
	return start, n, nil
}

// ChunkIter walks a 1-D array one chunk at a time, reusing one buffer. It
// is what a sequential scan uses: each step yields the decompressed items
// of one chunk and the item range they cover.
type ChunkIter struct {
	a     *Array
	d     *Decoder
	buf   []byte
	next  int
	start int64
	n     int
	err   error
}

// Chunks returns an iterator over the chunks of a 1-D array.
func (a *Array) Chunks() *ChunkIter { return &ChunkIter{a: a} }

// Next decodes the next chunk; it returns false at the end or on error.
func (it *ChunkIter) Next() bool {
	if it.err != nil || it.next >= it.a.NChunks() {
		it.Close()
		return false
	}
	if it.d == nil {
		it.d = getDecoder()
	}
	_, n := it.a.ChunkItems(it.next)
	it.buf = grow(it.buf, n*it.a.itemsize)
	it.start, it.n, it.err = it.a.ReadChunk1D(it.d, it.buf, it.next)
	if it.err != nil {
		it.Close()
		return false
	}
	it.next++
	return true
}

// Chunk returns the index of the current chunk.
func (it *ChunkIter) Chunk() int { return it.next - 1 }

// Start returns the index of the current chunk's first item.
func (it *ChunkIter) Start() int64 { return it.start }

// Bytes returns the current chunk's items; valid until the next call to Next.
func (it *ChunkIter) Bytes() []byte { return it.buf[:it.n*it.a.itemsize] }

// Len returns the number of items in the current chunk.
func (it *ChunkIter) Len() int { return it.n }

// Err returns the error that stopped the iteration, if any.
func (it *ChunkIter) Err() error { return it.err }

// Close releases the iterator's decoder; safe to call more than once.
func (it *ChunkIter) Close() {
	if it.d != nil {
		putDecoder(it.d)
		it.d = nil
	}
}

// Fixed is the set of element types Items can view raw bytes as.
type Fixed interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// Items reinterprets little-endian item bytes as a []T without copying
// when b is suitably aligned (decoder output buffers are), copying
// otherwise. len(b) must be a multiple of sizeof(T). The result aliases b.
func Items[T Fixed](b []byte) []T {
	var z T
	sz := int(unsafe.Sizeof(z))
	n := len(b) / sz
	if n == 0 {
		return nil
	}
	if uintptr(unsafe.Pointer(&b[0]))%unsafe.Alignof(z) != 0 {
		out := make([]T, n)
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), n*sz), b)
		return out
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}

// ReadItems1D decodes items [start, start+n) of a 1-D array into dst
// sequentially with d (nil: a pooled Decoder), decompressing only the
// blocks that hold them — what a scan that skips blocks by their SUMMARY
// index uses.
func (a *Array) ReadItems1D(d *Decoder, dst []byte, start int64, n int) error {
	if a.NDim() != 1 {
		return fmt.Errorf("b2: %s: ReadItems1D on a %d-d array", a.Frame.name, a.NDim())
	}
	stop := start + int64(n)
	if start < 0 || n < 0 || stop > a.Meta.Shape[0] {
		return fmt.Errorf("b2: %s: items [%d, %d) outside shape %v", a.Frame.name, start, stop, a.Meta.Shape)
	}
	if len(dst) < n*a.itemsize {
		return shortDst(len(dst), n*a.itemsize)
	}
	if n == 0 {
		return nil
	}
	if d == nil {
		d = getDecoder()
		defer putDecoder(d)
	}
	cs := int64(a.Meta.ChunkShape[0])
	lo, hi := []int64{start}, []int64{stop}
	for c := start / cs; c <= (stop-1)/cs; c++ {
		if err := a.readChunkPart(d, nil, []int64{c}, lo, hi, dst); err != nil {
			return err
		}
	}
	return nil
}
