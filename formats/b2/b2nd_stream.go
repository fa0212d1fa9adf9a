package b2

import (
	"errors"
	"fmt"
	"math"
)

// NDWriter streams an N-dimensional b2nd array to a file chunk by chunk,
// so the array never has to be in memory. Data arrive either as whole
// chunks (WriteChunk) or as C-order rows along the first dimension
// (Append); one writer uses one of the two. Chunks are laid out exactly as
// c-blosc2's b2nd does (blocks in C order inside a chunk padded to whole
// blocks, edge chunks padded to the full chunk, padding zeroed) and stored
// in C order of their chunk coordinates. Compression runs on up to
// GOMAXPROCS workers, one chunk per worker.
//
// Memory, beyond codec state, the file writer's 1 MiB buffer and the
// chunk offsets (8 bytes per chunk):
//
//   - WriteChunk: one padded chunk and one compressed chunk per worker.
//   - Append: the same, plus a buffer of unpadded input rows holding one
//     group of k = max(1, ⌈workers / chunks per chunk-row⌉) chunk-rows,
//     where a chunk-row is ChunkShape()[0] rows of the whole array
//     (ChunkShape()[0] × prod(shape[1:]) items): a chunk can only be
//     emitted once every row it covers is known. For an array whose
//     trailing dimensions are large, that chunk-row is the bound, however
//     small the chunks. When one call brings at least a group of whole
//     chunk-rows (or the final rows), they are compressed straight from
//     the caller's slice without being copied.
//
// The file is written to a temporary name in the same directory and
// renamed into place by Close, so readers never see a partial array;
// Abort (or any failed Close) removes it. An NDWriter is not safe for
// concurrent use.
type NDWriter struct {
	fw    *FrameWriter
	meta  B2ndMeta // metalayer as written; Shape[0] patched by Close when it grows
	geom  Array    // chunk/block geometry (Frame unset)
	p     CParams
	isz   int
	grows bool  // shape[0] was -1: Close records the rows appended
	total int64 // chunks in the array (when !grows)

	mode int // 0 none yet, modeChunks or modeRows
	err  error

	// WriteChunk state: padded chunks waiting for a batch, next chunk index.
	next    int64
	pending int

	// Append state.
	rowItems int64  // items per row (prod(shape[1:]))
	crRows   int64  // rows per emitted group (k chunk-rows)
	rowsOut  int64  // rows already emitted as chunks
	buf      []byte // unpadded input rows [rowsOut, …)
	bufCap   int    // bytes of crRows rows

	encs []*Encoder
	bufs [][]byte // one padded chunk per worker
	outs [][]byte // one compressed chunk per worker
	// gather scratch, one per worker
	scr []gatherScratch
}

const (
	modeChunks = 1
	modeRows   = 2
)

// CreateArray starts a streaming b2nd writer for an array of the given
// NumPy dtype and shape. shape[0] may be -1 (only with at least one
// dimension) for an array that grows along its first dimension as rows
// are appended: Close then records the number of rows (the metalayer is
// rewritten in place, as c-blosc2's resize does). opts.ChunkShape and
// opts.BlockShape choose the tiling (nil: automatic, see ChunkShape and
// BlockShape for what was chosen); the other options are as for
// WriteArray.
func CreateArray(path, dtype string, shape []int64, opts *ArrayOptions) (*NDWriter, error) {
	var o ArrayOptions
	if opts != nil {
		o = *opts
	}
	dt, err := ParseDType(dtype)
	if err != nil {
		return nil, fmt.Errorf("b2: %w", err)
	}
	nd := len(shape)
	if nd > maxNDim {
		return nil, fmt.Errorf("b2: %d dimensions, at most %d", nd, maxNDim)
	}
	shape = append([]int64(nil), shape...)
	grows := nd > 0 && shape[0] == -1
	items := int64(1)
	for i, s := range shape {
		if i == 0 && grows {
			continue
		}
		if s < 0 || s > 0 && items > math.MaxInt64/s {
			return nil, fmt.Errorf("b2: bad shape %v", shape)
		}
		items *= s
	}
	if items > math.MaxInt64/int64(dt.ItemSize) {
		return nil, fmt.Errorf("b2: shape %v × %d bytes overflows", shape, dt.ItemSize)
	}
	p := o.cparams(dt)
	chunk, block := o.ChunkShape, o.BlockShape
	if chunk == nil || block == nil {
		auto := append([]int64(nil), shape...)
		if grows {
			auto[0] = math.MaxInt32
		}
		ac, ab := autoShapes(auto, dt.ItemSize, &p)
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
	chunk = append([]int(nil), chunk...)
	block = append([]int(nil), block...)
	m := B2ndMeta{Shape: shape, ChunkShape: chunk, BlockShape: block, DType: dtype}
	if err := validateShapes(m); err != nil {
		return nil, err
	}
	// Geometry is computed on a shape whose growing dimension holds one
	// chunk; the chunk-rows are then counted as rows arrive.
	gm := m
	gm.Shape = append([]int64(nil), shape...)
	if grows {
		gm.Shape[0] = int64(chunk[0])
		m.Shape[0] = 0 // what the file says until Close
	}
	w := &NDWriter{meta: m, p: p, isz: dt.ItemSize, grows: grows}
	w.geom = Array{Meta: gm, DType: dt, itemsize: dt.ItemSize}
	w.total, err = w.geom.computeGeometry()
	if err != nil {
		return nil, fmt.Errorf("b2: %w", err)
	}
	w.rowItems = 1
	for _, s := range shape[min(1, nd):] {
		if s > 0 && w.rowItems > math.MaxInt64/int64(w.isz)/s {
			return nil, fmt.Errorf("b2: shape %v × %d bytes overflows", shape, w.isz)
		}
		w.rowItems *= s
	}
	if nd > 0 {
		perRow := int64(1)
		for _, g := range w.geom.chunkGrid[1:] {
			perRow *= g
		}
		k := int64(1)
		if perRow > 0 {
			k = max(1, (int64(workerCount(math.MaxInt32))+perRow-1)/perRow)
		}
		w.crRows = k * int64(chunk[0])
		if !grows {
			w.crRows = min(w.crRows, max(shape[0], 1))
		}
		if w.rowItems > 0 && w.crRows > math.MaxInt/(w.rowItems*int64(w.isz)) {
			return nil, fmt.Errorf("b2: a chunk-row of shape %v, chunkshape %v does not fit in memory", shape, chunk)
		}
		w.bufCap = int(w.crRows * w.rowItems * int64(w.isz))
	}
	chunkBytes := w.geom.chunkItems * w.isz
	w.p.Blocksize = w.geom.blockItems * w.isz
	w.fw, err = CreateFrame(path, &FrameOptions{CParams: &w.p, Chunksize: chunkBytes, Blocksize: w.p.Blocksize,
		Meta: append([]Metalayer{{Name: "b2nd", Content: m.Encode()}}, o.Meta...), VLMeta: o.VLMeta})
	if err != nil {
		return nil, err
	}
	n := workerCount(math.MaxInt32)
	w.encs = make([]*Encoder, n)
	for i := range w.encs {
		w.encs[i] = encoderPool.Get().(*Encoder)
	}
	w.bufs = make([][]byte, n)
	w.outs = make([][]byte, n)
	w.scr = make([]gatherScratch, n)
	return w, nil
}

// ChunkShape returns the chunk shape in use; do not modify it.
func (w *NDWriter) ChunkShape() []int { return w.meta.ChunkShape }

// BlockShape returns the block shape in use; do not modify it.
func (w *NDWriter) BlockShape() []int { return w.meta.BlockShape }

// NChunks returns the number of chunks per dimension (the chunk grid
// WriteChunk coordinates live in). For a growing array the first entry
// counts the chunk-rows emitted so far.
func (w *NDWriter) NChunks() []int64 {
	g := append([]int64(nil), w.geom.chunkGrid...)
	if w.grows {
		g[0] = (w.rowsOut + int64(w.meta.ChunkShape[0]) - 1) / int64(w.meta.ChunkShape[0])
	}
	return g
}

// WriteChunk writes the chunk at chunk-grid coordinates coords. data is the
// chunk's logical content in C order, without padding: for a chunk
// starting at element coords[d]×chunkshape[d] it holds
// prod(min(chunkshape[d], shape[d] - start[d])) items. Chunks must come in
// C order of their coordinates (the order c-blosc2 stores them), each
// exactly once; data may be reused as soon as WriteChunk returns. Not
// available for a growing array or after Append.
func (w *NDWriter) WriteChunk(coords []int64, data []byte) error {
	if w.err != nil {
		return w.err
	}
	if w.mode == modeRows {
		return errors.New("b2: WriteChunk after Append on the same NDWriter")
	}
	if w.grows {
		return errors.New("b2: WriteChunk needs a fixed shape (shape[0] is -1)")
	}
	w.mode = modeChunks
	g := &w.geom
	nd := len(g.Meta.Shape)
	if len(coords) != nd {
		return fmt.Errorf("b2: chunk coordinates %v have %d dims, array has %d", coords, len(coords), nd)
	}
	lin := int64(0)
	items := int64(1)
	org := make([]int64, nd)
	box := make([]int64, nd)
	for i, c := range coords {
		if c < 0 || c >= g.chunkGrid[i] {
			return fmt.Errorf("b2: chunk coordinates %v outside the chunk grid %v", coords, g.chunkGrid)
		}
		lin = lin*g.chunkGrid[i] + c
		cs := int64(g.Meta.ChunkShape[i])
		org[i] = c * cs
		box[i] = min(cs, g.Meta.Shape[i]-org[i])
		items *= box[i]
	}
	if lin != w.next {
		return fmt.Errorf("b2: chunk %v (number %d) out of order: chunks go in C order, next is number %d", coords, lin, w.next)
	}
	if int64(len(data)) != items*int64(w.isz) {
		return fmt.Errorf("b2: chunk %v has %d bytes, its %v items × %d need %d", coords, len(data), box, w.isz, items*int64(w.isz))
	}
	j := w.pending
	w.bufs[j] = grow(w.bufs[j], g.chunkItems*w.isz)
	g.gatherChunk(w.bufs[j], coords, g.Meta.Shape, data, org, box, &w.scr[0])
	w.pending++
	w.next++
	if w.pending == len(w.bufs) {
		return w.flushPending()
	}
	return nil
}

// flushPending compresses the padded chunks gathered by WriteChunk and
// appends them in order.
func (w *NDWriter) flushPending() error {
	n := w.pending
	w.pending = 0
	if n == 0 {
		return nil
	}
	w.err = w.compressBatches(n, func(j, i int) []byte { return w.bufs[i] })
	return w.err
}

// Append adds C-order items continuing the array along its first
// dimension (len a multiple of the item size; rows may be split across
// calls anywhere between items). Chunks are compressed and written as
// soon as every row they cover has arrived. data may be reused as soon as
// Append returns. For a 0-d array Append takes the single item.
func (w *NDWriter) Append(data []byte) error {
	if w.err != nil {
		return w.err
	}
	if len(w.meta.Shape) == 0 {
		if w.next > 0 || len(data) != w.isz {
			return fmt.Errorf("b2: a 0-d array takes one %d-byte item", w.isz)
		}
		return w.WriteChunk(nil, data)
	}
	if w.mode == modeChunks {
		return errors.New("b2: Append after WriteChunk on the same NDWriter")
	}
	w.mode = modeRows
	if len(data)%w.isz != 0 {
		return fmt.Errorf("b2: %d bytes is not a whole number of %d-byte items", len(data), w.isz)
	}
	if len(data) == 0 {
		return nil
	}
	rowBytes := w.rowItems * int64(w.isz)
	if rowBytes == 0 {
		return fmt.Errorf("b2: shape %v has no items", w.meta.Shape)
	}
	if have := int64(len(w.buf)) + int64(len(data)); !w.grows && have > (w.meta.Shape[0]-w.rowsOut)*rowBytes {
		return fmt.Errorf("b2: appending past the end of shape %v", w.meta.Shape)
	}
	for len(data) > 0 {
		if len(w.buf) == 0 {
			// At least one group (so that all workers get a chunk) of
			// whole chunk-rows straight from the caller's slice, or the
			// final rows of a fixed shape.
			rows := int64(len(data)) / rowBytes
			full := rows / int64(w.meta.ChunkShape[0]) * int64(w.meta.ChunkShape[0])
			if full < w.crRows {
				full = 0
			}
			if !w.grows && w.rowsOut+rows == w.meta.Shape[0] && int64(len(data))%rowBytes == 0 {
				full = rows
			}
			if full > 0 {
				n := full * rowBytes
				if err := w.emitRows(data[:n], full, w.rowsOut+full); err != nil {
					return err
				}
				data = data[n:]
				continue
			}
		}
		if len(w.buf) == cap(w.buf) && cap(w.buf) < w.bufCap {
			// Grow towards one group so tiny arrays keep tiny buffers.
			nb := make([]byte, len(w.buf), min(w.bufCap, max(2*cap(w.buf), len(w.buf)+len(data))))
			copy(nb, w.buf)
			w.buf = nb
		}
		k := copy(w.buf[len(w.buf):cap(w.buf)], data)
		w.buf = w.buf[:len(w.buf)+k]
		data = data[k:]
		if len(w.buf) == w.bufCap {
			rows := int64(len(w.buf)) / rowBytes
			if err := w.emitRows(w.buf, rows, w.rowsOut+rows); err != nil {
				return err
			}
			w.buf = w.buf[:0]
		}
	}
	return nil
}

// emitRows compresses and writes the chunks covering rows
// [rowsOut, rowsOut+rows), held C-order in src; end is the array's extent
// along dimension 0 as far as these chunks are concerned.
func (w *NDWriter) emitRows(src []byte, rows, end int64) error {
	g := &w.geom
	nd := len(g.Meta.Shape)
	cs0 := int64(g.Meta.ChunkShape[0])
	r0 := w.rowsOut
	first := r0 / cs0
	last := (r0 + rows + cs0 - 1) / cs0
	perRow := int64(1)
	for _, c := range g.chunkGrid[1:] {
		perRow *= c
	}
	count := (last - first) * perRow
	lim := append([]int64(nil), g.Meta.Shape...)
	lim[0] = end
	org := make([]int64, nd)
	org[0] = r0
	box := append([]int64(nil), g.Meta.Shape...)
	box[0] = rows
	chunkBytes := g.chunkItems * w.isz
	err := w.compressBatches(int(count), func(j, i int) []byte {
		s := &w.scr[j]
		if len(s.cc) != nd {
			s.cc = make([]int64, nd)
		}
		k := int64(i)
		for d := nd - 1; d >= 1; d-- {
			s.cc[d] = k % g.chunkGrid[d]
			k /= g.chunkGrid[d]
		}
		s.cc[0] = first + k
		if nd == 1 {
			// A 1-D chunk without padding is the input itself.
			co := s.cc[0] * cs0
			if n := int64(g.extChunk[0]); n == cs0 && co+n <= end {
				return src[(co-r0)*int64(w.isz) : (co-r0+n)*int64(w.isz)]
			}
		}
		w.bufs[j] = grow(w.bufs[j], chunkBytes)
		g.gatherChunk(w.bufs[j], s.cc, lim, src, org, box, s)
		return w.bufs[j]
	})
	if err != nil {
		w.err = err
		return err
	}
	w.rowsOut += rows
	return nil
}

// compressBatches compresses n chunks produced by src(worker, i) in
// batches of one chunk per worker and appends them to the frame in order.
func (w *NDWriter) compressBatches(n int, src func(j, i int) []byte) error {
	workers := len(w.encs)
	for base := 0; base < n; base += workers {
		k := min(workers, n-base)
		err := parallelFor(k, func(_, j int) error {
			var err error
			w.outs[j], err = w.encs[j].Compress(w.outs[j], src(j, base+j), &w.p)
			return err
		})
		if err != nil {
			return err
		}
		for j := 0; j < k; j++ {
			if err := w.fw.AppendChunk(w.outs[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

// SetVLMeta adds or replaces a variable-length metalayer of the array's
// frame, written with its trailer on Close.
func (w *NDWriter) SetVLMeta(name string, content []byte) error {
	return w.fw.SetVLMeta(name, content)
}

// Close writes the chunks still buffered, checks that the whole array was
// written, records the final shape of a growing array and renames the file
// into place. On any error the partial file is removed. Closing again, or
// after Abort, does nothing.
func (w *NDWriter) Close() error {
	if w.encs == nil {
		return nil // already closed or aborted
	}
	err := w.finish()
	w.release()
	if err != nil {
		w.fw.Abort()
		return err
	}
	return w.fw.Close()
}

func (w *NDWriter) finish() error {
	if w.err != nil {
		return w.err
	}
	nd := len(w.meta.Shape)
	switch {
	case w.mode == modeRows || nd > 0 && w.mode == 0:
		rowBytes := w.rowItems * int64(w.isz)
		if len(w.buf) > 0 {
			if int64(len(w.buf))%rowBytes != 0 {
				return fmt.Errorf("b2: %d items appended end inside a row of %d items", w.rowsOut*w.rowItems+int64(len(w.buf)/w.isz), w.rowItems)
			}
			rows := int64(len(w.buf)) / rowBytes
			end := w.rowsOut + rows
			if !w.grows && end != w.meta.Shape[0] {
				return fmt.Errorf("b2: closed after %d of %d rows", end, w.meta.Shape[0])
			}
			if err := w.emitRows(w.buf, rows, end); err != nil {
				return err
			}
			w.buf = w.buf[:0]
		}
		if w.grows {
			w.meta.Shape[0] = w.rowsOut
			return w.fw.UpdateMeta("b2nd", w.meta.Encode())
		}
		if w.rowsOut != w.meta.Shape[0] && w.rowItems > 0 {
			return fmt.Errorf("b2: closed after %d of %d rows", w.rowsOut, w.meta.Shape[0])
		}
		return nil
	default:
		if err := w.flushPending(); err != nil {
			return err
		}
		if w.next != w.total {
			return fmt.Errorf("b2: closed after %d of %d chunks", w.next, w.total)
		}
		return nil
	}
}

// Abort discards the partial file. Safe after Close.
func (w *NDWriter) Abort() error {
	w.release()
	return w.fw.Abort()
}

func (w *NDWriter) release() {
	if w.err == nil {
		w.err = errors.New("b2: NDWriter is closed")
	}
	for i, e := range w.encs {
		encoderPool.Put(e)
		w.encs[i] = nil
	}
	w.encs = nil
	w.bufs, w.outs, w.buf = nil, nil, nil
}

// gatherScratch holds per-worker index vectors for gatherChunk.
type gatherScratch struct {
	cc, co, hi, bo, bhi, idx []int64
	bc                       []int
}

func (s *gatherScratch) init(nd int) {
	if len(s.co) == nd {
		return
	}
	s.co, s.hi, s.bo, s.bhi, s.idx = make([]int64, nd), make([]int64, nd), make([]int64, nd), make([]int64, nd), make([]int64, nd)
	s.bc = make([]int, nd)
}

// gatherChunk fills dst (one padded chunk) with chunk cc in c-blosc2's
// block-major layout. Elements inside both the chunk and lim (the array
// extent) come from src, a C-order box of shape box whose first element
// sits at org and which must contain them; everything else is zero.
func (a *Array) gatherChunk(dst []byte, cc, lim []int64, src []byte, org, box []int64, s *gatherScratch) {
	m := &a.Meta
	nd := len(m.Shape)
	isz := int64(a.itemsize)
	dst = dst[:a.chunkItems*a.itemsize]
	if nd == 0 {
		copy(dst, src)
		return
	}
	s.init(nd)
	co, hi := s.co, s.hi
	for i := 0; i < nd; i++ {
		co[i] = cc[i] * int64(m.ChunkShape[i])
		hi[i] = min(lim[i], co[i]+int64(m.ChunkShape[i]))
	}
	if nd == 1 {
		// 1-D chunks are the items in order followed by padding.
		n := copy(dst, src[(co[0]-org[0])*isz:(hi[0]-org[0])*isz])
		clear(dst[n:])
		return
	}
	full := true
	for i := 0; i < nd; i++ {
		full = full && hi[i]-co[i] == int64(a.extChunk[i])
	}
	if !full {
		clear(dst) // padding must be zeros, as c-blosc2 writes it
	}
	bc, bo, bhi, idx := s.bc, s.bo, s.bhi, s.idx
	clear(bc)
	blockBytes := int64(a.blockItems) * isz
	for nblock := int64(0); ; nblock++ {
		empty := false
		for i := 0; i < nd; i++ {
			bo[i] = co[i] + int64(bc[i]*m.BlockShape[i])
			bhi[i] = min(hi[i], bo[i]+int64(m.BlockShape[i]))
			if bo[i] >= bhi[i] {
				empty = true // a block of padding only
			}
		}
		if !empty {
			// Trailing dimensions the block spans fully both in its own
			// layout and in src form one contiguous run.
			d := nd - 1
			run := bhi[d] - bo[d]
			for d > 0 && bhi[d]-bo[d] == int64(m.BlockShape[d]) && bhi[d]-bo[d] == box[d] {
				d--
				run *= bhi[d] - bo[d]
			}
			run *= isz
			copy(idx, bo)
			base := dst[nblock*blockBytes:]
			for {
				var so, do int64
				for i := 0; i < nd; i++ {
					do = do*int64(m.BlockShape[i]) + idx[i] - bo[i]
					so = so*box[i] + idx[i] - org[i]
				}
				copy(base[do*isz:do*isz+run], src[so*isz:])
				i := d - 1
				for ; i >= 0; i-- {
					idx[i]++
					if idx[i] < bhi[i] {
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
