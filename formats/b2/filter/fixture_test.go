package filter_test

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/b2sql/b2sql/formats/b2/blosclz"
	"github.com/b2sql/b2sql/formats/b2/internal/chunktest"
)

// The chunk walker is shared with the other codec/filter tests.
type (
	testChunk  = chunktest.Chunk
	testStream = chunktest.Stream
)

var (
	frameChunk = chunktest.FrameChunk
	parseChunk = chunktest.ParseChunk
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rawBlock decodes every stream of block b with the chunk's codec (chunk
// flags bits 5-7, §2.9) and concatenates them: the block as the filter
// pipeline left it, before any backward filter runs.
func rawBlock(t testing.TB, c testChunk, b int) []byte {
	t.Helper()
	var out []byte
	for i, s := range c.Streams(t, b) {
		dst := make([]byte, s.Neblock)
		switch {
		case s.Csize == 0:
		case s.Csize < 0:
			for k := range dst {
				dst[k] = byte(-s.Csize)
			}
		case s.Csize == s.Neblock:
			copy(dst, s.Payload)
		default:
			if err := decodeStream(c.Flags>>5, dst, s.Payload); err != nil {
				t.Fatalf("block %d stream %d: %v", b, i, err)
			}
		}
		out = append(out, dst...)
	}
	return out
}

func decodeStream(format byte, dst, src []byte) error {
	var n int
	var err error
	switch format {
	case 0:
		n, err = blosclz.Decompress(dst, src)
	case 1:
		n, err = lz4.UncompressBlock(src, dst)
	case 3:
		var r io.ReadCloser
		if r, err = zlib.NewReader(bytes.NewReader(src)); err == nil {
			n, err = io.ReadFull(r, dst)
		}
	case 4:
		var d *zstd.Decoder
		if d, err = zstd.NewReader(nil); err == nil {
			var out []byte
			out, err = d.DecodeAll(src, nil)
			n = copy(dst, out)
			if len(out) != len(dst) {
				err = fmt.Errorf("zstd: %d bytes, want %d", len(out), len(dst))
			}
			d.Close()
		}
	default:
		return fmt.Errorf("codec format %d", format)
	}
	if err == nil && n != len(dst) {
		err = fmt.Errorf("%d bytes, want %d", n, len(dst))
	}
	return err
}
