package b2

import (
	"fmt"
	"io"
)

// OpenReaderAt opens the contiguous frame stored in bytes [base,
// base+size) of ra: a remote object (package storage's Source) or a
// member of a zip held in one. It reads the frame's header and its tail
// (the offsets chunk and the trailer with the vlmeta), nothing else;
// chunk bytes are read when a scan decodes them, and then only the chunk
// header, block starts and the blocks the requested range needs
// (chunkread.go). Close releases nothing: ra is the caller's.
func OpenReaderAt(ra io.ReaderAt, base, size int64, name string) (*Frame, error) {
	f := &Frame{name: name, file: &chunkFile{ra: ra, base: base}}
	read := func(off, n int64) ([]byte, error) {
		buf := make([]byte, n)
		if _, err := ra.ReadAt(buf, base+off); err != nil && !(err == io.EOF && off+n == size) {
			return nil, fileError(name, fmt.Errorf("reading bytes [%d, %d): %w", off, off+n, err))
		}
		return buf, nil
	}
	head, err := read(0, min(size, frameFixedLen))
	if err != nil {
		return nil, err
	}
	if err := f.parseFixed(head, size); err != nil {
		return nil, fileError(name, err)
	}
	h := &f.Header
	if h.FrameType != 0 {
		return nil, fileError(name, unsupportedf("a sparse frame (a directory of chunk files) cannot be read through a byte range"))
	}
	if h.HeaderLen > len(head) {
		if head, err = read(0, int64(h.HeaderLen)); err != nil {
			return nil, err
		}
	}
	end := f.dataEnd()
	if end > h.FrameLen-frameTrailerMin {
		return nil, fileError(name, corruptf("trailer does not fit (frame %d, data end %d)", h.FrameLen, end))
	}
	tail, err := read(end, h.FrameLen-end)
	if err != nil {
		return nil, err
	}
	if err := f.parseRegions(head, tail, end); err != nil {
		return nil, fileError(name, err)
	}
	f.file.ahead = newAheadFrame(ra, base+int64(h.HeaderLen), base+int64(h.HeaderLen)+h.Cbytes)
	return f, nil
}
