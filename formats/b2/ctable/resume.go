package ctable

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/b2sql/b2sql/formats/b2"
)

// arrayAppender writes a new version of a 1-D b2nd array: the first keep
// items of an existing array followed by appended items. Whole chunks
// below keep are copied as stored (no decompression, no recompression);
// only the chunk holding item keep is decoded, and its first items kept.
// The chunk and block shapes, dtype, metalayers and vlmeta of the old array
// carry over, so the result is the array python-blosc2 would have after
// resizing and writing the new rows. The file is written to a temporary
// name and renamed into place by close (b2.FrameWriter).
type arrayAppender struct {
	fw        *b2.FrameWriter
	meta      b2.B2ndMeta
	p         b2.CParams
	isz       int
	chunkRows int
	rows      int64  // items in the array so far (copied, compressed or pending)
	buf       []byte // items of the current, unfinished chunk
	chunk     []byte // padded chunk scratch
	out       []byte // compressed chunk scratch
	enc       *b2.Encoder
}

// resumeArray starts the new version of old at path, keeping its first
// keep items (keep <= old.Len()).
func resumeArray(old *b2.Array, keep int64, path string) (*arrayAppender, error) {
	if old.NDim() != 1 {
		return nil, fmt.Errorf("%d-d array, want 1-d", old.NDim())
	}
	if keep > old.Len() {
		return nil, fmt.Errorf("keeping %d of %d items", keep, old.Len())
	}
	meta := old.Meta
	meta.Shape = []int64{0}
	var vl []b2.Metalayer
	for _, name := range old.Frame.VLMetaNames() {
		raw, _, err := old.Frame.VLMeta(name)
		if err != nil {
			return nil, err
		}
		vl = append(vl, b2.Metalayer{Name: name, Content: raw})
	}
	a, err := newAppender(path, meta, old.Frame.Meta, vl)
	if err != nil {
		return nil, err
	}
	full := int(keep / int64(a.chunkRows))
	var buf []byte // one old chunk at a time (ReadChunkData says why)
	for i := 0; i < full; i++ {
		ch, err := old.Frame.ReadChunkData(i, buf)
		buf = ch
		if err == nil {
			err = a.fw.AppendChunk(ch)
		}
		if err != nil {
			a.abort()
			return nil, fmt.Errorf("chunk %d: %w", i, err)
		}
	}
	a.rows = int64(full) * int64(a.chunkRows)
	if rest := int(keep - a.rows); rest > 0 {
		tmp := make([]byte, a.chunkRows*a.isz)
		if _, _, err := old.ReadChunk1D(nil, tmp, full); err != nil {
			a.abort()
			return nil, fmt.Errorf("chunk %d: %w", full, err)
		}
		a.buf = append(a.buf, tmp[:rest*a.isz]...)
		a.rows += int64(rest)
	}
	return a, nil
}

// createArray starts a new, empty 1-D array with the given geometry.
func createArray(path, dtype string, chunkRows, blockRows int) (*arrayAppender, error) {
	meta := b2.B2ndMeta{Shape: []int64{0}, ChunkShape: []int{chunkRows}, BlockShape: []int{min(blockRows, chunkRows)}, DType: dtype}
	return newAppender(path, meta, nil, nil)
}

// newAppender creates the frame: the b2nd metalayer first (replacing one
// in oldMeta), then the other fixed metalayers of oldMeta, and vl.
func newAppender(path string, meta b2.B2ndMeta, oldMeta, vl []b2.Metalayer) (*arrayAppender, error) {
	dt, err := b2.ParseDType(meta.DType)
	if err != nil {
		return nil, err
	}
	if len(meta.ChunkShape) != 1 || len(meta.BlockShape) != 1 || meta.ChunkShape[0] <= 0 || meta.BlockShape[0] <= 0 {
		return nil, corruptf("chunk shape %v, block shape %v", meta.ChunkShape, meta.BlockShape)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	a := &arrayAppender{meta: meta, isz: dt.ItemSize, chunkRows: meta.ChunkShape[0], enc: b2.NewEncoder()}
	a.p = b2.DefaultCParams(dt.ItemSize)
	if dt.Kind == 'U' {
		a.p.FiltersMeta[5] = 4 // shuffle UCS-4 code units, as python-blosc2 does
	}
	a.p.Blocksize = meta.BlockShape[0] * dt.ItemSize
	ml := []b2.Metalayer{{Name: "b2nd", Content: meta.Encode()}}
	for _, m := range oldMeta {
		if m.Name != "b2nd" {
			ml = append(ml, m)
		}
	}
	a.fw, err = b2.CreateFrame(path, &b2.FrameOptions{CParams: &a.p, Chunksize: a.chunkRows * a.isz, Blocksize: a.p.Blocksize,
		Meta: ml, VLMeta: vl})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// append adds items (len a multiple of the item size).
func (a *arrayAppender) append(items []byte) error {
	cb := a.chunkRows * a.isz
	for len(items) > 0 {
		k := min(cb-len(a.buf), len(items))
		a.buf = append(a.buf, items[:k]...)
		items = items[k:]
		a.rows += int64(k / a.isz)
		if len(a.buf) == cb {
			if err := a.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// flush compresses the pending items as one chunk, zero-padded.
func (a *arrayAppender) flush() error {
	if len(a.buf) == 0 {
		return nil
	}
	cb := a.chunkRows * a.isz
	a.chunk = append(a.chunk[:0], a.buf...)
	for len(a.chunk) < cb {
		a.chunk = append(a.chunk, 0)
	}
	var err error
	a.out, err = a.enc.Compress(a.out[:0], a.chunk, &a.p)
	if err != nil {
		return err
	}
	a.buf = a.buf[:0]
	return a.fw.AppendChunk(a.out)
}

// close writes the last chunk and the final shape and renames the file
// into place.
func (a *arrayAppender) close() error {
	if err := a.flush(); err != nil {
		a.abort()
		return err
	}
	a.meta.Shape = []int64{a.rows}
	if err := a.fw.UpdateMeta("b2nd", a.meta.Encode()); err != nil {
		a.abort()
		return err
	}
	return a.fw.Close()
}

func (a *arrayAppender) abort() { a.fw.Abort() }
