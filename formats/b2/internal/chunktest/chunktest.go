// Package chunktest is a deliberately tiny Blosc2 chunk walker (spec §2.1,
// §2.5, §2.6, §3.2) for tests: it lets the codec and filter packages check
// themselves against files written by c-blosc2 without depending on the
// formats/b2 chunk parser they are part of.
package chunktest

import (
	"encoding/binary"
	"testing"
)

// Chunk is one regular Blosc2 chunk.
type Chunk struct {
	B         []byte // the whole chunk, cbytes long
	Version   byte
	Flags     byte
	Typesize  int
	Nbytes    int
	Blocksize int
	HdrLen    int
}

// Stream is one stream of a block: csize as stored and the bytes after it.
type Stream struct {
	Csize   int
	Payload []byte // Csize bytes for Csize > 0, else the token byte (or nil)
	Neblock int    // decoded size of the stream
}

// FrameChunk returns the chunk stored at off bytes after the end of the
// frame header (offset 0 is the first chunk).
func FrameChunk(t testing.TB, frame []byte, off int) Chunk {
	t.Helper()
	if string(frame[2:9]) != "b2frame" {
		t.Fatalf("not a frame")
	}
	hl := int(binary.BigEndian.Uint32(frame[11:15]))
	return ParseChunk(t, frame[hl+off:])
}

// ParseChunk reads the header of the chunk at the start of b.
func ParseChunk(t testing.TB, b []byte) Chunk {
	t.Helper()
	c := Chunk{
		Version:   b[0],
		Flags:     b[2],
		Typesize:  int(b[3]),
		Nbytes:    int(binary.LittleEndian.Uint32(b[4:])),
		Blocksize: int(binary.LittleEndian.Uint32(b[8:])),
		HdrLen:    16,
	}
	cbytes := int(binary.LittleEndian.Uint32(b[12:]))
	c.B = b[:cbytes]
	if c.Flags&0x05 == 0x05 {
		c.HdrLen = 32
	}
	if c.Flags&0x02 != 0 {
		t.Fatalf("memcpyed chunk")
	}
	return c
}

// NBlocks is the number of blocks in the chunk.
func (c Chunk) NBlocks() int { return (c.Nbytes + c.Blocksize - 1) / c.Blocksize }

// BSize is the decoded size of block.
func (c Chunk) BSize(block int) int {
	if block == c.NBlocks()-1 && c.Nbytes%c.Blocksize != 0 {
		return c.Nbytes % c.Blocksize
	}
	return c.Blocksize
}

// Streams splits block into its streams (§2.6).
func (c Chunk) Streams(t testing.TB, block int) []Stream {
	t.Helper()
	bsize := c.BSize(block)
	nstreams := 1
	if c.Flags&0x10 == 0 && bsize == c.Blocksize {
		nstreams = c.Typesize
	}
	p := int(binary.LittleEndian.Uint32(c.B[c.HdrLen+4*block:]))
	var out []Stream
	for range nstreams {
		cs := int(int32(binary.LittleEndian.Uint32(c.B[p:])))
		p += 4
		s := Stream{Csize: cs, Neblock: bsize / nstreams}
		switch {
		case cs > 0:
			s.Payload = c.B[p : p+cs]
			p += cs
		case cs < 0:
			s.Payload = c.B[p : p+1]
			p++
		}
		out = append(out, s)
	}
	return out
}
