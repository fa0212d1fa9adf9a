package b2

import (
	"fmt"
	"math"
)

// Compress compresses src as one chunk (version 5, extended header) and
// appends it to dst[:0], returning the chunk. len(src) must be below
// 2 GiB - 32. All-zero input becomes a 32-byte special-zeros chunk and
// input made of one repeated item a repeated-value chunk.
func Compress(dst, src []byte, p CParams) ([]byte, error) {
	e := encoderPool.Get().(*Encoder)
	defer encoderPool.Put(e)
	return e.Compress(dst, src, &p)
}

// Compress is the Encoder form of the package function Compress.
func (e *Encoder) Compress(dst, src []byte, p *CParams) ([]byte, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	for i, f := range p.Filters {
		if f == FilterByteDelta && p.FiltersMeta[i] == 0 {
			// Meta 0 means "the frame typesize", which a lone chunk cannot
			// know: record the width explicitly, as c-blosc2 writers do.
			pp := *p
			pp.FiltersMeta[i] = byte(p.effTypesize())
			p = &pp
		}
	}
	nbytes := len(src)
	if nbytes > math.MaxInt32-extendedHeaderLen {
		return nil, fmt.Errorf("b2: chunk of %d bytes too large", nbytes)
	}
	blocksize := p.ComputeBlocksize(nbytes)
	if nbytes == 0 {
		blocksize = 0
	}
	if alt, ok := fasterAlternative(p); ok && p.CLevel > 0 && nbytes >= minBufferSize {
		return e.compressFaster(dst, src, p, &alt, blocksize)
	}
	out, _, err := e.compressBlocks(dst, src, p, blocksize)
	return out, err
}
