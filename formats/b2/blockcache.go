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

// blockCache is a Decoder's partly read blocks: blockCacheSlots slots,
// reused least recently used first.
type blockCache struct {
	slots []cachedBlock
	tick  uint64
}

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

// copyFrom copies the parts of payload range [off, off+len(dst)) of chunk
// k that cached blocks hold, at its start and at its end, and returns the
// range left to decode (dst shrunk accordingly).
func (c *blockCache) copyFrom(k cacheKey, off int, dst []byte) (int, []byte) {
	for again := true; again && len(dst) > 0; {
		again = false
		for i := range c.slots {
			s := &c.slots[i]
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
			c.tick++
			s.used = c.tick
			again = true
		}
	}
	return off, dst
}

// slot returns the buffer to decode block [off, off+n) of chunk k
// into, keeping it for copyFrom and view: the slot that held the frame's previous
// block, else an empty or the least recently used one.
func (c *blockCache) slot(k cacheKey, off, n int) []byte {
	if len(c.slots) == 0 {
		c.slots = make([]cachedBlock, blockCacheSlots)
	}
	s := &c.slots[victimSlot(c.slots, k.f)]
	c.tick++
	s.f, s.chunk, s.off, s.used = k.f, k.chunk, off, c.tick
	s.data = grow(s.data, n)
	return s.data
}

// drop forgets a slot whose decode failed, so that a later read
// decodes again (and reports the error again) instead of serving garbage.
func (c *blockCache) drop(k cacheKey) {
	for i := range c.slots {
		if c.slots[i].f == k.f {
			c.slots[i] = cachedBlock{data: c.slots[i].data[:0]}
		}
	}
}

// view returns payload bytes [off, off+n) of chunk k from a cached
// block that holds all of them, or nil.
func (c *blockCache) view(k cacheKey, off, n int) []byte {
	for i := range c.slots {
		s := &c.slots[i]
		if s.f != k.f || s.chunk != k.chunk || off < s.off || off+n > s.off+len(s.data) {
			continue
		}
		c.tick++
		s.used = c.tick
		return s.data[off-s.off : off-s.off+n : off-s.off+n]
	}
	return nil
}

func (s *cachedBlock) frameUse() (*Frame, uint64) { return s.f, s.used }

// victimSlot is the slot of a cache (the block cache, the chunk-prefix
// cache) to fill for frame f: the one that holds f's previous entry, else
// the least recently used (an empty slot's use is 0).
func victimSlot[S any, P interface {
	*S
	frameUse() (*Frame, uint64)
}](slots []S, f *Frame) int {
	victim := 0
	_, oldest := P(&slots[0]).frameUse()
	for i := range slots {
		sf, used := P(&slots[i]).frameUse()
		if sf == f {
			return i
		}
		if used < oldest {
			victim, oldest = i, used
		}
	}
	return victim
}
