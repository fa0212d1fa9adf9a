package b2

// Partly read blocks, kept for the next read.
//
// A scan reads a column in batches of rows (8192 in ctable) while the
// writer chose the blocks: python-blosc2 writes blocks of tens of
// thousands of rows, so every batch covers part of a block and, without a
// cache, each batch decoded the whole block again to keep its part: a
// block of 32,768 rows was decompressed four times. The Decoder keeps the
// last block it decoded partly, per frame (a scan reads several columns
// in turn), and serves the following reads of that block from it.

// blockCacheSlots bounds the frames whose last partial block a Decoder
// keeps: one per column a scan reads (plus masks), reused least recently
// used first.
const blockCacheSlots = 8

type cachedBlock struct {
	f     *Frame // nil: empty slot
	chunk int
	off   int // payload offset of the block in its chunk
	data  []byte
	used  uint64
}

// cacheKey names the chunk rangeOf is decoding, so that copyBlockPart can
// keep a partly used block; f is nil when the caller does not cache.
type cacheKey struct {
	f     *Frame
	chunk int
}

// fromCache copies the parts of payload range [off, off+len(dst)) of chunk
// k that cached blocks hold, at its start and at its end, and returns the
// range left to decode (dst shrunk accordingly).
func (d *Decoder) fromCache(k cacheKey, off int, dst []byte) (int, []byte) {
	for again := true; again && len(dst) > 0; {
		again = false
		for i := range d.cache {
			s := &d.cache[i]
			if s.f != k.f || s.chunk != k.chunk || len(s.data) == 0 {
				continue
			}
			lo, hi := s.off, s.off+len(s.data)
			end := off + len(dst)
			switch {
			case off >= lo && off < hi: // the start
				n := copy(dst, s.data[off-lo:])
				off, dst = off+n, dst[n:]
			case end > lo && end <= hi && off < lo: // the end
				copy(dst[lo-off:], s.data[:end-lo])
				dst = dst[:lo-off]
			default:
				continue
			}
			d.tick++
			s.used = d.tick
			again = true
		}
	}
	return off, dst
}

// cacheSlot returns the buffer to decode block [off, off+n) of chunk k
// into, keeping it for fromCache: the slot that held the frame's previous
// block, else an empty or the least recently used one.
func (d *Decoder) cacheSlot(k cacheKey, off, n int) []byte {
	if len(d.cache) == 0 {
		d.cache = make([]cachedBlock, blockCacheSlots)
	}
	victim := 0
	for i := range d.cache {
		s := &d.cache[i]
		if s.f == k.f {
			victim = i
			break
		}
		if s.used < d.cache[victim].used {
			victim = i
		}
	}
	s := &d.cache[victim]
	d.tick++
	s.f, s.chunk, s.off, s.used = k.f, k.chunk, off, d.tick
	s.data = grow(s.data, n)
	return s.data
}

// dropCached forgets a slot whose decode failed, so that a later read
// decodes again (and reports the error again) instead of serving garbage.
func (d *Decoder) dropCached(k cacheKey) {
	for i := range d.cache {
		if d.cache[i].f == k.f {
			d.cache[i] = cachedBlock{data: d.cache[i].data[:0]}
		}
	}
}
