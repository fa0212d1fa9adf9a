package b2

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/b2sql/b2sql/formats/b2/blosclz"
	"github.com/b2sql/b2sql/formats/b2/filter"
	"github.com/b2sql/b2sql/formats/b2/lz4mid"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Split modes (c-blosc2 BLOSC_*_SPLIT).
const (
	SplitAlways        = 1
	SplitNever         = 2
	SplitAuto          = 3
	SplitForwardCompat = 4
)

// CParams are compression parameters for one chunk. Unlike most option
// structs its zero value is not the default (codec 0 is BloscLZ and clevel
// 0 means "store raw"): start from DefaultCParams.
type CParams struct {
	Codec       Codec
	CLevel      int // 0 (memcpy) … 9
	Typesize    int // item size; > 255 is stored as 1 in chunk headers
	Blocksize   int // 0 = automatic (c-blosc2's stune heuristic)
	Filters     [6]uint8
	FiltersMeta [6]uint8
	SplitMode   int // SplitAlways … SplitForwardCompat; 0 = SplitForwardCompat
	// MinRatio stores a stream raw unless the codec shrinks it to at
	// most 1/MinRatio of its size; 0 and 1 store it raw only when the
	// codec does not shrink it at all, as c-blosc2 does. A raw stream
	// (csize = its size) is standard blosc2: every reader copies it.
	MinRatio int
}

// DefaultMinRatio is DefaultCParams' MinRatio. A shuffled byte plane
// that zstd cannot halve is coded by Huffman alone (the low mantissa
// bytes of a float64, the low byte of a small int: 1.2–2× smaller), and
// klauspost decodes such 8 KiB planes at 0.7 GB/s where a raw plane is a
// copy at 10 GB/s. Over the 10M-row demo table, storing them raw made
// decoding temperature and price 4.5× faster (114 → 25 ms each) for 54%
// more bytes in those columns (45.6 → 70.4 MB), qty 4× (+19%), the whole
// .b2z 336 → 375 MB, its Parquet copy being 390 MB.
const DefaultMinRatio = 2

// DefaultCParams returns zstd clevel 1 with SHUFFLE in slot 5 and raw
// streams where zstd does not halve them (DefaultMinRatio): the fast
// default this package writes (python-blosc2 uses clevel 5, MinRatio 1).
// Chunks of one- and two-byte items may take BITSHUFFLE + LZ4 instead
// (fasterAlternative); the frame header keeps these parameters.
func DefaultCParams(typesize int) CParams {
	return CParams{Codec: Zstd, CLevel: 1, Typesize: typesize,
		Filters: [6]uint8{5: FilterShuffle}, SplitMode: SplitForwardCompat, MinRatio: DefaultMinRatio}
}

// MaxOverhead is the most a chunk can exceed its payload (header length).
const MaxOverhead = extendedHeaderLen

const (
	l1Cache       = 32 * 1024 // c-blosc2's L1 constant for the block heuristic
	minBufferSize = 32        // BLOSC_MIN_BUFFERSIZE
	maxStreams    = 16        // MAX_STREAMS
)

func (p *CParams) effTypesize() int {
	if p.Typesize > maxTypesize {
		return 1
	}
	return p.Typesize
}

func (p *CParams) hasFilter(f uint8) bool {
	for _, x := range p.Filters {
		if x == f {
			return true
		}
	}
	return false
}

func (p *CParams) validate() error {
	switch p.Codec {
	case BloscLZ, LZ4, LZ4HC, Zlib, Zstd:
	default:
		return fmt.Errorf("b2: cannot write codec %v", p.Codec)
	}
	if p.CLevel < 0 || p.CLevel > 9 {
		return fmt.Errorf("b2: clevel %d outside [0, 9]", p.CLevel)
	}
	if p.Typesize <= 0 {
		return fmt.Errorf("b2: typesize %d must be positive", p.Typesize)
	}
	if p.MinRatio < 0 {
		return fmt.Errorf("b2: MinRatio %d must not be negative", p.MinRatio)
	}
	if p.Blocksize < 0 || p.Blocksize > maxBlocksize {
		return fmt.Errorf("b2: blocksize %d outside [0, %d]", p.Blocksize, maxBlocksize)
	}
	for i, f := range p.Filters {
		switch f {
		case FilterNone, FilterShuffle, FilterBitShuffle, FilterDelta, FilterByteDelta:
		case FilterTruncPrec:
			if ts := p.effTypesize(); ts != 4 && ts != 8 {
				return fmt.Errorf("b2: trunc_prec needs typesize 4 or 8, not %d", ts)
			}
		default:
			return fmt.Errorf("b2: cannot write filter %d in slot %d", f, i)
		}
	}
	return nil
}

// splitBlock is c-blosc2's split_block: whether blocks get one stream per
// byte of the item. Fast codecs with SHUFFLE gain from compressing each
// byte plane on its own; without shuffle splitting hurts the ratio.
func (p *CParams) splitBlock(typesize, blocksize int) bool {
	switch p.SplitMode {
	case SplitAlways:
		return true
	case SplitNever:
		return false
	}
	fast := p.Codec == BloscLZ || p.Codec == LZ4 || p.Codec == Zstd && p.CLevel <= 5
	return fast && p.hasFilter(FilterShuffle) && typesize <= maxStreams && blocksize/typesize >= minBufferSize
}

// ComputeBlocksize returns the block size c-blosc2 (blosc_stune_next_blocksize)
// picks for nbytes of payload with these parameters.
func (p *CParams) ComputeBlocksize(nbytes int) int {
	ts := p.effTypesize()
	if nbytes < ts {
		return 1
	}
	bs := nbytes
	split := p.splitBlock(ts, bs)
	if p.Blocksize > 0 {
		bs = p.Blocksize
	} else {
		// HCR codecs (lz4hc, zlib, zstd) prefer larger blocks.
		hcr := p.Codec == LZ4HC || p.Codec == Zlib || p.Codec == Zstd
		if nbytes >= l1Cache {
			bs = l1Cache
			if hcr {
				bs *= 2
			}
			switch p.CLevel {
			case 0:
				bs /= 4
			case 1:
				bs /= 2
			case 3:
				bs *= 2
			case 4, 5:
				bs *= 4
			case 6, 7, 8:
				bs *= 8
			case 9:
				bs *= 8
				if hcr {
					bs *= 2
				}
			}
		}
		if p.CLevel > 0 && split {
			// Split streams are small: size the block by items.
			switch p.CLevel {
			case 1, 2, 3:
				bs = 32 * 1024
			case 4, 5, 6:
				bs = 64 * 1024
			case 7:
				bs = 128 * 1024
			case 8:
				bs = 256 * 1024
			default:
				bs = 512 * 1024
			}
			bs *= ts
			bs = min(bs, 4*1024*1024)
			bs = max(bs, 32*1024)
		}
	}
	bs = min(bs, nbytes)
	if bs > ts {
		bs = bs / ts * ts
	}
	return bs
}

// Encoder compresses chunks, reusing codec state and scratch buffers. Not
// safe for concurrent use; use one per goroutine.
type Encoder struct {
	zstd    [10]*zstd.Encoder
	lz4     lz4.CompressorCCompat
	lz4hc   lz4.CompressorHC
	lz4mid  *lz4mid.Compressor // allocated on first use: 576 KiB of tables
	zbuf    bytes.Buffer
	zw      *zlib.Writer
	zwLevel int
	tmp     []byte
	tmp2    []byte
	zout    []byte
	alt     []byte // the block compressFaster compares
}

// NewEncoder returns a ready Encoder.
func NewEncoder() *Encoder { return &Encoder{} }

var encoderPool = sync.Pool{New: func() any { return NewEncoder() }}

func putHeader(b []byte, flags byte, ts, nbytes, blocksize, cbytes int, p *CParams, bflags byte) {
	b[0], b[1], b[2], b[3] = 5, 1, flags, byte(ts)
	binary.LittleEndian.PutUint32(b[4:], uint32(nbytes))
	binary.LittleEndian.PutUint32(b[8:], uint32(blocksize))
	binary.LittleEndian.PutUint32(b[12:], uint32(cbytes))
	copy(b[16:22], p.Filters[:])
	b[22] = byte(p.Codec)
	b[23] = 0
	copy(b[24:30], p.FiltersMeta[:])
	b[30] = 0
	b[31] = bflags
}

// compressBlocks compresses src as one chunk of blocksize blocks with p,
// reporting whether the codec coded some stream (rather than all being
// stored raw or as runs).
func (e *Encoder) compressBlocks(dst, src []byte, p *CParams, blocksize int) (chunk []byte, coded bool, err error) {
	nbytes := len(src)
	ts := p.effTypesize()
	memcpy := func(flags byte) []byte {
		out := grow(dst[:0], extendedHeaderLen+nbytes)
		putHeader(out, flags|flagMemcpyed, ts, nbytes, max(blocksize, 1), extendedHeaderLen+nbytes, p, 0)
		copy(out[extendedHeaderLen:], src)
		return out
	}
	if p.CLevel == 0 || nbytes < minBufferSize {
		return memcpy(flagShuffle | flagBitShuffle), false, nil
	}
	flags := byte(flagShuffle | flagBitShuffle)
	if !p.splitBlock(ts, blocksize) {
		flags |= flagDontSplit
	}
	if p.hasFilter(FilterDelta) {
		flags |= flagDelta // Blosc1 flag, still set by c-blosc2
	}
	flags |= p.Codec.format() << 5
	// Whole-chunk specials cost 32 (+ one item) bytes. c-blosc2 turns an
	// all-zero chunk into special-zeros keeping its regular flags; a
	// repeated item is what blosc2_chunk_repeatval writes (flags 0x05).
	if isZero(src) {
		out := grow(dst[:0], extendedHeaderLen)
		putHeader(out, flags, ts, nbytes, blocksize, extendedHeaderLen, p, byte(SpecialZeros)<<4)
		return out, false, nil
	}
	if vlen := p.Typesize; nbytes%vlen == 0 && vlen <= maxBlocksize && isRepeated(src, vlen) {
		out := grow(dst[:0], extendedHeaderLen+vlen)
		// blosc2_chunk_repeatval writes no filters and codec 0.
		putHeader(out, flagShuffle|flagBitShuffle, ts, nbytes, blocksize, extendedHeaderLen+vlen, &CParams{}, byte(SpecialValue)<<4)
		copy(out[extendedHeaderLen:], src[:vlen])
		return out, false, nil
	}
	nblocks := (nbytes + blocksize - 1) / blocksize
	leftover := nbytes % blocksize
	destsize := nbytes + MaxOverhead
	hdr := extendedHeaderLen + 4*nblocks
	if hdr > destsize {
		return memcpy(flags), false, nil
	}
	out := grow(dst[:0], destsize)
	pos := hdr
	allZero := true
	hasFilters := false
	for _, f := range p.Filters {
		if f != FilterNone {
			hasFilters = true
		}
	}
	if hasFilters {
		e.tmp, e.tmp2 = grow(e.tmp, blocksize), grow(e.tmp2, blocksize)
	}
	for b := 0; b < nblocks; b++ {
		bsize := blocksize
		last := b == nblocks-1 && leftover != 0
		if last {
			bsize = leftover
		}
		block := src[b*blocksize : b*blocksize+bsize]
		if hasFilters {
			var err error
			block, err = e.forward(p, block, src[:min(blocksize, nbytes)], b)
			if err != nil {
				return nil, false, err
			}
		}
		binary.LittleEndian.PutUint32(out[extendedHeaderLen+4*b:], uint32(pos))
		nstreams := 1
		if flags&flagDontSplit == 0 && !last {
			nstreams = ts
		}
		neblock := bsize / nstreams
		for s := 0; s < nstreams; s++ {
			in := block[s*neblock : (s+1)*neblock]
			if pos+4 > destsize {
				return memcpy(flags), false, nil
			}
			csizeAt := pos
			pos += 4
			if v, ok := run(in); ok {
				// A run of one byte value: no codec call at all.
				binary.LittleEndian.PutUint32(out[csizeAt:], uint32(-int32(v)))
				if v != 0 {
					if pos+1 > destsize {
						return memcpy(flags), false, nil
					}
					out[pos] = 1
					pos++
					allZero = false
				}
				continue
			}
			allZero = false
			maxout := min(neblock, destsize-pos)
			if maxout <= 0 {
				return memcpy(flags), false, nil
			}
			n := e.stream(p, out[pos:pos+maxout], in)
			if n <= 0 || n >= neblock || p.MinRatio > 1 && n*p.MinRatio > neblock {
				if pos+neblock > destsize {
					return memcpy(flags), false, nil
				}
				copy(out[pos:], in)
				n = neblock
			} else {
				coded = true
			}
			binary.LittleEndian.PutUint32(out[csizeAt:], uint32(n))
			pos += n
		}
	}
	if allZero {
		// Unreachable for all-zero input (handled above) but kept for
		// chunks whose filtered streams are all zero runs.
		putHeader(out, flags, ts, nbytes, blocksize, extendedHeaderLen, p, byte(SpecialZeros)<<4)
		return out[:extendedHeaderLen], false, nil
	}
	putHeader(out, flags, ts, nbytes, blocksize, pos, p, 0)
	return out[:pos], coded, nil
}

// forward applies the filter pipeline (slots 0→5) to block b. ref is the
// unfiltered block 0, the DELTA reference.
func (e *Encoder) forward(p *CParams, block, ref []byte, b int) ([]byte, error) {
	ts := p.effTypesize()
	cur := block
	bufs := [2][]byte{e.tmp[:len(block)], e.tmp2[:len(block)]}
	k := 0
	for i, f := range p.Filters {
		if f == FilterNone {
			continue
		}
		out := bufs[k]
		m := p.FiltersMeta[i]
		switch f {
		case FilterShuffle:
			w := ts
			if m != 0 {
				w = int(m)
			}
			filter.Shuffle(out, cur, w)
		case FilterBitShuffle:
			if err := filter.BitShuffle(out, cur, ts); err != nil {
				return nil, err
			}
		case FilterDelta:
			filter.DeltaEncode(out, cur, ref, ts, b == 0)
		case FilterByteDelta:
			w := int(m)
			if w == 0 {
				w = ts
			}
			filter.ByteDeltaEncode(out, cur, w)
		case FilterTruncPrec:
			if err := filter.TruncPrec(out, cur, ts, int(int8(m))); err != nil {
				return nil, fmt.Errorf("b2: %w", err)
			}
		}
		cur = out
		k ^= 1
	}
	return cur, nil
}

// stream compresses in into out (len(out) = the most it may use) and
// returns the size, or 0 when the codec cannot make it fit.
func (e *Encoder) stream(p *CParams, out, in []byte) int {
	switch p.Codec {
	case BloscLZ:
		return blosclz.Compress(out, in, p.CLevel)
	case LZ4:
		// CCompat output matches LZ4_compress_fast byte for byte, and
		// c-blosc2 uses acceleration 10 - clevel.
		e.lz4.Acceleration = 10 - p.CLevel
		n, err := e.lz4.CompressBlock(in, out)
		if err != nil {
			return 0
		}
		return n
	case LZ4HC:
		if p.CLevel <= 2 {
			// The lowest levels search two hash tables rather than a
			// chain, as lz4 1.10's LZ4HC does at level 2 (package lz4mid).
			if e.lz4mid == nil {
				e.lz4mid = new(lz4mid.Compressor)
			}
			return e.lz4mid.Compress(out, in)
		}
		e.lz4hc.Level = lz4.CompressionLevel(1 << (8 + p.CLevel))
		n, err := e.lz4hc.CompressBlock(in, out)
		if err != nil {
			return 0
		}
		return n
	case Zlib:
		e.zbuf.Reset()
		if e.zw == nil || e.zwLevel != p.CLevel {
			zw, err := zlib.NewWriterLevel(&e.zbuf, p.CLevel)
			if err != nil {
				return 0
			}
			e.zw, e.zwLevel = zw, p.CLevel
		} else {
			e.zw.Reset(&e.zbuf)
		}
		if _, err := e.zw.Write(in); err != nil {
			return 0
		}
		if err := e.zw.Close(); err != nil || e.zbuf.Len() > len(out) {
			return 0
		}
		return copy(out, e.zbuf.Bytes())
	case Zstd:
		// EncodeAll may grow its destination before it knows the output
		// size, so encode into a reusable scratch buffer and copy.
		e.zout = e.zstdEncoder(p.CLevel).EncodeAll(in, e.zout[:0])
		if len(e.zout) > len(out) {
			return 0 // larger than maxout: store raw
		}
		return copy(out, e.zout)
	}
	return 0
}

// zstdEncoder maps blosc clevel c to zstd level 2c-1 (9 → 22), as
// c-blosc2 does, then to the nearest klauspost speed class.
func (e *Encoder) zstdEncoder(clevel int) *zstd.Encoder {
	if e.zstd[clevel] == nil {
		lvl := 2*clevel - 1
		if clevel >= 9 {
			lvl = 22
		}
		enc, err := zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(lvl)),
			zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(false),
			zstd.WithZeroFrames(true),
			// Entropy-code literals even when a stream has no matches, as
			// libzstd does at every level: klauspost skips it at its
			// fastest levels, which stored shuffled byte planes of small
			// integers (an int16 in 0..19: 4.3 bits a byte) raw, at 2.00×.
			zstd.WithAllLitEntropyCompression(true),
			zstd.WithLowerEncoderMem(true))
		if err != nil {
			panic(err) // invalid options: programming error
		}
		e.zstd[clevel] = enc
	}
	return e.zstd[clevel]
}

// run reports whether b is one repeated byte value (c-blosc2 get_run).
func run(b []byte) (byte, bool) {
	if len(b) == 0 {
		return 0, false
	}
	v := b[0]
	w := uint64(v) * 0x0101010101010101
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:]) != w {
			return 0, false
		}
	}
	for ; i < len(b); i++ {
		if b[i] != v {
			return 0, false
		}
	}
	return v, true
}

func isZero(b []byte) bool {
	v, ok := run(b)
	return ok && v == 0
}

// isRepeated reports whether b is one vlen-byte item repeated.
func isRepeated(b []byte, vlen int) bool {
	if len(b) < 2*vlen {
		return false
	}
	// Compare against a doubling prefix: cheap and allocation free.
	if !bytes.Equal(b[vlen:2*vlen], b[:vlen]) {
		return false
	}
	n := 2 * vlen
	for n < len(b) {
		k := min(n, len(b)-n)
		if !bytes.Equal(b[n:n+k], b[:k]) {
			return false
		}
		n += k
	}
	return true
}
