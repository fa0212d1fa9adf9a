package b2

// Chunk prefixes read from a file, kept for the next read of the chunk.
//
// A scan reads a column a block at a time (8192 rows), and every read of a
// block from a file first needs its chunk's prefix: the header, the block
// starts and the dictionary (chunkread.go). Reading it again for each
// block made a pread per block and column on top of the block's own: a
// GROUP BY over four columns of the events .b2z (blocks of 8192 rows,
// chunks of 8 blocks) made 22,000 preads, half of them for 512-byte
// prefixes it had read a moment before, and a tenth of the query's CPU
// time was spent in the pread system call. The Decoder keeps the last
// prefix it read per frame; a chunk small enough to come whole with its
// prefix (the _valid_rows chunk of a table without deletions) is then read
// once per scan, not once per block.

// headKeep bounds the prefix a slot keeps: the header, the block starts
// of up to 16k blocks, or a small chunk whole. A prefix past it (a large
// dictionary, a whole chunk read for a full decode) is not kept, so that
// the slots never hold more than blockCacheSlots*headKeep bytes.
const headKeep = 64 << 10

// headCache holds blockCacheSlots chunk prefixes, one per frame, reused
// least recently used first.
type headCache struct {
	slots []cachedHead
	tick  uint64
}

type cachedHead struct {
	f     *Frame // nil: empty slot
	chunk int
	buf   []byte // stored bytes [0, len(buf)) of the chunk
	used  uint64
	// ends: where each block's stored bytes end (blockEnds), worked out
	// by the first read of the chunk, whose block starts then passed the
	// checks; empty until then.
	ends []int32
}

// get returns the kept prefix of chunk k (nil when there is none) and its
// blocks' ends (empty when not worked out yet).
func (h *headCache) get(k cacheKey) ([]byte, []int32) {
	for i := range h.slots {
		s := &h.slots[i]
		if s.f == k.f && s.chunk == k.chunk && s.f != nil {
			h.tick++
			s.used = h.tick
			return s.buf, s.ends
		}
	}
	return nil, nil
}

// put keeps a copy of prefix as chunk k's, in the slot of k's frame, else
// an empty or the least recently used one. Prefixes longer than headKeep
// are not kept (and the frame's slot is emptied: it holds another chunk).
// The ends are kept with it: copied when the slot held another chunk,
// left as they are when it held chunk k.
func (h *headCache) put(k cacheKey, prefix []byte, ends []int32) {
	if len(h.slots) == 0 {
		h.slots = make([]cachedHead, blockCacheSlots)
	}
	s := &h.slots[victimSlot(h.slots, k.f)]
	if len(prefix) > headKeep {
		*s = cachedHead{buf: s.buf[:0], ends: s.ends[:0]}
		return
	}
	if s.f != k.f || s.chunk != k.chunk || len(s.ends) == 0 {
		s.ends = append(s.ends[:0], ends...)
	}
	h.tick++
	s.f, s.chunk, s.used = k.f, k.chunk, h.tick
	s.buf = append(s.buf[:0], prefix...)
}

// drop forgets chunk k's prefix (a read of it failed).
func (h *headCache) drop(k cacheKey) {
	for i := range h.slots {
		if h.slots[i].f == k.f {
			h.slots[i] = cachedHead{buf: h.slots[i].buf[:0], ends: h.slots[i].ends[:0]}
		}
	}
}

func (s *cachedHead) frameUse() (*Frame, uint64) { return s.f, s.used }
