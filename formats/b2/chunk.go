package b2

import (
	"encoding/binary"
	"fmt"
)

// Codec is a compressor id as stored in frame headers and in byte 22 of an
// extended chunk header (c-blosc2's "compcode").
type Codec uint8

const (
	BloscLZ Codec = 0
	LZ4     Codec = 1
	LZ4HC   Codec = 2
	Zlib    Codec = 4
	Zstd    Codec = 5
)

func (c Codec) String() string {
	switch c {
	case BloscLZ:
		return "blosclz"
	case LZ4:
		return "lz4"
	case LZ4HC:
		return "lz4hc"
	case Zlib:
		return "zlib"
	case Zstd:
		return "zstd"
	}
	return fmt.Sprintf("codec(%d)", uint8(c))
}

// format returns the 3-bit codec "format" code stored in chunk flags bits
// 5-7; decoders pick the decompressor by it, not by the compcode.
func (c Codec) format() uint8 {
	switch c {
	case BloscLZ:
		return 0
	case LZ4, LZ4HC:
		return 1
	case Zlib:
		return 3
	case Zstd:
		return 4
	}
	return 6
}

// Filter ids of the six-slot filter pipeline.
const (
	FilterNone           uint8 = 0
	FilterShuffle        uint8 = 1
	FilterBitShuffle     uint8 = 2
	FilterDelta          uint8 = 3
	FilterTruncPrec      uint8 = 4
	FilterNDCell         uint8 = 32
	FilterNDMean         uint8 = 33
	FilterByteDeltaBuggy uint8 = 34
	FilterByteDelta      uint8 = 35
	FilterIntTrunc       uint8 = 36
)

// lossyOnly reports whether filter f changes data only on the way in
// (TRUNC_PREC, INT_TRUNC zero low bits): reading has nothing to undo, as
// c-blosc2's backward pass for both is a copy.
func lossyOnly(f uint8) bool { return f == FilterTruncPrec || f == FilterIntTrunc }

// filterName names a filter id for Inspect.
func filterName(f uint8) string {
	switch f {
	case FilterNone:
		return "none"
	case FilterShuffle:
		return "shuffle"
	case FilterBitShuffle:
		return "bitshuffle"
	case FilterDelta:
		return "delta"
	case FilterTruncPrec:
		return "trunc_prec"
	case FilterByteDeltaBuggy:
		return "bytedelta_buggy"
	case FilterByteDelta:
		return "bytedelta"
	case FilterIntTrunc:
		return "int_trunc"
	case FilterNDCell:
		return "ndcell"
	case FilterNDMean:
		return "ndmean"
	}
	return fmt.Sprintf("filter(%d)", f)
}

// Special is the kind of a special chunk: one whose content is implied by the
// header alone (or, for SpecialValue, by one repeated item after it).
type Special uint8

const (
	SpecialNone   Special = 0
	SpecialZeros  Special = 1
	SpecialNaN    Special = 2
	SpecialValue  Special = 3
	SpecialUninit Special = 4
)

func (s Special) String() string {
	switch s {
	case SpecialNone:
		return "none"
	case SpecialZeros:
		return "zeros"
	case SpecialNaN:
		return "nan"
	case SpecialValue:
		return "value"
	case SpecialUninit:
		return "uninit"
	}
	return fmt.Sprintf("special(%d)", uint8(s))
}

// Chunk header layout constants (c-blosc2 README_CHUNK_FORMAT.rst).
const (
	minHeaderLen      = 16
	extendedHeaderLen = 32
	maxBlocksize      = 536866816 // BLOSC2_MAXBLOCKSIZE
	maxTypesize       = 255

	flagShuffle    = 0x01
	flagMemcpyed   = 0x02
	flagBitShuffle = 0x04
	flagDelta      = 0x08
	flagDontSplit  = 0x10

	bfDict       = 0x01
	bfLazy       = 0x08
	bfInstrument = 0x80
	f2VLBlocks   = 0x01
)

// ChunkHeader is the decoded 16- or 32-byte header of a Blosc chunk. For
// version-2 (Blosc1) chunks the filter pipeline is derived from Flags, so
// Filters is always authoritative.
type ChunkHeader struct {
	Version      uint8
	VersionLZ    uint8
	Flags        uint8
	Typesize     int // effective element size for filters and splitting (1..255)
	Nbytes       int // uncompressed payload size
	Blocksize    int // bytes per block (clamped to Nbytes); number of blocks for VL-blocks chunks
	Cbytes       int // whole chunk length including header
	Filters      [6]uint8
	FiltersMeta  [6]uint8
	UDCodec      uint8
	CompcodeMeta uint8
	Flags2       uint8 // blosc2_flags2 (byte 30)
	BloscFlags   uint8 // blosc2_flags (byte 31)
	HeaderLen    int   // 16 or 32
}

// Memcpyed reports whether the payload is stored raw after the header.
func (h *ChunkHeader) Memcpyed() bool { return h.Flags&flagMemcpyed != 0 }

// Split reports whether full blocks are stored as Typesize streams.
func (h *ChunkHeader) Split() bool { return h.Flags&flagDontSplit == 0 }

// VLBlocks reports whether this is a variable-length-blocks (version 6) chunk.
func (h *ChunkHeader) VLBlocks() bool { return h.Flags2&f2VLBlocks != 0 }

// HasDict reports whether a codec dictionary follows the block starts.
func (h *ChunkHeader) HasDict() bool {
	return h.HeaderLen == extendedHeaderLen && h.BloscFlags&bfDict != 0
}

// Special returns the special-chunk kind (SpecialNone for ordinary chunks).
func (h *ChunkHeader) Special() Special {
	if h.HeaderLen != extendedHeaderLen {
		return SpecialNone
	}
	return Special((h.BloscFlags >> 4) & 7)
}

// Codec returns the compressor of the streams. LZ4 and LZ4HC share one
// format; the compcode byte distinguishes them in extended headers.
func (h *ChunkHeader) Codec() Codec {
	switch h.Flags >> 5 {
	case 0:
		return BloscLZ
	case 1:
		if h.HeaderLen == extendedHeaderLen && Codec(h.UDCodec) == LZ4HC {
			return LZ4HC
		}
		return LZ4
	case 3:
		return Zlib
	case 4:
		return Zstd
	case 6:
		return Codec(h.UDCodec)
	}
	return Codec(0xff)
}

// NBlocks returns the number of blocks of a regular or VL-blocks chunk.
func (h *ChunkHeader) NBlocks() int {
	if h.VLBlocks() {
		return h.Blocksize
	}
	if h.Nbytes == 0 || h.Blocksize == 0 {
		return 0
	}
	return (h.Nbytes + h.Blocksize - 1) / h.Blocksize
}

// ParseChunkHeader decodes and validates the header at the start of src. It
// performs the checks of c-blosc2's read_chunk_header plus the ones needed so
// that later slicing cannot go out of bounds.
func ParseChunkHeader(src []byte) (ChunkHeader, error) {
	return parseChunkHeader(src, int64(len(src)))
}

// parseChunkHeader is ParseChunkHeader for a chunk of which src holds the
// first bytes (at least the header) and avail bytes are stored in all:
// cbytes is checked against avail.
func parseChunkHeader(src []byte, avail int64) (ChunkHeader, error) {
	var h ChunkHeader
	if len(src) < minHeaderLen {
		return h, corruptf("chunk header needs %d bytes, have %d", minHeaderLen, len(src))
	}
	h.Version = src[0]
	h.VersionLZ = src[1]
	h.Flags = src[2]
	h.Typesize = int(src[3])
	nbytes := int32(binary.LittleEndian.Uint32(src[4:]))
	blocksize := int32(binary.LittleEndian.Uint32(src[8:]))
	cbytes := int32(binary.LittleEndian.Uint32(src[12:]))
	h.HeaderLen = minHeaderLen
	switch {
	case h.Version < 2 || h.Version > 6:
		return h, corruptf("unknown chunk format version %d", h.Version)
	case nbytes < 0:
		return h, corruptf("negative nbytes %d", nbytes)
	case cbytes < minHeaderLen:
		return h, corruptf("cbytes %d smaller than the header", cbytes)
	case int64(cbytes) > avail:
		return h, corruptf("cbytes %d past the end of the buffer (%d bytes)", cbytes, avail)
	case blocksize <= 0:
		return h, corruptf("bad blocksize %d", blocksize)
	case blocksize > maxBlocksize:
		return h, corruptf("blocksize %d larger than the maximum %d", blocksize, maxBlocksize)
	case h.Typesize == 0:
		return h, corruptf("bad typesize 0")
	}
	h.Nbytes, h.Blocksize, h.Cbytes = int(nbytes), int(blocksize), int(cbytes)
	if h.Flags&(flagShuffle|flagBitShuffle) == flagShuffle|flagBitShuffle && h.Version >= 3 {
		if h.Cbytes < extendedHeaderLen || len(src) < extendedHeaderLen {
			return h, corruptf("cbytes %d too small for an extended header", h.Cbytes)
		}
		h.HeaderLen = extendedHeaderLen
		copy(h.Filters[:], src[16:22])
		h.UDCodec = src[22]
		h.CompcodeMeta = src[23]
		copy(h.FiltersMeta[:], src[24:30])
		h.Flags2 = src[30]
		h.BloscFlags = src[31]
		if h.Version == 3 {
			// Blosc2 alpha left the last slot uninitialised.
			h.Filters[5], h.FiltersMeta[5] = 0, 0
		}
		if h.Flags2&^f2VLBlocks != 0 {
			return h, corruptf("reserved bits %#02x set in blosc2_flags2", h.Flags2)
		}
		if h.BloscFlags&bfInstrument != 0 {
			return h, unsupportedf("instrumented chunk")
		}
		if h.BloscFlags&bfLazy != 0 {
			return h, corruptf("lazy chunk marker in stored chunk")
		}
		sp := h.Special()
		if sp > SpecialUninit {
			return h, corruptf("reserved special kind %d", sp)
		}
		if h.VLBlocks() {
			if sp != SpecialNone {
				return h, corruptf("VL-blocks chunk cannot be special")
			}
			if h.Memcpyed() {
				return h, corruptf("VL-blocks chunk cannot be memcpyed")
			}
		}
		switch sp {
		case SpecialValue:
			vlen := h.Cbytes - extendedHeaderLen
			if vlen <= 0 || vlen > h.Nbytes && h.Nbytes > 0 || h.Nbytes%vlen != 0 {
				return h, corruptf("repeated-value chunk: value length %d does not divide nbytes %d", vlen, h.Nbytes)
			}
		case SpecialNaN:
			if h.Typesize != 4 && h.Typesize != 8 {
				return h, corruptf("NaN chunk with typesize %d", h.Typesize)
			}
			if h.Nbytes%h.Typesize != 0 {
				return h, corruptf("nbytes %d not a multiple of typesize %d", h.Nbytes, h.Typesize)
			}
		}
	} else {
		// Blosc1 header: the pipeline is implied by the flags.
		if h.Flags&flagShuffle != 0 && h.Typesize > 1 {
			h.Filters[5] = FilterShuffle
		}
		if h.Flags&flagBitShuffle != 0 {
			h.Filters[5] = FilterBitShuffle
		}
		if h.Flags&flagDelta != 0 {
			h.Filters[4] = FilterDelta
		}
		h.UDCodec = uint8(h.Codec())
	}
	if !h.VLBlocks() && h.Nbytes > 0 && h.Blocksize > h.Nbytes {
		h.Blocksize = h.Nbytes
	}
	if !h.VLBlocks() && h.Typesize > 1 && h.Blocksize > h.Typesize && h.Blocksize < h.Nbytes && h.Blocksize%h.Typesize != 0 {
		// Blosc (1.x and 2.x alike) splits a chunk of several blocks only
		// at whole items: it rounds a requested blocksize down to a
		// multiple of the typesize before compressing. c-blosc2 3.3.2
		// records the requested one in the first chunk of a frame
		// (header_blocksize) and then cannot read that chunk back; its
		// blocks, bstarts and streams all follow the rounded size.
		h.Blocksize -= h.Blocksize % h.Typesize
	}
	return h, nil
}

// chunk is a validated view of one chunk: header, block starts and the
// optional dictionary, with every offset checked against Cbytes.
type chunk struct {
	ChunkHeader
	data    []byte // src[:Cbytes], or its prefix when win holds the streams
	nblocks int
	// win, when not nil, holds stored bytes [winLo, winLo+len(win)): the
	// blocks a partial read needs (chunkread.go), data then ending after
	// the prefix. Streams are read through stored.
	win   []byte
	winLo int
	dict  []byte
	// leftover is the size of the short last block (0 if all blocks are full).
	leftover int
	// ndBlock is the block shape of the b2nd array the chunk belongs to
	// (nil outside one): the NDCELL and NDMEAN filters need it.
	ndBlock []int
}

func parseChunk(src []byte) (chunk, error) {
	h, err := ParseChunkHeader(src)
	if err != nil {
		return chunk{}, err
	}
	return parseChunkBody(h, src[:h.Cbytes], false)
}

// parseChunkBody validates the chunk with header h whose first len(data)
// bytes are data: all Cbytes of them, or (chunkread.go) at least its
// prefix of header, block starts and dictionary, the streams then being
// read into chunk.win. startsChecked: these very block starts passed the
// checks before (a kept prefix, headcache.go), which are then not run
// again: they read every start of the chunk, for each block a scan reads.
func parseChunkBody(h ChunkHeader, data []byte, startsChecked bool) (chunk, error) {
	var c chunk
	c.ChunkHeader = h
	c.data = data
	if h.Special() != SpecialNone {
		return c, nil
	}
	if h.Memcpyed() {
		if h.Cbytes != h.Nbytes+h.HeaderLen {
			return c, corruptf("memcpyed chunk: cbytes %d != nbytes %d + header %d", h.Cbytes, h.Nbytes, h.HeaderLen)
		}
		return c, nil
	}
	if h.Nbytes == 0 {
		if !h.VLBlocks() {
			return c, nil
		}
	}
	switch h.Flags >> 5 {
	case 0, 1, 3, 4:
	case 6:
		if h.UDCodec != codecNDLZ {
			return c, unsupportedf("codec %s", udCodecName(h.Flags>>5, h.UDCodec))
		}
	default:
		return c, unsupportedf("codec %s", udCodecName(h.Flags>>5, h.UDCodec))
	}
	nb := h.NBlocks()
	// Every block needs at least a 4-byte start; this bounds nblocks by the input.
	if nb < 0 || nb > (h.Cbytes-h.HeaderLen)/4 {
		return c, corruptf("%d blocks do not fit in %d bytes", nb, h.Cbytes)
	}
	c.nblocks = nb
	if !h.VLBlocks() {
		c.leftover = h.Nbytes % h.Blocksize
	}
	pos := h.HeaderLen + 4*nb
	if pos > len(data) {
		return c, corruptf("%d block starts past the bytes read (%d)", nb, len(data))
	}
	if h.HasDict() {
		if pos+4 > len(data) {
			return c, corruptf("dictionary size past the end of the chunk")
		}
		dsize := int(int32(binary.LittleEndian.Uint32(c.data[pos:])))
		pos += 4
		if dsize <= 0 || dsize > len(data)-pos {
			return c, corruptf("bad dictionary size %d", dsize)
		}
		c.dict = c.data[pos : pos+dsize]
		pos += dsize
	}
	// Block starts may point anywhere after the header (blocks can be
	// stored out of order), but never before the streams or past the end.
	if startsChecked && !h.VLBlocks() {
		return c, nil
	}
	var total int
	for i := 0; i < nb; i++ {
		bs := int(int32(binary.LittleEndian.Uint32(c.data[h.HeaderLen+4*i:])))
		if bs < pos || bs+4 > h.Cbytes {
			return c, corruptf("block %d start %d outside [%d, %d)", i, bs, pos, h.Cbytes)
		}
		if h.VLBlocks() {
			if len(data) < h.Cbytes {
				return c, corruptf("VL-blocks chunk read in part")
			}
			end := h.Cbytes
			if i+1 < nb {
				end = int(int32(binary.LittleEndian.Uint32(c.data[h.HeaderLen+4*(i+1):])))
			}
			if end < bs+4 || end > h.Cbytes {
				return c, corruptf("VL block %d spans [%d, %d)", i, bs, end)
			}
			us := int(int32(binary.LittleEndian.Uint32(c.data[bs:])))
			if us < 0 || us > h.Nbytes-total {
				return c, corruptf("VL block %d size %d exceeds nbytes %d", i, us, h.Nbytes)
			}
			total += us
		}
	}
	if h.VLBlocks() && total != h.Nbytes {
		return c, corruptf("VL block sizes sum to %d, nbytes is %d", total, h.Nbytes)
	}
	return c, nil
}

// stored returns the stored bytes from offset p to the end of what was
// read: a suffix of data, or of win when the chunk was read in part.
func (c *chunk) stored(p int) ([]byte, error) {
	if c.win == nil {
		return c.data[p:], nil
	}
	if p < c.winLo || p > c.winLo+len(c.win) {
		return nil, corruptf("offset %d outside the bytes read [%d, %d)", p, c.winLo, c.winLo+len(c.win))
	}
	return c.win[p-c.winLo:], nil
}

// bstart returns the stored start offset of block i (validated by parseChunk).
func (c *chunk) bstart(i int) int {
	return int(int32(binary.LittleEndian.Uint32(c.data[c.HeaderLen+4*i:])))
}

// blockSize returns the uncompressed size of regular block i.
func (c *chunk) blockSize(i int) int {
	if i == c.nblocks-1 && c.leftover != 0 {
		return c.leftover
	}
	return c.Blocksize
}

// udCodecName names the codec of a chunk whose 3-bit format code this
// package cannot decode: c-blosc2's plugin and user codecs (format 6) by
// their compcode, anything else by its numbers.
func udCodecName(format, compcode uint8) string {
	if format != 6 {
		return fmt.Sprintf("format %d (compcode %d)", format, compcode)
	}
	switch compcode {
	case 32:
		return "NDLZ (compcode 32, a b2nd plugin codec)"
	case 33:
		return "ZFP fixed-accuracy (compcode 33, a plugin codec)"
	case 34:
		return "ZFP fixed-precision (compcode 34, a plugin codec)"
	case 35:
		return "ZFP fixed-rate (compcode 35, a plugin codec)"
	case 36:
		return "OpenHTJ2K (compcode 36, a plugin codec)"
	case 37:
		return "Grok JPEG 2000 (compcode 37, a plugin codec)"
	}
	return fmt.Sprintf("user-defined codec %d", compcode)
}
