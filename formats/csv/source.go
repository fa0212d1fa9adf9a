package csv

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// The file plumbing below is the same in formats/json: formats may not
// import each other, and internal/ packages are standard-library only, so
// the compressed-stream helpers (klauspost/compress) cannot be shared.

// compressionOf returns "gzip", "zstd" or "" for path, from the option, the
// extension or the first bytes (magic numbers) of the file.
func compressionOf(path, opt string, head []byte) (string, error) {
	switch strings.ToLower(opt) {
	case "", "auto", "infer":
	case "none", "uncompressed":
		return "", nil
	case "gzip", "gz":
		return "gzip", nil
	case "zstd", "zst":
		return "zstd", nil
	default:
		return "", fmt.Errorf("%w: compression %q (auto, none, gzip, zstd)", ErrOption, opt)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".gz", ".gzip":
		return "gzip", nil
	case ".zst", ".zstd":
		return "zstd", nil
	}
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return "gzip", nil
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return "zstd", nil
	}
	return "", nil
}

// decompressor wraps r in the decompressor of comp.
func decompressor(r io.Reader, comp string) (io.ReadCloser, error) {
	switch comp {
	case "gzip":
		return gzip.NewReader(r)
	case "zstd":
		d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))
		if err != nil {
			return nil, err
		}
		return d.IOReadCloser(), nil
	}
	return io.NopCloser(r), nil
}

// openStream opens path decompressed.
func openStream(path, comp string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	d, err := decompressor(f, comp)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", comp, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{d, closers{d, f}}, nil
}

type closers []io.Closer

func (cs closers) Close() error {
	var first error
	for _, c := range cs {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// readPrefix reads up to n bytes of the (decompressed) file; eof says it
// holds the whole file.
func readPrefix(path, comp string, n int) ([]byte, bool, error) {
	r, err := openStream(path, comp)
	if err != nil {
		return nil, false, err
	}
	defer r.Close()
	buf := make([]byte, 0, min(n, 1<<20))
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):min(cap(buf), n)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, true, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
	// At n bytes: the file may end exactly here.
	var one [1]byte
	m, err := r.Read(one[:])
	return buf, m == 0 && err == io.EOF, nil
}
