package b2

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/vmihailenco/msgpack/v5"
)

// Frame header layout (c-blosc2 README_CFRAME_FORMAT.rst, blosc/frame.h).
const (
	frameFixedLen   = 87
	frameTrailerMin = 23
	frameMagic      = "b2frame\x00"

	// maxOffsetsRatio bounds how much the offsets chunk may expand
	// relative to its stored size before we refuse to materialise it.
	maxOffsetsRatio = 4096
	// maxVLMetaRatio bounds a vlmetalayer's expansion the same way, past
	// vlmetaSlack: metadata (msgpack schemas, catalogs) compresses a few
	// times to a few dozen times, not thousands (a 1 KB vlmeta claiming 5
	// MB made a manifest check allocate 7 MB, FuzzManifestFrame).
	maxVLMetaRatio = 256
	vlmetaSlack    = 1 << 20
	maxMetaName    = 31
)

// FrameHeader holds the fixed part of a frame header. The cparams fields
// (Codec, CLevel, Filters…) are only defaults for appends: every chunk is
// self-describing.
type FrameHeader struct {
	HeaderLen      int
	FrameLen       int64
	GeneralFlags   uint8 // bits 0-3 version, 4-5 offset width, 6 variable chunks, 7 VL blocks
	FrameType      uint8 // 0 contiguous, 1 sparse
	Codec          Codec
	CLevel         int
	OtherFlags     uint8 // bits 0-1 = splitmode-1
	Nbytes         int64
	Cbytes         int64
	Typesize       int
	Blocksize      int
	Chunksize      int // 0 = variable
	NThreadsComp   int
	NThreadsDecomp int
	HasVLMeta      bool
	Filters        [6]uint8
	UDCodec        uint8
	CompcodeMeta   uint8
	FiltersMeta    [6]uint8
	OtherFlags2    uint8 // bit 0 = use_dict
}

// SplitMode returns the c-blosc2 splitmode (1 ALWAYS, 2 NEVER, 3 AUTO, 4 FORWARD_COMPAT).
func (h *FrameHeader) SplitMode() int { return int(h.OtherFlags&3) + 1 }

// Metalayer is a named metadata value: fixed metalayers live in the
// header (content usually msgpack), vlmetalayers in the trailer.
type Metalayer struct {
	Name    string
	Content []byte
}

// Frame is an opened Blosc2 frame (contiguous file, sparse directory, or a
// byte slice). Its methods are safe for concurrent use; byte slices it
// returns alias the mapped file and are valid until Close.
type Frame struct {
	Header FrameHeader
	// Meta lists the fixed metalayers in header order.
	Meta []Metalayer
	// vlmeta holds the trailer values still compressed (each is a chunk).
	vlmeta []Metalayer

	name     string
	data     []byte // the frame (contiguous) or the index file (sparse)
	dir      string // sparse directory, "" when contiguous
	nchunks  int
	offsets  []int64 // nil when offsetsConst is used
	offConst int64
	release  func() error
	// file, when set, is where chunk bytes are read with pread instead of
	// through data (chunkread.go says why).
	file *chunkFile
	// ndBlock is the block shape from a valid "b2nd" metalayer, nil
	// without one; chunks carry it to the filters that need it.
	ndBlock []int
}

// Open opens a contiguous frame file (.b2frame, .b2nd, .b2f, …) with mmap,
// or a sparse frame directory (chunks.b2frame + %08X.chunk files). Close
// the Frame to unmap.
func Open(path string) (*Frame, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("b2: %w", err)
	}
	idx := path
	if st.IsDir() {
		idx = filepath.Join(path, "chunks.b2frame")
	}
	m, err := MapFile(idx)
	if err != nil {
		return nil, fmt.Errorf("b2: %w", err)
	}
	f, err := parseFrame(m.Data, path)
	if err != nil {
		m.Close()
		return nil, err
	}
	f.release = m.Close
	if m.File != nil && !st.IsDir() {
		f.file = &chunkFile{ra: m.File}
	}
	if st.IsDir() {
		if f.Header.FrameType != 1 {
			f.Close()
			return nil, fileError(path, corruptf("chunks.b2frame is not a sparse frame index"))
		}
		f.dir = path
	} else if f.Header.FrameType != 0 {
		f.Close()
		return nil, fileError(path, corruptf("sparse frame index opened as a contiguous frame"))
	}
	m.DropResident() // the header, offsets and trailer are parsed
	return f, nil
}

// NewFrame parses a contiguous frame held in data, for example a STORED
// member of a .b2z zip inside a larger mapped file. name is used in error
// messages. data must stay unmodified while the Frame is used; Close on the
// result is a no-op for the bytes.
func NewFrame(data []byte, name string) (*Frame, error) {
	f, err := parseFrame(data, name)
	if err != nil {
		return nil, err
	}
	if f.Header.FrameType != 0 {
		return nil, fileError(name, corruptf("sparse frame index needs its directory"))
	}
	return f, nil
}

// NewFileFrame is NewFrame for data that is bytes [base, base+len(data))
// of ra, for example a STORED .b2z member inside the mapped zip: chunk
// bytes are then read from ra with pread (chunkread.go says why), data
// serves only the header, offsets and metadata.
func NewFileFrame(data []byte, name string, ra io.ReaderAt, base int64) (*Frame, error) {
	f, err := NewFrame(data, name)
	if err == nil {
		f.file = &chunkFile{ra: ra, base: base}
	}
	return f, err
}

// ChunkCbytes returns the stored size of chunk i: 0 for a special chunk
// that its offset alone describes. From a file it reads only the chunk
// header (with pread: see chunkread.go).
func (f *Frame) ChunkCbytes(i int) (int, error) {
	if f.file == nil || f.dir != "" || i < 0 || i >= f.nchunks {
		src, err := f.ChunkData(i)
		return len(src), err
	}
	off := f.ChunkOffset(i)
	if off < 0 {
		return 0, nil
	}
	pos := int64(f.Header.HeaderLen) + off
	avail := int64(f.Header.HeaderLen) + f.Header.Cbytes - pos // checkOffset: ≥ minHeaderLen
	var buf [extendedHeaderLen]byte
	hdr := buf[:min(avail, extendedHeaderLen)]
	err := readFull(f.file.ra, hdr, f.file.base+pos)
	var h ChunkHeader
	if err == nil {
		h, err = parseChunkHeader(hdr, avail)
	}
	if err != nil {
		return 0, chunkError(f.name, i, pos, err)
	}
	return h.Cbytes, nil
}

// OnClose makes Close call fn (once), for a frame that owns what it reads
// from (OpenReaderAt over a remote object of its own).
func (f *Frame) OnClose(fn func() error) { f.release = fn }

// Close releases the mapping of a file opened with Open. Safe to call twice.
func (f *Frame) Close() error {
	if f.release == nil {
		return nil
	}
	r := f.release
	f.release = nil
	return r()
}

// Name returns the path or name the frame was opened with.
func (f *Frame) Name() string { return f.name }

// NChunks returns the number of chunks.
func (f *Frame) NChunks() int { return f.nchunks }

// Bytes returns the raw frame bytes (the index file for sparse frames).
func (f *Frame) Bytes() []byte { return f.data }

func parseFrame(data []byte, name string) (*Frame, error) {
	f := &Frame{name: name}
	if err := f.parse(data); err != nil {
		return nil, fileError(name, err)
	}
	return f, nil
}

func (f *Frame) parse(data []byte) error {
	if err := f.parseFixed(data, int64(len(data))); err != nil {
		return err
	}
	data = data[:f.Header.FrameLen]
	f.data = data
	end := f.dataEnd()
	if end > f.Header.FrameLen-frameTrailerMin {
		return corruptf("trailer does not fit (frame %d, data end %d)", f.Header.FrameLen, end)
	}
	return f.parseRegions(data[:f.Header.HeaderLen], data[end:], end)
}

// dataEnd is where the chunks end in a contiguous frame (the index of a
// sparse one holds none): the offsets chunk and the trailer follow.
func (f *Frame) dataEnd() int64 {
	end := int64(f.Header.HeaderLen)
	if f.Header.FrameType == 0 {
		end += f.Header.Cbytes
	}
	return end
}

// parseFixed reads the fixed part of the frame header from data (at least
// its first frameFixedLen bytes) of a frame stored in size bytes, and
// checks its sizes against size.
func (f *Frame) parseFixed(data []byte, size int64) error {
	if size < frameFixedLen+frameTrailerMin || len(data) < frameFixedLen {
		return corruptf("frame of %d bytes is too short", size)
	}
	// Check every fixed msgpack marker: a wrong one means this is not a
	// frame (or a frame from an unknown future layout).
	markers := [...]struct {
		off int
		b   byte
	}{{0, 0x9e}, {1, 0xa8}, {10, 0xd2}, {15, 0xcf}, {24, 0xa4}, {29, 0xd3}, {38, 0xd3},
		{47, 0xd2}, {52, 0xd2}, {57, 0xd2}, {62, 0xd1}, {65, 0xd1}, {69, 0xd8}}
	for _, m := range markers {
		if data[m.off] != m.b {
			return corruptf("frame header: byte %d is %#02x, want %#02x", m.off, data[m.off], m.b)
		}
	}
	if string(data[2:10]) != frameMagic {
		return corruptf("bad frame magic %q", data[2:10])
	}
	be := binary.BigEndian
	h := &f.Header
	h.HeaderLen = int(int32(be.Uint32(data[11:])))
	h.FrameLen = int64(be.Uint64(data[16:]))
	h.GeneralFlags = data[25]
	h.FrameType = data[26] & 0x0f
	h.Codec = Codec(data[27] & 0x0f)
	h.CLevel = int(data[27] >> 4)
	h.OtherFlags = data[28]
	h.Nbytes = int64(be.Uint64(data[30:]))
	h.Cbytes = int64(be.Uint64(data[39:]))
	h.Typesize = int(int32(be.Uint32(data[48:])))
	h.Blocksize = int(int32(be.Uint32(data[53:])))
	h.Chunksize = int(int32(be.Uint32(data[58:])))
	h.NThreadsComp = int(int16(be.Uint16(data[63:])))
	h.NThreadsDecomp = int(int16(be.Uint16(data[66:])))
	switch data[68] {
	case 0xc3:
		h.HasVLMeta = true
	case 0xc2:
	default:
		return corruptf("frame header: byte 68 is %#02x, want a msgpack bool", data[68])
	}
	copy(h.Filters[:], data[71:77])
	h.UDCodec = data[77]
	h.CompcodeMeta = data[78]
	copy(h.FiltersMeta[:], data[79:85])
	h.OtherFlags2 = data[85]

	switch {
	case h.GeneralFlags&0x0f > 3:
		return corruptf("unknown frame format version %d", h.GeneralFlags&0x0f)
	case (h.GeneralFlags>>4)&3 != 1:
		return unsupportedf("frame offset width code %d", (h.GeneralFlags>>4)&3)
	case h.FrameType > 1:
		return corruptf("unknown frame type %d", h.FrameType)
	case h.HeaderLen < frameFixedLen || int64(h.HeaderLen) > size:
		return corruptf("header_len %d outside [%d, %d]", h.HeaderLen, frameFixedLen, size)
	case h.FrameLen < int64(h.HeaderLen)+frameTrailerMin || h.FrameLen > size:
		return corruptf("frame_len %d outside [%d, %d]", h.FrameLen, h.HeaderLen+frameTrailerMin, size)
	case h.Nbytes < 0 || h.Cbytes < 0 || h.FrameType == 0 && h.Cbytes > h.FrameLen:
		return corruptf("negative nbytes %d or cbytes %d", h.Nbytes, h.Cbytes)
	case h.Typesize <= 0:
		return corruptf("bad typesize %d", h.Typesize)
	case h.Chunksize < 0 || h.Blocksize < 0:
		return corruptf("bad chunksize %d or blocksize %d", h.Chunksize, h.Blocksize)
	}
	return nil
}

// parseRegions parses what a frame keeps outside its chunks: head, the
// header (metalayers), and tail, the frame's bytes from its data end
// (frame offset tailAt: the offsets chunk, then the trailer with the
// vlmeta). A frame read from a server fetches just these two ranges.
func (f *Frame) parseRegions(head, tail []byte, tailAt int64) error {
	h := &f.Header
	if h.HeaderLen > frameFixedLen {
		meta, err := parseMetaSection(head[:h.HeaderLen], frameFixedLen, 0)
		if err != nil {
			return fmt.Errorf("metalayers: %w", err)
		}
		f.Meta = meta
		if b, ok := f.MetaContent("b2nd"); ok {
			// A bad metalayer is reported by whoever opens the array;
			// here it only means no block shape for the filters.
			if m, err := ParseB2ndMeta(b); err == nil && len(m.BlockShape) > 0 {
				f.ndBlock = m.BlockShape
			}
		}
	}

	// Trailer: read backwards from its fixed 23-byte tail.
	if int64(len(tail)) != h.FrameLen-tailAt || len(tail) < frameTrailerMin {
		return corruptf("trailer_len does not fit (frame %d, data end %d)", h.FrameLen, tailAt)
	}
	be := binary.BigEndian
	fixed := tail[len(tail)-frameTrailerMin:]
	if fixed[0] != 0xce || fixed[5] != 0xd8 {
		return corruptf("trailer: bad fixed tail")
	}
	tlen := int64(be.Uint32(fixed[1:]))
	tstart := h.FrameLen - tlen
	if tlen < frameTrailerMin || tstart < tailAt {
		return corruptf("trailer_len %d does not fit (frame %d, data end %d)", tlen, h.FrameLen, tailAt)
	}
	vl, err := parseTrailer(tail[tstart-tailAt:])
	if err != nil {
		return fmt.Errorf("trailer: %w", err)
	}
	f.vlmeta = vl

	return f.parseOffsets(tail[:tstart-tailAt], tailAt)
}

// parseMetaSection parses `0x93 │ 0xCD map_size │ map16{name: i32 off} │
// array16[bin32]` starting at start. Offsets in the map are relative to
// base (0 = frame start for the header, the trailer start for vlmeta);
// values are located through them, as c-blosc2 does.
func parseMetaSection(b []byte, start int, base int) ([]Metalayer, error) {
	r := &mpReader{b: b, p: start}
	r.expect(0x93)
	r.expect(0xcd)
	r.u16() // map_size: informational
	n := r.mapLen()
	if r.err != nil {
		return nil, r.err
	}
	if n > len(b)/6 { // a name and an offset take ≥ 6 bytes
		return nil, corruptf("%d metalayers cannot fit", n)
	}
	metas := make([]Metalayer, 0, n)
	for i := 0; i < n; i++ {
		name := r.str()
		off := r.int()
		if r.err != nil {
			return nil, r.err
		}
		if len(name) > maxMetaName {
			return nil, corruptf("metalayer name %q longer than %d bytes", name, maxMetaName)
		}
		rel := off - int64(base)
		if rel < 0 || rel >= int64(len(b)) {
			return nil, corruptf("metalayer %q offset %d out of range", name, off)
		}
		vr := &mpReader{b: b, p: int(rel)}
		content := vr.bin()
		if vr.err != nil {
			return nil, fmt.Errorf("metalayer %q: %w", name, vr.err)
		}
		// A copy: the frame's bytes may be a mapping whose pages Open
		// drops once parsed (Mapping.DropResident).
		metas = append(metas, Metalayer{Name: name, Content: bytes.Clone(content)})
	}
	// The values array must agree in count with the map.
	if m := r.arrayLen(); r.err == nil && m != n {
		return nil, corruptf("metalayer map has %d names but %d values", n, m)
	}
	if r.err != nil {
		return nil, r.err
	}
	return metas, nil
}

func parseTrailer(t []byte) ([]Metalayer, error) {
	if len(t) < 2+frameTrailerMin || t[0] != 0x94 {
		return nil, corruptf("bad trailer start")
	}
	if t[1] != 1 {
		return nil, corruptf("unknown trailer version %d", t[1])
	}
	return parseMetaSection(t[:len(t)-frameTrailerMin], 2, 0)
}

// parseOffsets locates, decodes and validates the offsets chunk.
func (f *Frame) parseOffsets(src []byte, pos int64) error {
	h := &f.Header
	var n int64
	switch {
	case h.Nbytes == 0:
		return nil
	case h.Chunksize > 0:
		n = (h.Nbytes + int64(h.Chunksize) - 1) / int64(h.Chunksize)
	}
	if len(src) < minHeaderLen {
		return corruptf("offsets chunk at %d past the data end %d", pos, pos+int64(len(src)))
	}
	c, err := parseChunk(src)
	if err != nil {
		return chunkError(f.name, -1, pos, err)
	}
	if h.Chunksize == 0 {
		n = int64(c.Nbytes / 8)
		if h.GeneralFlags&0x40 == 0 {
			return corruptf("chunksize 0 without the variable-chunks flag")
		}
	}
	if n <= 0 || n > int64(c.Nbytes)/8 {
		return corruptf("offsets chunk holds %d bytes, need %d chunks", c.Nbytes, n)
	}
	f.nchunks = int(n)
	switch sp := c.Special(); sp {
	case SpecialValue, SpecialZeros:
		// All chunks share one offset (b2nd_zeros: every chunk special).
		var v [8]byte
		fillSpecial(&c, v[:], 0)
		f.offConst = int64(binary.LittleEndian.Uint64(v[:]))
		return f.checkOffset(f.offConst)
	case SpecialNone:
	default:
		return corruptf("offsets chunk is special kind %d", sp)
	}
	if int64(c.Nbytes) > int64(c.Cbytes)*maxOffsetsRatio+1<<20 {
		return corruptf("offsets chunk expands %d→%d bytes", c.Cbytes, c.Nbytes)
	}
	buf := make([]byte, n*8)
	d := getDecoder()
	err = d.rangeOf(&c, buf, 0)
	putDecoder(d)
	if err != nil {
		return chunkError(f.name, -1, pos, err)
	}
	f.offsets = make([]int64, n)
	for i := range f.offsets {
		f.offsets[i] = int64(binary.LittleEndian.Uint64(buf[8*i:]))
		if err := f.checkOffset(f.offsets[i]); err != nil {
			return fmt.Errorf("chunk %d: %w", i, err)
		}
	}
	return nil
}

// checkOffset validates one offsets-chunk entry without touching the chunk.
func (f *Frame) checkOffset(off int64) error {
	if off < 0 {
		switch kind := Special(uint64(off)>>56) & 0x7f; kind {
		case SpecialZeros, SpecialNaN, SpecialUninit:
			if f.Header.Chunksize == 0 {
				return corruptf("special offset %#x in a variable-chunksize frame", uint64(off))
			}
			if kind == SpecialNaN && f.Header.Typesize != 4 && f.Header.Typesize != 8 {
				return corruptf("NaN chunk with typesize %d", f.Header.Typesize)
			}
			return nil
		default:
			return corruptf("reserved special offset %#x", uint64(off))
		}
	}
	if f.Header.FrameType == 0 && off > f.Header.Cbytes-minHeaderLen {
		return corruptf("chunk offset %d past the chunk area (%d bytes)", off, f.Header.Cbytes)
	}
	if f.Header.FrameType == 1 && off > 0xffffffff {
		return corruptf("sparse chunk number %d too large", off)
	}
	return nil
}

// ChunkOffset returns the offsets-chunk entry of chunk i: the offset after
// the header (contiguous), the chunk file number (sparse), or a negative
// special-chunk marker (see ChunkSpecial).
func (f *Frame) ChunkOffset(i int) int64 {
	if f.offsets == nil {
		return f.offConst
	}
	return f.offsets[i]
}

// ChunkSpecial returns the special kind encoded in chunk i's offset, or
// SpecialNone when the chunk is stored (it may still be a special chunk by
// its own header, like repeated-value chunks).
func (f *Frame) ChunkSpecial(i int) Special {
	off := f.ChunkOffset(i)
	if off >= 0 {
		return SpecialNone
	}
	return Special(uint64(off)>>56) & 0x7f
}

// ChunkNbytes returns the uncompressed size of chunk i implied by the
// frame header (every chunk but a short last one has Chunksize bytes). For
// variable-chunksize frames it reads the chunk header.
func (f *Frame) ChunkNbytes(i int) (int, error) {
	if i < 0 || i >= f.nchunks {
		return 0, fmt.Errorf("b2: %s: chunk %d out of range [0, %d)", f.name, i, f.nchunks)
	}
	cs := int64(f.Header.Chunksize)
	if cs > 0 {
		if i == f.nchunks-1 {
			return int(f.Header.Nbytes - cs*int64(i)), nil
		}
		return int(cs), nil
	}
	src, err := f.ChunkData(i)
	if err != nil {
		return 0, err
	}
	return ChunkNbytes(src)
}

// ChunkData returns the stored bytes of chunk i (a synthesized 32-byte
// special chunk for special offsets). For contiguous frames the slice
// aliases the mapping; for sparse frames it is read from the chunk file.
func (f *Frame) ChunkData(i int) ([]byte, error) {
	if i < 0 || i >= f.nchunks {
		return nil, fmt.Errorf("b2: %s: chunk %d out of range [0, %d)", f.name, i, f.nchunks)
	}
	off := f.ChunkOffset(i)
	if off < 0 {
		return putSpecialChunk(nil, f.specialOf(i)), nil
	}
	var src []byte
	var pos int64
	if f.dir != "" {
		p := filepath.Join(f.dir, fmt.Sprintf("%08X.chunk", off))
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, chunkError(f.name, i, off, err)
		}
		src = b
	} else if f.data == nil {
		// A frame read through ranges (OpenReaderAt) holds no chunk bytes.
		return f.ReadChunkData(i, nil)
	} else {
		pos = int64(f.Header.HeaderLen) + off
		src = f.data[pos : int64(f.Header.HeaderLen)+f.Header.Cbytes]
	}
	h, err := ParseChunkHeader(src)
	if err != nil {
		return nil, chunkError(f.name, i, pos, err)
	}
	if cs := f.Header.Chunksize; cs > 0 {
		// Fixed-size frames: every chunk has chunksize bytes but a short last one.
		want, _ := f.ChunkNbytes(i)
		if h.Nbytes != want {
			return nil, chunkError(f.name, i, pos, corruptf("nbytes %d, frame geometry says %d", h.Nbytes, want))
		}
	}
	return src[:h.Cbytes], nil
}

// specialSpec is what a special offset says of its chunk.
type specialSpec struct {
	kind             Special
	nbytes, typesize int
}

// specialOf returns the special chunk that chunk i's (negative) offset
// stands for.
func (f *Frame) specialOf(i int) specialSpec {
	nb := f.Header.Chunksize
	if i == f.nchunks-1 {
		nb = int(f.Header.Nbytes - int64(f.Header.Chunksize)*int64(i))
	}
	return specialSpec{Special(uint64(f.ChunkOffset(i))>>56) & 0x7f, nb, f.Header.Typesize}
}

// specialChunk synthesizes the header-only chunk a special offset stands for.
func specialChunk(kind Special, nbytes, typesize int) []byte {
	return putSpecialChunk(nil, specialSpec{kind, nbytes, typesize})
}

// putSpecialChunk appends the header-only chunk sp to b.
func putSpecialChunk(b []byte, sp specialSpec) []byte {
	kind, nbytes, typesize := sp.kind, sp.nbytes, sp.typesize
	b = append(b, make([]byte, extendedHeaderLen)...)[len(b):]
	b[0], b[1], b[2] = 5, 1, flagShuffle|flagBitShuffle
	b[3] = byte(min(max(typesize, 1), maxTypesize))
	binary.LittleEndian.PutUint32(b[4:], uint32(nbytes))
	binary.LittleEndian.PutUint32(b[8:], uint32(max(nbytes, 1)))
	binary.LittleEndian.PutUint32(b[12:], extendedHeaderLen)
	b[31] = byte(kind) << 4
	return b
}

// DecompressChunk decodes chunk i into dst (len ≥ its nbytes) and returns
// the number of bytes written. d may be nil (a pooled Decoder is used).
func (f *Frame) DecompressChunk(d *Decoder, dst []byte, i int) (int, error) {
	if d == nil {
		d = getDecoder()
		defer putDecoder(d)
	}
	c, err := f.loadChunk(d, i, 0, -1)
	if err != nil {
		return 0, err
	}
	if len(dst) < c.Nbytes {
		return 0, chunkError(f.name, i, f.chunkPos(i), shortDst(len(dst), c.Nbytes))
	}
	if err := d.decodeChunk(&c, dst[:c.Nbytes]); err != nil {
		return 0, chunkError(f.name, i, f.chunkPos(i), err)
	}
	return c.Nbytes, nil
}

// DecompressChunkRange decodes bytes [off, off+len(dst)) of chunk i,
// touching only the blocks that hold them. d may be nil.
func (f *Frame) DecompressChunkRange(d *Decoder, dst []byte, i, off int) error {
	if d == nil {
		d = getDecoder()
		defer putDecoder(d)
	}
	c, err := f.loadChunk(d, i, off, len(dst))
	if err != nil {
		return err
	}
	if off < 0 || off > c.Nbytes || len(dst) > c.Nbytes-off {
		err = fmt.Errorf("b2: range [%d, %d+%d) outside chunk of %d bytes", off, off, len(dst), c.Nbytes)
	} else {
		err = d.rangeOf(&c, dst, off)
	}
	return chunkError(f.name, i, f.chunkPos(i), err)
}

// chunkPos returns the absolute offset of chunk i in the frame, for errors.
func (f *Frame) chunkPos(i int) int64 {
	off := f.ChunkOffset(i)
	if off < 0 || f.dir != "" {
		return off
	}
	return int64(f.Header.HeaderLen) + off
}

// MetaContent returns the content of the fixed metalayer name.
func (f *Frame) MetaContent(name string) ([]byte, bool) {
	for _, m := range f.Meta {
		if m.Name == name {
			return m.Content, true
		}
	}
	return nil, false
}

// VLMetaNames returns the vlmetalayer names, sorted.
func (f *Frame) VLMetaNames() []string {
	names := make([]string, len(f.vlmeta))
	for i, m := range f.vlmeta {
		names[i] = m.Name
	}
	sort.Strings(names)
	return names
}

// VLMeta returns the decompressed bytes of vlmetalayer name (by convention
// msgpack) and whether it exists.
func (f *Frame) VLMeta(name string) ([]byte, bool, error) {
	for _, m := range f.vlmeta {
		if m.Name != name {
			continue
		}
		nb, err := ChunkNbytes(m.Content)
		if err != nil {
			return nil, true, fileError(f.name, fmt.Errorf("vlmeta %q: %w", name, err))
		}
		if nb > len(m.Content)*maxVLMetaRatio+vlmetaSlack {
			return nil, true, fileError(f.name, fmt.Errorf("vlmeta %q: %w", name, corruptf("expands %d→%d bytes", len(m.Content), nb)))
		}
		out := make([]byte, nb)
		if _, err := Decompress(out, m.Content); err != nil {
			return nil, true, fileError(f.name, fmt.Errorf("vlmeta %q: %w", name, err))
		}
		return out, true, nil
	}
	return nil, false, nil
}

// VLMetaValue decodes vlmetalayer name as msgpack into a Go value (maps
// decode as map[string]any, python-blosc2 tuples as ["__tuple__", …]).
func (f *Frame) VLMetaValue(name string) (any, error) {
	b, ok, err := f.VLMeta(name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("b2: %s: no vlmeta %q", f.name, name)
	}
	var v any
	if err := msgpack.Unmarshal(b, &v); err != nil {
		return nil, fileError(f.name, fmt.Errorf("vlmeta %q: %w", name, corruptf("msgpack: %v", err)))
	}
	return v, nil
}
