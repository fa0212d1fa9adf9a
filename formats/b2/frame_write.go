package b2

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/b2sql/b2sql/internal/fsmode"
	"io"
	"os"
	"path/filepath"
)

// FrameOptions configure CreateFrame. The zero value writes zstd clevel 1
// + shuffle chunks of typesize 1 with a chunk size taken from the first
// chunk.
type FrameOptions struct {
	// CParams compress the chunks given to Append; nil means
	// DefaultCParams(Typesize). Its codec, clevel, filters and split mode
	// are also recorded in the frame header as defaults for readers.
	CParams *CParams
	// Typesize is the item size recorded in the header (used when CParams
	// is nil; otherwise CParams.Typesize wins). 0 means 1.
	Typesize int
	// Chunksize is the uncompressed size of every chunk but the last; 0
	// means "the size of the first chunk". Only with a declared Chunksize
	// are all-zero/NaN chunks stored as special offsets (no bytes).
	Chunksize int
	// Blocksize is recorded in the header (0 = automatic per chunk).
	Blocksize int
	// Meta are fixed metalayers (content by convention msgpack).
	Meta []Metalayer
	// VLMeta are variable-length metalayers; each value is stored as a
	// compressed chunk in the trailer.
	VLMeta []Metalayer
}

// FrameWriter writes a contiguous frame sequentially to a temporary file
// that Close renames into place, so readers never see a partial file.
// Memory use is one compressed chunk (per worker for AppendBuffer) plus the
// chunk offsets. Not safe for concurrent use.
type FrameWriter struct {
	path, tmp  string
	f          *os.File
	w          *bufio.Writer
	p          CParams
	opts       FrameOptions
	headerLen  int
	metaOff    []int // absolute offset of each fixed metalayer's content
	pos        int64 // bytes after the header written so far
	nbytes     int64
	offsets    []int64
	chunksize  int  // first chunk's nbytes
	short      bool // a chunk shorter than chunksize was appended
	variable   bool
	enc        *Encoder
	buf        []byte
	vlmeta     []Metalayer
	closed     bool
	metaUpdate map[string][]byte
}

// CreateFrame starts writing a contiguous frame at path.
func CreateFrame(path string, opts *FrameOptions) (*FrameWriter, error) {
	var o FrameOptions
	if opts != nil {
		o = *opts
	}
	var p CParams
	if o.CParams != nil {
		p = *o.CParams
	} else {
		p = DefaultCParams(max(o.Typesize, 1))
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	if len(o.Meta) > 16 || len(o.VLMeta) > 16 {
		return nil, fmt.Errorf("b2: at most 16 metalayers and 16 vlmetalayers")
	}
	for _, m := range append(append([]Metalayer(nil), o.Meta...), o.VLMeta...) {
		if len(m.Name) == 0 || len(m.Name) > maxMetaName {
			return nil, fmt.Errorf("b2: metalayer name %q must have 1 to %d bytes", m.Name, maxMetaName)
		}
	}
	tf, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("b2: %w", err)
	}
	fw := &FrameWriter{path: path, tmp: tf.Name(), f: tf, w: bufio.NewWriterSize(tf, 1<<20),
		p: p, opts: o, chunksize: o.Chunksize, enc: NewEncoder(), vlmeta: append([]Metalayer(nil), o.VLMeta...)}
	hdr := fw.header()
	if _, err := fw.w.Write(hdr); err != nil {
		fw.Abort()
		return nil, fmt.Errorf("b2: %w", err)
	}
	return fw, nil
}

// header builds the frame header; nbytes, cbytes, frame_len and chunksize
// are patched by Close (their encodings have fixed widths).
func (fw *FrameWriter) header() []byte {
	w := &mpWriter{}
	w.u8(0x9e)
	w.u8(0xa8)
	w.raw([]byte(frameMagic))
	w.i32(0) // header_len, patched below
	w.u8(0xcf)
	w.raw(make([]byte, 8)) // frame_len
	w.u8(0xa4)
	w.u8(0x12) // version 2, 64-bit offsets
	w.u8(0)    // contiguous
	w.u8(byte(fw.p.Codec) | byte(fw.p.CLevel)<<4)
	sm := fw.p.SplitMode
	if sm == 0 {
		sm = SplitForwardCompat
	}
	w.u8(byte(sm - 1))
	w.i64(0) // nbytes
	w.i64(0) // cbytes
	w.i32(int32(fw.p.Typesize))
	w.i32(int32(fw.opts.Blocksize))
	w.i32(0) // chunksize
	w.u8(0xd1)
	w.raw([]byte{0, 1})
	w.u8(0xd1)
	w.raw([]byte{0, 1})
	w.u8(0xc2) // has vlmeta, patched
	w.u8(0xd8)
	w.u8(6)
	w.raw(fw.p.Filters[:])
	w.u8(byte(fw.p.Codec))
	w.u8(0)
	w.raw(fw.p.FiltersMeta[:])
	w.u8(0) // other_flags2: no dict
	w.u8(0)
	// Metalayers: map of name → absolute offset of the bin32 value.
	metas := fw.opts.Meta
	mapSize := 7
	for _, m := range metas {
		mapSize += 1 + len(m.Name) + 5
	}
	w.u8(0x93)
	w.u16m(mapSize)
	w.u8(0xde)
	w.raw([]byte{0, byte(len(metas))})
	valuesStart := len(w.b)
	for _, m := range metas {
		valuesStart += 1 + len(m.Name) + 5
	}
	valuesStart += 3 // array16 marker
	off := valuesStart
	fw.metaOff = fw.metaOff[:0]
	for _, m := range metas {
		w.fixstr(m.Name)
		w.i32(int32(off))
		fw.metaOff = append(fw.metaOff, off+5)
		off += 5 + len(m.Content)
	}
	w.u8(0xdc)
	w.raw([]byte{0, byte(len(metas))})
	for _, m := range metas {
		w.bin32(m.Content)
	}
	fw.headerLen = len(w.b)
	binary.BigEndian.PutUint32(w.b[11:], uint32(fw.headerLen))
	return w.b
}

// Append compresses data as the next chunk.
func (fw *FrameWriter) Append(data []byte) error {
	var err error
	fw.buf, err = fw.enc.Compress(fw.buf, data, &fw.p)
	if err != nil {
		return err
	}
	return fw.AppendChunk(fw.buf)
}

// AppendBuffer splits data into Chunksize pieces (the last may be short)
// and compresses them on all cores, writing them in order.
func (fw *FrameWriter) AppendBuffer(data []byte) error {
	cs := fw.chunksize
	if cs == 0 {
		return fmt.Errorf("b2: AppendBuffer needs FrameOptions.Chunksize")
	}
	n := (len(data) + cs - 1) / cs
	return compressOrdered(n, &fw.p, func(i int) []byte {
		return data[i*cs : min(len(data), (i+1)*cs)]
	}, fw.AppendChunk)
}

// compressOrdered compresses n chunks produced by src in parallel batches
// of one chunk per worker and hands them to sink in order, so memory stays
// at one compressed chunk per worker.
func compressOrdered(n int, p *CParams, src func(i int) []byte, sink func([]byte) error) error {
	workers := workerCount(n)
	encs := make([]*Encoder, workers)
	outs := make([][]byte, workers)
	for i := range encs {
		encs[i] = encoderPool.Get().(*Encoder)
		defer encoderPool.Put(encs[i])
	}
	for base := 0; base < n; base += workers {
		k := min(workers, n-base)
		err := parallelFor(k, func(_, j int) error {
			var err error
			outs[j], err = encs[j].Compress(outs[j], src(base+j), p)
			return err
		})
		if err != nil {
			return err
		}
		for j := 0; j < k; j++ {
			if err := sink(outs[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

// AppendChunk appends an already compressed chunk (any valid chunk).
func (fw *FrameWriter) AppendChunk(chunk []byte) error {
	if fw.closed {
		return errors.New("b2: append to a closed FrameWriter")
	}
	h, err := ParseChunkHeader(chunk)
	if err != nil {
		return fmt.Errorf("b2: AppendChunk: %w", err)
	}
	chunk = chunk[:h.Cbytes]
	if len(fw.offsets) == 0 && fw.chunksize == 0 {
		fw.chunksize = h.Nbytes
	}
	switch {
	case fw.short || h.Nbytes > fw.chunksize:
		if fw.opts.Chunksize > 0 {
			return fmt.Errorf("b2: chunk %d has %d bytes, frame chunksize is %d", len(fw.offsets), h.Nbytes, fw.opts.Chunksize)
		}
		fw.variable = true
	case h.Nbytes < fw.chunksize:
		fw.short = true
	}
	fw.nbytes += int64(h.Nbytes)
	sp := h.Special()
	if fw.opts.Chunksize > 0 && h.Nbytes == fw.opts.Chunksize && (sp == SpecialZeros || sp == SpecialNaN || sp == SpecialUninit) {
		// Not stored: the offset itself says what the chunk is.
		fw.offsets = append(fw.offsets, int64(uint64(0x80|byte(sp))<<56))
		return nil
	}
	fw.offsets = append(fw.offsets, fw.pos)
	if _, err := fw.w.Write(chunk); err != nil {
		return fmt.Errorf("b2: %w", err)
	}
	fw.pos += int64(len(chunk))
	return nil
}

// SetVLMeta adds or replaces a variable-length metalayer.
func (fw *FrameWriter) SetVLMeta(name string, content []byte) error {
	if len(name) == 0 || len(name) > maxMetaName {
		return fmt.Errorf("b2: vlmeta name %q must have 1 to %d bytes", name, maxMetaName)
	}
	for i := range fw.vlmeta {
		if fw.vlmeta[i].Name == name {
			fw.vlmeta[i].Content = content
			return nil
		}
	}
	if len(fw.vlmeta) == 16 {
		return fmt.Errorf("b2: more than 16 vlmetalayers")
	}
	fw.vlmeta = append(fw.vlmeta, Metalayer{Name: name, Content: content})
	return nil
}

// UpdateMeta replaces the content of a fixed metalayer with bytes of the
// same length (how b2nd shapes are updated in place).
func (fw *FrameWriter) UpdateMeta(name string, content []byte) error {
	for _, m := range fw.opts.Meta {
		if m.Name == name {
			if len(content) != len(m.Content) {
				return fmt.Errorf("b2: metalayer %q: new content has %d bytes, was %d", name, len(content), len(m.Content))
			}
			if fw.metaUpdate == nil {
				fw.metaUpdate = map[string][]byte{}
			}
			fw.metaUpdate[name] = append([]byte(nil), content...)
			return nil
		}
	}
	return fmt.Errorf("b2: no metalayer %q", name)
}

// Close writes the offsets chunk and the trailer, patches the header, and
// renames the file into place. On error the temporary file is removed.
func (fw *FrameWriter) Close() error {
	if fw.closed {
		return nil
	}
	err := fw.finish()
	if err != nil {
		fw.Abort()
		return err
	}
	fw.closed = true
	return nil
}

func (fw *FrameWriter) finish() error {
	cbytes := fw.pos
	if len(fw.offsets) > 0 {
		raw := make([]byte, 8*len(fw.offsets))
		for i, o := range fw.offsets {
			binary.LittleEndian.PutUint64(raw[8*i:], uint64(o))
		}
		// c-blosc2 compresses offsets with blosclz clevel 5 + shuffle.
		op := CParams{Codec: BloscLZ, CLevel: 5, Typesize: 8, Filters: [6]uint8{5: FilterShuffle}}
		oc, err := fw.enc.Compress(nil, raw, &op)
		if err != nil {
			return err
		}
		if _, err := fw.w.Write(oc); err != nil {
			return fmt.Errorf("b2: %w", err)
		}
		fw.pos += int64(len(oc))
	}
	trailer, err := fw.trailer()
	if err != nil {
		return err
	}
	if _, err := fw.w.Write(trailer); err != nil {
		return fmt.Errorf("b2: %w", err)
	}
	fw.pos += int64(len(trailer))
	if err := fw.w.Flush(); err != nil {
		return fmt.Errorf("b2: %w", err)
	}
	// Patch the fixed-width header fields now that sizes are known.
	be := binary.BigEndian
	var b8 [8]byte
	patch := func(off int64, b []byte) error {
		_, err := fw.f.WriteAt(b, off)
		return err
	}
	frameLen := int64(fw.headerLen) + fw.pos
	be.PutUint64(b8[:], uint64(frameLen))
	errs := []error{patch(16, b8[:])}
	gflags := byte(0x12)
	chunksize := fw.chunksize
	if fw.variable || chunksize == 0 && len(fw.offsets) > 0 {
		gflags, chunksize = 0x13|0x40, 0
	}
	errs = append(errs, patch(25, []byte{gflags}))
	be.PutUint64(b8[:], uint64(fw.nbytes))
	errs = append(errs, patch(30, b8[:]))
	be.PutUint64(b8[:], uint64(cbytes))
	errs = append(errs, patch(39, b8[:]))
	var b4 [4]byte
	be.PutUint32(b4[:], uint32(chunksize))
	errs = append(errs, patch(58, b4[:]))
	if len(fw.vlmeta) > 0 {
		errs = append(errs, patch(68, []byte{0xc3}))
	}
	for i, m := range fw.opts.Meta {
		if c, ok := fw.metaUpdate[m.Name]; ok {
			errs = append(errs, patch(int64(fw.metaOff[i]), c))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("b2: %w", err)
	}
	if err := fw.f.Close(); err != nil {
		return fmt.Errorf("b2: %w", err)
	}
	fw.f = nil
	if err := fsmode.Publish(fw.tmp, fw.path); err != nil {
		return fmt.Errorf("b2: %w", err)
	}
	if err := os.Rename(fw.tmp, fw.path); err != nil {
		return fmt.Errorf("b2: %w", err)
	}
	return nil
}

// trailer builds the trailer: vlmeta values (each a compressed chunk) and
// the fixed 23-byte tail that lets readers find the trailer from the end.
func (fw *FrameWriter) trailer() ([]byte, error) {
	vp := CParams{Codec: Zstd, CLevel: 5, Typesize: 1, Filters: [6]uint8{5: FilterShuffle}}
	chunks := make([][]byte, len(fw.vlmeta))
	for i, m := range fw.vlmeta {
		c, err := fw.enc.Compress(nil, m.Content, &vp)
		if err != nil {
			return nil, err
		}
		chunks[i] = c
	}
	w := &mpWriter{}
	w.u8(0x94)
	w.u8(1)
	w.u8(0x93)
	mapSize := 6
	for _, m := range fw.vlmeta {
		mapSize += 1 + len(m.Name) + 5
	}
	w.u16m(mapSize)
	w.u8(0xde)
	w.raw([]byte{0, byte(len(fw.vlmeta))})
	off := len(w.b) + (mapSize - 6) + 3
	for i, m := range fw.vlmeta {
		w.fixstr(m.Name)
		w.i32(int32(off))
		off += 5 + len(chunks[i])
	}
	w.u8(0xdc)
	w.raw([]byte{0, byte(len(fw.vlmeta))})
	for _, c := range chunks {
		w.bin32(c)
	}
	tlen := len(w.b) + frameTrailerMin
	w.u8(0xce)
	w.b = binary.BigEndian.AppendUint32(w.b, uint32(tlen))
	w.u8(0xd8)
	w.u8(0)
	w.raw(make([]byte, 16))
	return w.b, nil
}

// Abort discards the partial file. Safe after Close or a failed Close.
func (fw *FrameWriter) Abort() error {
	fw.closed = true
	if fw.f != nil {
		fw.f.Close()
		fw.f = nil
		return os.Remove(fw.tmp)
	}
	return nil
}

var _ io.Closer = (*FrameWriter)(nil)
