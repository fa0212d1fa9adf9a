package b2

import (
	"context"
	"encoding/binary"

	"github.com/b2sql/b2sql/storage"
)

// Fetching the blocks of scattered reads ahead of them.
//
// Reading items of a frame held on a server costs two or three requests
// one after the other (readChunk: the chunk's header and block starts,
// the rest of the starts when a chunk has more than ~120 blocks, then
// the blocks). A reader that knows which items it will read next (a
// top-k scan visiting blocks best first, an ordered scan following an
// index, a lookup) calls PrefetchItems1D with all of them: the same
// requests are made for all the chunks at once, and the reads that
// follow find their bytes in the source's cache. readahead.go serves
// reads in order; this serves the scattered ones.
//
// The block starts are not known before the chunk's header arrives, but
// where a block lies can be guessed: writers store a chunk's blocks in
// order, and blocks of one chunk compress to about the same size (in the
// events .b2z, 99% of the starts lie within 2% of a block of the
// proportional guess; only a short last chunk's empty blocks are far).
// The first round therefore asks for the header with the block starts
// and for the guessed blocks, widened by guessSlack, together; the
// exact rounds that follow then find their bytes cached and make no
// request, unless the guess missed (blocks stored out of order by a
// multi-threaded writer, a DELTA filter that needs block 0, uneven
// compression), when they fetch only what is missing. A point lookup
// on a column whose chunks are larger than wholeChunk waits one round
// trip for its block instead of two.

// PrefetchItems1D has a 1-D array read from a server (through a
// storage.Prefetcher) fetch what reading items [s[0], s[1)) needs, for
// every span s, in at most three rounds of parallel requests, and
// returns when they have arrived (or failed: errors are left to the
// reads, which make the requests again). A no-op for local arrays and
// arrays of more dimensions.
func (a *Array) PrefetchItems1D(ctx context.Context, spans [][2]int64) {
	f := a.Frame
	if a.NDim() != 1 || f.file == nil || f.dir != "" || len(spans) == 0 {
		return
	}
	p, ok := f.file.ra.(storage.Prefetcher)
	if !ok {
		return
	}
	cs := int64(a.Meta.ChunkShape[0])
	isz := int64(a.itemsize)
	blocksize := int64(a.Meta.BlockShape[0]) * isz
	var parts []chunkPart
	for _, s := range spans {
		lo, hi := max(s[0], 0), min(s[1], a.Meta.Shape[0])
		for c := lo / cs; cs > 0 && c*cs < hi; c++ {
			co := c * cs
			from, to := max(lo, co), min(hi, co+cs)
			parts = append(parts, chunkPart{chunk: int(c), off: (from - co) * isz, n: (to - from) * isz})
		}
	}
	f.prefetchParts(ctx, p, parts, blocksize)
}

// chunkPart is payload bytes [off, off+n) of chunk chunk.
type chunkPart struct {
	chunk  int
	off, n int64
}

// prefetchParts fetches, through p, the stored bytes readChunk reads to
// decode each part: round one the whole chunk where the offsets say it is
// small (wholeChunk, up to wholeBudget for the call), else its header with
// the block starts and the guessed span of the part's blocks (guessBlocks;
// blocksize is the payload bytes of a block, 0 when unknown: then only the
// first headGuess bytes); round two the rest of the block starts where
// they run past those, round three the blocks' exact span. Rounds two and
// three ask only for bytes not fetched yet.
func (f *Frame) prefetchParts(ctx context.Context, p storage.Prefetcher, parts []chunkPart, blocksize int64) {
	type site struct {
		part      chunkPart
		at, avail int64 // where the chunk is stored in the source, and the frame's bytes from there
		pre       int64 // the prefix readChunk reads before the blocks
		h         ChunkHeader
		ok        bool
		whole     bool // fetched whole in round one
	}
	var sites []site
	var round []storage.Range
	var wholeBytes int64
	for _, pt := range parts {
		if pt.chunk < 0 || pt.chunk >= f.nchunks || f.ChunkOffset(pt.chunk) < 0 || pt.n <= 0 {
			continue // special chunks are not stored; bad numbers are the read's error
		}
		pos := int64(f.Header.HeaderLen) + f.ChunkOffset(pt.chunk)
		avail := int64(f.Header.HeaderLen) + f.Header.Cbytes - pos
		if avail <= 0 {
			continue
		}
		at := f.file.base + pos
		if n := f.storedSize(pt.chunk); n > 0 && n <= wholeChunk && wholeBytes+n <= wholeBudget {
			wholeBytes += n
			sites = append(sites, site{part: pt, at: at, avail: avail, whole: true})
			round = append(round, storage.Range{Off: at, Len: min(avail, n)})
			continue
		}
		sites = append(sites, site{part: pt, at: at, avail: avail})
		head := int64(headGuess)
		if lo, hi, pre, ok := f.guessBlocks(pt, blocksize); ok {
			head = max(head, pre)
			round = append(round, storage.Range{Off: at + lo, Len: min(avail, hi) - lo})
		}
		round = append(round, storage.Range{Off: at, Len: min(avail, head)})
	}
	if len(round) == 0 || p.Prefetch(ctx, round) != nil {
		return
	}
	head := make([]byte, headGuess)
	round = round[:0]
	for i := range sites {
		s := &sites[i]
		if s.whole {
			continue
		}
		n := min(s.avail, headGuess)
		if _, err := f.file.ra.ReadAt(head[:n], s.at); err != nil {
			continue
		}
		h, err := parseChunkHeader(head[:n], s.avail)
		if err != nil {
			continue
		}
		cb := int64(h.Cbytes)
		s.h, s.ok = h, true
		switch {
		case h.Special() != SpecialNone || h.VLBlocks() || h.Nbytes == 0 || s.part.off+s.part.n > int64(h.Nbytes):
			s.pre = cb // read whole
		case h.Memcpyed():
			s.pre = int64(h.HeaderLen)
		default:
			s.pre = min(cb, int64(h.HeaderLen)+4*int64(h.NBlocks()))
			if h.HasDict() && s.pre+4 <= cb {
				s.pre += 4 // the dictionary's size; the dictionary is read with the blocks below
			}
		}
		if s.pre > n {
			round = append(round, storage.Range{Off: s.at + n, Len: s.pre - n})
		}
	}
	if len(round) > 0 && p.Prefetch(ctx, round) != nil {
		return
	}
	round = round[:0]
	for i := range sites {
		s := &sites[i]
		if !s.ok || s.pre >= int64(s.h.Cbytes) {
			continue
		}
		if s.h.Memcpyed() {
			round = append(round, storage.Range{Off: s.at + s.pre + s.part.off, Len: s.part.n})
			continue
		}
		prefix := make([]byte, s.pre)
		if _, err := f.file.ra.ReadAt(prefix, s.at); err != nil {
			continue
		}
		if s.h.HasDict() {
			// The dictionary follows its size: fetch both with the blocks.
			dsize := int64(int32(binary.LittleEndian.Uint32(prefix[s.pre-4:])))
			round = append(round, storage.Range{Off: s.at + s.pre, Len: max(dsize, 0)})
			continue // its block starts depend on the dictionary: read as usual
		}
		c, err := parseChunkBody(s.h, prefix, false)
		if err != nil || c.nblocks == 0 || c.Blocksize <= 0 {
			continue
		}
		lo, hi := c.blockSpan(int(s.part.off)/c.Blocksize, int(s.part.off+s.part.n-1)/c.Blocksize, nil)
		if hi > lo {
			round = append(round, storage.Range{Off: s.at + int64(lo), Len: int64(hi - lo)})
		}
	}
	if len(round) > 0 {
		p.Prefetch(ctx, round)
	}
}

// guessBlocks returns where in its stored chunk the blocks holding part
// pt probably lie, [lo, hi), and how long the header with the block starts
// is (pre), from the frame's geometry and the chunk's stored size alone:
// its blocks share the bytes after the starts equally, in order. ok is
// false when the geometry does not say (no fixed chunk size, no block
// size, the stored size unknown).
func (f *Frame) guessBlocks(pt chunkPart, blocksize int64) (lo, hi, pre int64, ok bool) {
	stored := f.storedSize(pt.chunk)
	if blocksize <= 0 || f.Header.Chunksize <= 0 || stored <= 0 {
		return 0, 0, 0, false
	}
	nbytes, err := f.ChunkNbytes(pt.chunk)
	if err != nil || nbytes <= 0 {
		return 0, 0, 0, false
	}
	nblocks := (int64(nbytes) + blocksize - 1) / blocksize
	pre = extendedHeaderLen + 4*nblocks
	if pre >= stored {
		return 0, 0, 0, false
	}
	per := float64(stored-pre) / float64(nblocks)
	first, last := pt.off/blocksize, (pt.off+pt.n-1)/blocksize
	slack := per * guessSlack
	lo = max(pre, pre+int64(float64(first)*per-slack))
	hi = min(stored, pre+int64(float64(last+1)*per+slack)+1)
	return lo, hi, pre, hi > lo
}

// guessSlack widens a guessed block span on each side, as a share of a
// block's stored size: the proportional guess is rarely off by more than
// a few percent of a block, and a miss costs a round trip.
const guessSlack = 0.25

// A chunk stored in at most wholeChunk bytes is fetched whole in the first
// round: one request of a few hundred KiB costs less than the two rounds
// after it (over S3, tens of milliseconds each). wholeBudget bounds the
// bytes fetched that way by one prefetch.
const (
	wholeChunk  = 256 << 10
	wholeBudget = 32 << 20
)

// storedSize returns how many bytes chunk c takes in the frame, from the
// offset of the chunk stored after it (chunks are stored in order unless
// updated, which appends), or -1 when the offsets do not say.
func (f *Frame) storedSize(c int) int64 {
	off := f.ChunkOffset(c)
	if off < 0 {
		return -1
	}
	if c+1 == f.nchunks {
		return f.Header.Cbytes - off
	}
	next := f.ChunkOffset(c + 1)
	if next <= off {
		return -1
	}
	return next - off
}
