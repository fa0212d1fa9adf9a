package storage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Compressed text streams (gzip, zstd) shared by the text formats
// (formats/csv, formats/json): detection by option, extension or magic
// bytes, and whole-stream or prefix reads of a local file.

// ErrUnknownCompression: a compression option names no codec this reads.
var ErrUnknownCompression = errors.New("unknown compression")

// CompressionOf returns "gzip", "zstd" or "" for path, from the option, the
// extension or the first bytes (magic numbers) of the file.
func CompressionOf(path, opt string, head []byte) (string, error) {
	switch strings.ToLower(opt) {
	case "", "auto", "infer":
	case "none", "uncompressed":
		return "", nil
	case "gzip", "gz":
		return "gzip", nil
	case "zstd", "zst":
		return "zstd", nil
	default:
		return "", fmt.Errorf("%w %q (auto, none, gzip, zstd)", ErrUnknownCompression, opt)
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

// Decompressor wraps r in the decompressor of comp.
func Decompressor(r io.Reader, comp string) (io.ReadCloser, error) {
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

// OpenStream opens path decompressed.
func OpenStream(path, comp string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	d, err := Decompressor(f, comp)
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

// ReadPrefix reads up to n bytes of the (decompressed) file; eof says it
// holds the whole file.
func ReadPrefix(path, comp string, n int) ([]byte, bool, error) {
	r, err := OpenStream(path, comp)
	if err != nil {
		return nil, false, err
	}
	return readPrefix(r, n)
}

// readPrefix reads up to n bytes of r and closes it.
func readPrefix(r io.ReadCloser, n int) ([]byte, bool, error) {
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
