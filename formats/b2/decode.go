package b2

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/b2sql/b2sql/formats/b2/filter"
)

// Decoder decompresses chunks. It owns scratch buffers and codec state that
// are reused across calls, so a hot loop allocates nothing per block. A
// Decoder is not safe for concurrent use; use one per goroutine (the package
// level functions take one from a pool). The zero value is ready to use.
type Decoder struct {
	s              streamDecoder
	tmp, tmp2, blk []byte
	planes         [][]byte // a block's byte planes where they lie (planesApart)
	ref            []byte
	cbuf           []byte   // stored chunk bytes read from a file (chunkread.go)
	win            []byte   // the blocks a partial read needs (chunkread.go)
	spec           []byte   // the header a special offset stands for (loadChunk)
	ends           []int32  // where each block of a chunk ends (chunkread.go)
	order          []uint64 // scratch of blockEnds

	// Partly read blocks (blockcache.go); key names the chunk being
	// decoded when its partial blocks are to be kept, refKey the chunk
	// whose block 0 d.ref holds.
	cache       blockCache
	heads       headCache // chunk prefixes read from files (headcache.go)
	key, refKey cacheKey

	// scattered: this Decoder's reads are not a run for a remote
	// frame's read-ahead to follow (SetScattered).
	scattered bool
}

// SetScattered tells d that the reads it makes jump from block to block
// (a top-k visiting blocks best first, a lookup) and that its reader
// fetches what they need itself (PrefetchItems1D): they do not feed a
// remote frame's read-ahead (readahead.go), which would take blocks read
// a few hundred KiB apart for a run and fetch windows of the column that
// no read wants. A top-k over the events .b2z fetched 33 MiB for 190
// blocks of 40 KiB.
func (d *Decoder) SetScattered(on bool) { d.scattered = on }

// NewDecoder returns a ready Decoder. Call Release when done with it so its
// codec state returns to the shared pools.
func NewDecoder() *Decoder { return &Decoder{} }

// Release returns pooled codec state; the Decoder stays usable.
func (d *Decoder) Release() { d.s.release() }

var decoderPool = sync.Pool{New: func() any { return new(Decoder) }}

func getDecoder() *Decoder  { return decoderPool.Get().(*Decoder) }
func putDecoder(d *Decoder) { decoderPool.Put(d) }

// Decompress decodes the chunk at the start of src into dst, which must hold
// at least the chunk's Nbytes; it returns Nbytes. Trailing bytes of src
// after Cbytes are ignored.
func Decompress(dst, src []byte) (int, error) {
	d := getDecoder()
	defer putDecoder(d)
	return d.Decompress(dst, src)
}

// DecompressRange decodes bytes [off, off+n) of the chunk's payload into
// dst[:n], decoding only the blocks that intersect the range (plus block 0
// when the DELTA filter needs it as reference).
func DecompressRange(dst, src []byte, off, n int) error {
	d := getDecoder()
	defer putDecoder(d)
	return d.DecompressRange(dst, src, off, n)
}

// GetItems decodes items [start, start+n) of typesize bytes each (the chunk
// header typesize) into dst, like c-blosc2's blosc2_getitem.
func GetItems(dst, src []byte, start, n int) error {
	d := getDecoder()
	defer putDecoder(d)
	return d.GetItems(dst, src, start, n)
}

// ChunkNbytes returns the uncompressed size of the chunk in src after
// validating its header; use it to size the destination of Decompress.
func ChunkNbytes(src []byte) (int, error) {
	h, err := ParseChunkHeader(src)
	return h.Nbytes, err
}

func shortDst(have, want int) error {
	return fmt.Errorf("b2: destination has %d bytes, need %d: %w", have, want, io.ErrShortBuffer)
}

// Decompress is the Decoder form of the package function Decompress.
func (d *Decoder) Decompress(dst, src []byte) (int, error) {
	c, err := parseChunk(src)
	if err != nil {
		return 0, err
	}
	if len(dst) < c.Nbytes {
		return 0, shortDst(len(dst), c.Nbytes)
	}
	return c.Nbytes, d.decodeChunk(&c, dst[:c.Nbytes])
}

func (d *Decoder) decodeChunk(c *chunk, dst []byte) error {
	if sp := c.Special(); sp != SpecialNone {
		fillSpecial(c, dst, 0)
		return nil
	}
	if c.Memcpyed() {
		copy(dst, c.data[c.HeaderLen:])
		return nil
	}
	if c.VLBlocks() {
		off := 0
		for b := 0; b < c.nblocks; b++ {
			us := c.vlSize(b)
			if err := d.decodeBlock(c, b, dst[off:off+us], nil); err != nil {
				return err
			}
			off += us
		}
		return nil
	}
	var ref []byte
	for b := 0; b < c.nblocks; b++ {
		off := b * c.Blocksize
		out := dst[off : off+c.blockSize(b)]
		if err := d.decodeBlock(c, b, out, ref); err != nil {
			return err
		}
		if b == 0 {
			ref = out
		}
	}
	return nil
}

// DecompressBlock decodes block nblock of the chunk in src into dst and
// returns its size. Blocks of a regular chunk cover Blocksize bytes each
// (the last may be shorter); VL-blocks chunks have one block per item batch.
func (d *Decoder) DecompressBlock(dst, src []byte, nblock int) (int, error) {
	c, err := parseChunk(src)
	if err != nil {
		return 0, err
	}
	if sp := c.Special(); sp != SpecialNone || c.Memcpyed() {
		// Special and memcpyed chunks have no stored blocks: serve the
		// same byte range a regular chunk's block would cover.
		nb := c.NBlocks()
		if nblock < 0 || nblock >= nb {
			return 0, fmt.Errorf("b2: block %d out of range [0, %d)", nblock, nb)
		}
		off := nblock * c.Blocksize
		n := min(c.Blocksize, c.Nbytes-off)
		if len(dst) < n {
			return 0, shortDst(len(dst), n)
		}
		return n, d.rangeOf(&c, dst[:n], off)
	}
	if nblock < 0 || nblock >= c.nblocks {
		return 0, fmt.Errorf("b2: block %d out of range [0, %d)", nblock, c.nblocks)
	}
	var n int
	if c.VLBlocks() {
		n = c.vlSize(nblock)
	} else {
		n = c.blockSize(nblock)
	}
	if len(dst) < n {
		return 0, shortDst(len(dst), n)
	}
	ref, err := d.deltaRef(&c, nblock)
	if err != nil {
		return 0, err
	}
	return n, d.decodeBlock(&c, nblock, dst[:n], ref)
}

// GetItems is the Decoder form of the package function GetItems.
func (d *Decoder) GetItems(dst, src []byte, start, n int) error {
	h, err := ParseChunkHeader(src)
	if err != nil {
		return err
	}
	ts := h.Typesize
	if start < 0 || n < 0 || start > math.MaxInt32/ts || n > math.MaxInt32/ts {
		return fmt.Errorf("b2: items [%d, %d+%d) out of range", start, start, n)
	}
	return d.DecompressRange(dst, src, start*ts, n*ts)
}

// DecompressRange is the Decoder form of the package function DecompressRange.
func (d *Decoder) DecompressRange(dst, src []byte, off, n int) error {
	c, err := parseChunk(src)
	if err != nil {
		return err
	}
	if off < 0 || n < 0 || off > c.Nbytes || n > c.Nbytes-off {
		return fmt.Errorf("b2: range [%d, %d+%d) outside chunk of %d bytes", off, off, n, c.Nbytes)
	}
	if len(dst) < n {
		return shortDst(len(dst), n)
	}
	return d.rangeOf(&c, dst[:n], off)
}

// rangeOf decodes payload bytes [off, off+len(dst)) of c into dst.
func (d *Decoder) rangeOf(c *chunk, dst []byte, off int) error {
	n := len(dst)
	if n == 0 {
		return nil
	}
	if c.Special() != SpecialNone {
		fillSpecial(c, dst, off)
		return nil
	}
	if c.Memcpyed() {
		src, err := c.stored(c.HeaderLen + off)
		if err == nil && len(src) < n {
			err = corruptf("memcpyed chunk: %d bytes read at %d, need %d", len(src), c.HeaderLen+off, n)
		}
		if err != nil {
			return err
		}
		copy(dst, src)
		return nil
	}
	end := off + n
	if c.VLBlocks() {
		bo := 0
		for b := 0; b < c.nblocks && bo < end; b++ {
			us := c.vlSize(b)
			if bo+us > off {
				if err := d.copyBlockPart(c, b, bo, us, dst, off, nil); err != nil {
					return err
				}
			}
			bo += us
		}
		return nil
	}
	first, last := off/c.Blocksize, (end-1)/c.Blocksize
	ref, err := d.deltaRef(c, last)
	if err != nil {
		return err
	}
	for b := first; b <= last; b++ {
		if err := d.copyBlockPart(c, b, b*c.Blocksize, c.blockSize(b), dst, off, ref); err != nil {
			return err
		}
	}
	return nil
}

// copyBlockPart decodes block b (payload range [bo, bo+bsize)) and copies
// its intersection with [off, off+len(dst)) into dst. Fully covered blocks
// are decoded in place, partial ones through a scratch buffer.
func (d *Decoder) copyBlockPart(c *chunk, b, bo, bsize int, dst []byte, off int, ref []byte) error {
	lo, hi := max(bo, off), min(bo+bsize, off+len(dst))
	if lo >= hi {
		return nil
	}
	if lo == bo && hi == bo+bsize {
		return d.decodeBlock(c, b, dst[bo-off:bo-off+bsize], ref)
	}
	var buf []byte
	if d.key.f != nil {
		buf = d.cache.slot(d.key, bo, bsize)
	} else {
		d.blk = grow(d.blk, bsize)
		buf = d.blk
	}
	if err := d.decodeBlock(c, b, buf, ref); err != nil {
		if d.key.f != nil {
			d.cache.drop(d.key)
		}
		return err
	}
	copy(dst[lo-off:hi-off], buf[lo-bo:hi-bo])
	return nil
}

// deltaRef returns the decoded block 0 when decoding block first>0 of a
// DELTA chunk needs it as the XOR reference.
func (d *Decoder) deltaRef(c *chunk, first int) ([]byte, error) {
	if first == 0 || !c.hasDelta() || c.VLBlocks() {
		return nil, nil
	}
	n := c.blockSize(0)
	if d.key.f != nil && d.refKey == d.key && len(d.ref) == n {
		return d.ref, nil // decoded for the previous read of this chunk
	}
	d.ref = grow(d.ref, n)
	d.refKey = cacheKey{}
	if err := d.decodeBlock(c, 0, d.ref, nil); err != nil {
		return nil, err
	}
	d.refKey = d.key
	return d.ref, nil
}

func (c *chunk) hasDelta() bool {
	for _, f := range c.Filters {
		if f == FilterDelta {
			return true
		}
	}
	return false
}

// vlSize returns the uncompressed size of VL block b (validated by parseChunk).
func (c *chunk) vlSize(b int) int {
	return int(int32(binary.LittleEndian.Uint32(c.data[c.bstart(b):])))
}

// decodeBlock decodes block b into out (exactly the block's size): streams
// first, then the filter pipeline undone from slot 5 down to slot 0. ref is
// the decoded block 0 for DELTA (nil when b is 0).
func (d *Decoder) decodeBlock(c *chunk, b int, out []byte, ref []byte) error {
	if len(out) == 0 {
		return nil // an empty VL block: nothing to filter
	}
	nf := 0
	for _, f := range c.Filters {
		if f != FilterNone && !lossyOnly(f) {
			nf++
		}
	}
	if nf == 0 {
		return d.decodeStreams(c, b, out, false, nil)
	}
	bsize := len(out)
	if nf == 1 && c.planesApart(b, bsize) {
		// Unshuffle from the planes where they lie (filter/planes.go).
		d.tmp = grow(d.tmp, bsize)
		if cap(d.planes) < c.Typesize {
			d.planes = make([][]byte, c.Typesize)
		}
		planes := d.planes[:c.Typesize]
		err := d.decodeStreams(c, b, d.tmp, true, planes)
		if err == nil {
			filter.UnshufflePlanes(out, planes)
		}
		clear(planes) // hold no stored bytes past the call
		return err
	}
	d.tmp, d.tmp2 = grow(d.tmp, bsize), grow(d.tmp2, bsize)
	cur := d.tmp
	if err := d.decodeStreams(c, b, cur, true, nil); err != nil {
		return err
	}
	for i := 5; i >= 0; i-- {
		f := c.Filters[i]
		if f == FilterNone || lossyOnly(f) {
			continue
		}
		nf--
		var next []byte
		switch {
		case nf == 0:
			next = out
		case &cur[0] == &d.tmp[0]:
			next = d.tmp2
		default:
			next = d.tmp
		}
		if err := undoFilter(c, f, c.FiltersMeta[i], next, cur, ref, b); err != nil {
			return err
		}
		cur = next
	}
	return nil
}

// decodeStreams decodes the (possibly split) streams of block b into out,
// producing the filtered block bytes. When out is scratch, codecs may use
// its spare capacity: zstd's fast (over-copying) path needs 32 bytes of
// slack after the output, which the exact-size path lacks. With planes
// (one per stream), a stream stored raw is not copied into out: planes[s]
// is set to where stream s's bytes are, in the stored chunk or in out.
func (d *Decoder) decodeStreams(c *chunk, b int, out []byte, scratch bool, planes [][]byte) error {
	p := c.bstart(b)
	if c.VLBlocks() {
		end := len(c.data)
		if b+1 < c.nblocks {
			end = c.bstart(b + 1)
		}
		payload := c.data[p+4 : end]
		if len(payload) == len(out) {
			copy(out, payload)
			return nil
		}
		return d.s.decode(&c.ChunkHeader, c.dict, payload, out)
	}
	bsize := len(out)
	nstreams := 1
	if c.Split() && !(b == c.nblocks-1 && c.leftover != 0) {
		nstreams = c.Typesize
	}
	neblock := bsize / nstreams
	data, err := c.stored(p)
	if err != nil {
		return fmt.Errorf("block %d: %w", b, err)
	}
	p = 0
	// Streams are written in order, so a stream may spill into the space
	// of the ones after it; only the last is bounded by the block (or, in
	// a scratch buffer, by the buffer's capacity).
	lim := len(out)
	if scratch {
		lim = cap(out)
	}
	for s := 0; s < nstreams; s++ {
		if p+4 > len(data) {
			return corruptf("block %d stream %d: size field past the end", b, s)
		}
		csize := int(int32(binary.LittleEndian.Uint32(data[p:])))
		p += 4
		dst := out[s*neblock : (s+1)*neblock : lim]
		if planes != nil {
			planes[s] = dst[:neblock:neblock]
		}
		switch {
		case csize == 0:
			clear(dst)
		case csize < 0:
			if p >= len(data) {
				return corruptf("block %d stream %d: token past the end", b, s)
			}
			token := data[p]
			p++
			if token != 1 || csize < -255 {
				return corruptf("block %d stream %d: bad run token %#x (csize %d)", b, s, token, csize)
			}
			fillByte(dst, byte(-csize))
		case csize > len(data)-p:
			return corruptf("block %d stream %d: csize %d past the end", b, s, csize)
		case csize == neblock:
			if planes != nil {
				planes[s] = data[p : p+csize : p+csize]
			} else {
				copy(dst, data[p:p+csize])
			}
			p += csize
		default:
			if err := d.s.decode(&c.ChunkHeader, c.dict, data[p:p+csize], dst); err != nil {
				return fmt.Errorf("block %d stream %d: %w", b, s, err)
			}
			p += csize
		}
	}
	if tail := nstreams * neblock; tail < bsize {
		clear(out[tail:])
	}
	return nil
}

// fillSpecial writes payload bytes [off, off+len(dst)) of a special chunk.
func fillSpecial(c *chunk, dst []byte, off int) {
	switch c.Special() {
	case SpecialNaN:
		var pat [8]byte
		if c.Typesize == 4 {
			binary.LittleEndian.PutUint32(pat[:], 0x7FC00000)
		} else {
			binary.LittleEndian.PutUint64(pat[:], 0x7FF8000000000000)
		}
		fillPattern(dst, pat[:c.Typesize], off)
	case SpecialValue:
		fillPattern(dst, c.data[extendedHeaderLen:c.Cbytes], off)
	default: // zeros and uninitialized (returned as zeros)
		clear(dst)
	}
}

// fillPattern fills dst with pat repeated, starting at phase off%len(pat).
func fillPattern(dst, pat []byte, off int) {
	if len(dst) == 0 {
		return
	}
	p := len(pat)
	ph := off % p
	n := copy(dst, pat[ph:])
	for n < len(dst) && n < p {
		n += copy(dst[n:], pat)
	}
	// dst[:n] now starts at phase ph and n ≥ p, so doubling keeps the phase
	// as long as we copy multiples of p.
	per := n / p * p
	for per < len(dst) {
		per += copy(dst[per:], dst[:per])
	}
}

func fillByte(dst []byte, v byte) {
	if v == 0 {
		clear(dst)
		return
	}
	if len(dst) == 0 {
		return
	}
	dst[0] = v
	for n := 1; n < len(dst); n *= 2 {
		copy(dst[n:], dst[:n])
	}
}
