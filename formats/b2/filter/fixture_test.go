package filter_test

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/b2sql/b2sql/formats/b2/blosclz"
)

// This file holds a deliberately tiny Blosc2 chunk walker (spec §2.1, §2.5,
// §2.6, §3.2) so the codec can be tested against files written by c-blosc2
// without depending on the formats/b2 chunk parser.
// (A copy of the walker in formats/b2/blosclz's tests, plus codec dispatch.)

// testChunk is one regular Blosc2 chunk.
type testChunk struct {
	b         []byte // the whole chunk, cbytes long
	version   byte
	flags     byte
	typesize  int
	nbytes    int
	blocksize int
	hdrLen    int
}

// testStream is one stream of a block: csize as stored and the bytes after it.
type testStream struct {
	csize   int
	payload []byte // csize bytes for csize > 0, else the token byte (or nil)
	neblock int    // decoded size of the stream
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// frameChunk returns the chunk stored at off bytes after the end of the frame
// header (offset 0 is the first chunk).
func frameChunk(t testing.TB, frame []byte, off int) testChunk {
	t.Helper()
	if string(frame[2:9]) != "b2frame" {
		t.Fatalf("not a frame")
	}
	hl := int(binary.BigEndian.Uint32(frame[11:15]))
	return parseChunk(t, frame[hl+off:])
}

func parseChunk(t testing.TB, b []byte) testChunk {
	t.Helper()
	c := testChunk{
		version:   b[0],
		flags:     b[2],
		typesize:  int(b[3]),
		nbytes:    int(binary.LittleEndian.Uint32(b[4:])),
		blocksize: int(binary.LittleEndian.Uint32(b[8:])),
		hdrLen:    16,
	}
	cbytes := int(binary.LittleEndian.Uint32(b[12:]))
	c.b = b[:cbytes]
	if c.flags&0x05 == 0x05 {
		c.hdrLen = 32
	}
	if c.flags&0x02 != 0 {
		t.Fatalf("memcpyed chunk")
	}
	return c
}

func (c testChunk) nblocks() int { return (c.nbytes + c.blocksize - 1) / c.blocksize }

func (c testChunk) bsize(block int) int {
	if block == c.nblocks()-1 && c.nbytes%c.blocksize != 0 {
		return c.nbytes % c.blocksize
	}
	return c.blocksize
}

// streams splits block into its streams (§2.6).
func (c testChunk) streams(t testing.TB, block int) []testStream {
	t.Helper()
	bsize := c.bsize(block)
	nstreams := 1
	if c.flags&0x10 == 0 && bsize == c.blocksize {
		nstreams = c.typesize
	}
	p := int(binary.LittleEndian.Uint32(c.b[c.hdrLen+4*block:]))
	var out []testStream
	for range nstreams {
		cs := int(int32(binary.LittleEndian.Uint32(c.b[p:])))
		p += 4
		s := testStream{csize: cs, neblock: bsize / nstreams}
		switch {
		case cs > 0:
			s.payload = c.b[p : p+cs]
			p += cs
		case cs < 0:
			s.payload = c.b[p : p+1]
			p++
		}
		out = append(out, s)
	}
	return out
}

// rawBlock decodes every stream of block b with the chunk's codec (chunk
// flags bits 5-7, §2.9) and concatenates them: the block as the filter
// pipeline left it, before any backward filter runs.
func (c testChunk) rawBlock(t testing.TB, b int) []byte {
	t.Helper()
	var out []byte
	for i, s := range c.streams(t, b) {
		dst := make([]byte, s.neblock)
		switch {
		case s.csize == 0:
		case s.csize < 0:
			for k := range dst {
				dst[k] = byte(-s.csize)
			}
		case s.csize == s.neblock:
			copy(dst, s.payload)
		default:
			if err := decodeStream(c.flags>>5, dst, s.payload); err != nil {
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
