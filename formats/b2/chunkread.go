package b2

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"
)

// Reading stored chunk bytes with pread.
//
// A frame opened from a file (Open, NewFileFrame) reads what a decode needs
// with pread into the Decoder's buffer: the chunk header and block starts,
// then only the blocks that hold the requested payload range. The mapping
// still serves the frame header, the offsets and the metadata (small, read
// once), but never chunk data, because every page a decode touches through
// a MAP_SHARED mapping stays in the process's resident set until it is
// unmapped or dropped with madvise, and each fault maps up to 64 KiB of
// neighbouring pages as well (fault-around). A scan that reads a chunk in
// parts, on several workers, therefore kept a part of every chunk resident
// however it dropped pages: `SELECT sum(price) … WHERE region = 3` over
// 100M rows peaked at 150–190 MB, 85 MB of it pages of price.b2nd. pread
// copies the bytes once, as the fault did, and the process keeps only its
// buffers: one chunk per Decoder at most.

// chunkFile is where a frame's stored bytes can be read with pread: byte k
// of the frame is byte base+k of ra.
type chunkFile struct {
	ra   io.ReaderAt
	base int64
	// ahead reads a remote frame's chunk bytes ahead of a scan
	// (readahead.go); nil for a local file.
	ahead *aheadFrame
}

// headGuess is the size of the first read of a chunk: the header and the
// starts of up to 120 blocks, so that one read usually gives the prefix.
const headGuess = 512

// loadChunk returns chunk i, parsed, holding at least the stored bytes that
// decoding payload bytes [off, off+n) needs (n < 0: the whole chunk). From
// a file the bytes are read into d's buffer and valid until d loads another
// chunk; otherwise the chunk aliases the frame's bytes. Errors name the
// frame, the chunk and its offset.
func (f *Frame) loadChunk(d *Decoder, i, off, n int) (chunk, error) {
	c, err := f.loadChunkBytes(d, i, off, n)
	c.ndBlock = f.ndBlock
	return c, err
}

// loadChunkBytes is loadChunk without the array geometry.
func (f *Frame) loadChunkBytes(d *Decoder, i, off, n int) (chunk, error) {
	if i >= 0 && i < f.nchunks && f.ChunkOffset(i) < 0 {
		// A special offset: the header it stands for is synthesized into
		// d, not allocated, since a frame of a few hundred bytes can name
		// millions of such chunks (b2nd_zeros writes one offset for all).
		d.spec = putSpecialChunk(d.spec[:0], f.specialOf(i))
		c, err := parseChunk(d.spec)
		if err != nil {
			return c, chunkError(f.name, i, f.chunkPos(i), err)
		}
		return c, nil
	}
	if f.file == nil || f.dir != "" || i < 0 || i >= f.nchunks {
		// Bytes in memory, sparse chunk files (read whole by ChunkData)
		// and out-of-range numbers (ChunkData's error).
		src, err := f.ChunkData(i)
		if err != nil {
			return chunk{}, err
		}
		c, err := parseChunk(src)
		if err != nil {
			return c, chunkError(f.name, i, f.chunkPos(i), err)
		}
		return c, nil
	}
	pos := int64(f.Header.HeaderLen) + f.ChunkOffset(i)
	avail := int64(f.Header.HeaderLen) + f.Header.Cbytes - pos // checkOffset: ≥ minHeaderLen
	var ra io.ReaderAt = f.file
	if d.scattered {
		ra = f.file.ra // not noted by the read-ahead
	}
	k := cacheKey{f, i}
	c, err := d.readChunk(ra, f.file.base+pos, avail, off, n, k)
	if err == nil && f.Header.Chunksize > 0 {
		if want, _ := f.ChunkNbytes(i); c.Nbytes != want {
			err = corruptf("nbytes %d, frame geometry says %d", c.Nbytes, want)
		}
	}
	if err != nil {
		d.heads.drop(k)
		return c, chunkError(f.name, i, pos, err)
	}
	return c, nil
}

// readChunk reads the chunk stored at byte at of ra (at most avail bytes
// long): all of it into d.cbuf when n < 0 or the chunk is special,
// VL-blocks or empty; otherwise its prefix (header, block starts,
// dictionary) into d.cbuf and only the blocks that decoding payload bytes
// [off, off+n) needs into d.win, which the returned chunk reads its
// streams from. The window ends where the needed blocks end, so a corrupt
// stream size runs into the bounds checks, not into stale bytes; and a
// Decoder holds at most the prefix and the blocks it reads, never a whole
// chunk of tens of megabytes that a scan would fault in page by page.
// The prefix read last for k's frame is kept (headcache.go) and not read
// again while the reads stay in chunk k.
func (d *Decoder) readChunk(ra io.ReaderAt, at, avail int64, off, n int, k cacheKey) (chunk, error) {
	head := int(min(avail, headGuess))
	kept, ends := d.heads.get(k)
	if kept != nil {
		head = len(kept)
		d.cbuf = grow(d.cbuf, head)
		copy(d.cbuf, kept)
	} else {
		d.cbuf = grow(d.cbuf, head)
		if err := readFull(ra, d.cbuf, at); err != nil {
			return chunk{}, err
		}
	}
	h, err := parseChunkHeader(d.cbuf, avail)
	if err != nil {
		return chunk{}, err
	}
	cb := h.Cbytes
	have := min(head, cb) // d.cbuf[:have] is read
	defer func() { d.heads.put(k, d.cbuf[:have], ends) }()
	// prefix makes d.cbuf[:hi] present, reading only what is not yet.
	prefix := func(hi int) error {
		hi = min(hi, cb)
		if hi <= have {
			return nil
		}
		if cap(d.cbuf) < hi {
			buf := make([]byte, hi, max(hi, min(cb, 2*cap(d.cbuf))))
			copy(buf, d.cbuf[:have])
			d.cbuf = buf
		}
		d.cbuf = d.cbuf[:hi]
		err := readFull(ra, d.cbuf[have:hi], at+int64(have))
		have = hi
		return err
	}
	// window reads stored bytes [lo, hi) into d.win as c's window.
	window := func(c *chunk, lo, hi int) error {
		lo, hi = max(lo, 0), min(hi, cb)
		if lo > hi {
			lo = hi
		}
		if hi <= have {
			// Read with the prefix (a small chunk comes whole).
			c.win, c.winLo = d.cbuf[lo:hi:hi], lo
			return nil
		}
		d.win = grow(d.win, hi-lo)
		c.win, c.winLo = d.win[:hi-lo], lo
		return readFull(ra, c.win, at+int64(lo))
	}
	whole := n < 0 || h.Special() != SpecialNone || h.VLBlocks() || h.Nbytes == 0 ||
		off < 0 || off > h.Nbytes || n > h.Nbytes-off
	if whole {
		if err := prefix(cb); err != nil {
			return chunk{}, err
		}
		return parseChunk(d.cbuf[:cb])
	}
	if h.Memcpyed() {
		c, err := parseChunkBody(h, d.cbuf[:have], false) // reads only the header
		if err == nil {
			err = window(&c, h.HeaderLen+off, h.HeaderLen+off+n)
		}
		return c, err
	}
	// Prefix: block starts, then the dictionary (its size first). Sizes
	// past the chunk are cut at cb; parseChunkBody then reports them.
	nb := h.NBlocks()
	pre := min(cb, h.HeaderLen+4*nb)
	if nb > cb/4 {
		pre = cb // a block count no chunk can hold: parseChunk rejects it
	}
	if h.HasDict() && pre+4 <= cb {
		if err := prefix(pre + 4); err != nil {
			return chunk{}, err
		}
		dsize := int(int32(binary.LittleEndian.Uint32(d.cbuf[pre:])))
		pre = min(cb, pre+4+max(dsize, 0))
	}
	if err := prefix(pre); err != nil {
		return chunk{}, err
	}
	c, err := parseChunkBody(h, d.cbuf[:max(pre, min(have, cb))], len(ends) > 0)
	if err != nil || n == 0 || c.nblocks == 0 {
		return c, err
	}
	if len(ends) == 0 {
		// The first read of this chunk's prefix: where each block ends,
		// for this read and the next ones (kept with the prefix).
		d.ends, d.order = c.blockEnds(d.ends[:0], d.order[:0])
		ends = d.ends
	}
	lo, hi := c.blockSpan(off/c.Blocksize, (off+n-1)/c.Blocksize, ends)
	return c, window(&c, lo, hi)
}

// blockEnds appends to ends, for each block, where its stored bytes end:
// the lowest block start above its own, or the chunk's end (blocks never
// overlap). order is scratch for the starts sorted.
func (c *chunk) blockEnds(ends []int32, order []uint64) ([]int32, []uint64) {
	for b := 0; b < c.nblocks; b++ {
		order = append(order, uint64(c.bstart(b))<<32|uint64(b))
	}
	slices.Sort(order)
	ends = slices.Grow(ends, c.nblocks)[:c.nblocks]
	end := c.Cbytes
	for i := len(order) - 1; i >= 0; i-- {
		if i+1 < len(order) && order[i+1]>>32 > order[i]>>32 {
			end = int(order[i+1] >> 32)
		}
		ends[uint32(order[i])] = int32(end)
	}
	return ends, order
}

// blockSpan returns the stored byte range that holds blocks first..last
// (and block 0 when DELTA decodes the others against it): from the lowest
// of their starts to the next block start above the highest one, or the
// chunk's end. Blocks never overlap, so every stream of those blocks lies
// inside, whatever order the blocks are stored in. A multi-threaded writer
// (c-blosc2 with nthreads > 1, python-blosc2 by default) stores blocks in
// the order its threads finish them, so block 0 may sit after the others:
// it takes part in the highest start as well as in the lowest.
func (c *chunk) blockSpan(first, last int, ends []int32) (lo, hi int) {
	last = min(last, c.nblocks-1)
	if ends != nil {
		// Each block's end known (blockEnds): the highest of them.
		lo = c.Cbytes
		span := func(b int) {
			lo, hi = min(lo, c.bstart(b)), max(hi, int(ends[b]))
		}
		for b := first; b <= last; b++ {
			span(b)
		}
		if first > 0 && c.hasDelta() {
			span(0)
		}
		return lo, hi
	}
	lo, top := c.Cbytes, 0
	span := func(b int) {
		s := c.bstart(b)
		lo, top = min(lo, s), max(top, s)
	}
	for b := first; b <= last; b++ {
		span(b)
	}
	if first > 0 && c.hasDelta() {
		span(0)
	}
	hi = c.Cbytes
	for b := 0; b < c.nblocks; b++ {
		if s := c.bstart(b); s > top && s < hi {
			hi = s
		}
	}
	return lo, hi
}

// readFull reads len(buf) bytes at off; a short read means the file ends
// inside the chunk (truncated or replaced under us).
func readFull(ra io.ReaderAt, buf []byte, off int64) error {
	k, err := ra.ReadAt(buf, off)
	if k == len(buf) {
		return nil
	}
	if err == nil || err == io.EOF {
		return corruptf("file ends at byte %d, inside a chunk that needs [%d, %d)", off+int64(k), off, off+int64(len(buf)))
	}
	return fmt.Errorf("reading bytes [%d, %d): %w", off, off+int64(len(buf)), err)
}

// ReadChunkData returns the stored bytes of chunk i, as ChunkData does, but
// from a file-backed frame it reads them with pread into buf (grown when
// too small) instead of aliasing the mapping. Writers that copy an old
// version's chunks into a new one use it: copying through the mapping
// would leave every page of the old file in the process's resident set,
// so appending three rows to a 760 MB table peaked at 900 MB. The result
// is valid until buf is reused.
func (f *Frame) ReadChunkData(i int, buf []byte) ([]byte, error) {
	if f.file == nil || f.dir != "" || i < 0 || i >= f.nchunks || f.ChunkOffset(i) < 0 {
		return f.ChunkData(i)
	}
	cb, err := f.ChunkCbytes(i) // reads only the header; cbytes fits the chunk area
	if err != nil {
		return nil, err
	}
	pos := int64(f.Header.HeaderLen) + f.ChunkOffset(i)
	buf = grow(buf, cb)
	if err := readFull(f.file, buf, f.file.base+pos); err != nil {
		return nil, chunkError(f.name, i, pos, err)
	}
	h, err := ParseChunkHeader(buf)
	if err == nil && f.Header.Chunksize > 0 {
		if want, _ := f.ChunkNbytes(i); h.Nbytes != want {
			err = corruptf("nbytes %d, frame geometry says %d", h.Nbytes, want)
		}
	}
	if err != nil {
		return nil, chunkError(f.name, i, pos, err)
	}
	return buf, nil
}
