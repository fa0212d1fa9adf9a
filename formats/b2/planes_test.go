package b2

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/filter"
)

// planesPayload makes items of ts bytes whose byte planes take every
// stream form a split block can have: byte 0 random (stored raw: zstd
// cannot halve it), byte 1 one of 4 values (zstd-coded), byte 2 always 7
// (a run), the others 0 (zero runs), and for ts = 8 byte 5 random too
// (two raw planes apart).
func planesPayload(ts, n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, uint64(ts)))
	src := make([]byte, ts*n)
	for i := 0; i < n; i++ {
		it := src[i*ts : (i+1)*ts]
		it[0] = byte(rng.Uint32())
		it[1] = byte(rng.IntN(4))
		if ts > 2 {
			it[2] = 7
		}
		if ts == 8 {
			it[5] = byte(rng.Uint32())
		}
	}
	return src
}

// TestDecodePlanesApart decodes split SHUFFLE chunks of 2-, 4- and 8-byte
// items whose blocks mix raw, zstd-coded, run and zero streams (checked in
// the chunk), whole, block by block and in ranges that cut blocks: every
// byte must be the input's. Where the CPU has the vector kernels the
// blocks unshuffle from their planes where they lie (filter's
// TestUnshufflePlanes covers the kernels against Unshuffle with and
// without AVX2). The last block is short (items not a multiple of the
// block), which the planes path declines.
func TestDecodePlanesApart(t *testing.T) {
	for _, ts := range []int{2, 4, 8} {
		src := planesPayload(ts, 10000+3, 9)
		p := DefaultCParams(ts)
		p.Blocksize = 2048 * ts
		// python-blosc2's MinRatio (1): SHUFFLE whatever the width
		// (DefaultCParams' may give two-byte items BITSHUFFLE, narrowItems).
		// zstd cannot shrink the random plane at all: still raw.
		p.MinRatio = 1
		c, err := Compress(nil, src, p)
		if err != nil {
			t.Fatal(err)
		}
		pc, err := parseChunk(c)
		if err != nil {
			t.Fatal(err)
		}
		if !pc.Split() || pc.nblocks < 2 {
			t.Fatalf("ts=%d: split %v, %d blocks", ts, pc.Split(), pc.nblocks)
		}
		// Block 0's streams: raw first plane, coded second, runs after.
		neblock := pc.Blocksize / ts
		at := pc.bstart(0)
		kinds := ""
		for s := 0; s < ts; s++ {
			cs := int(int32(binary.LittleEndian.Uint32(c[at:])))
			at += 4
			switch {
			case cs == neblock:
				kinds += "R"
				at += cs
			case cs > 0:
				kinds += "Z"
				at += cs
			case cs < 0:
				kinds += "r"
				at++
			default:
				kinds += "0"
			}
		}
		if kinds[:2] != "RZ" || pc.planesApart(0, pc.Blocksize) != filter.PlanesKernel(ts, neblock) {
			t.Fatalf("ts=%d: block 0 streams %q, planesApart %v", ts, kinds, pc.planesApart(0, pc.Blocksize))
		}
		d := NewDecoder()
		got := make([]byte, len(src))
		if _, err := d.Decompress(got, c); err != nil || !bytes.Equal(got, src) {
			t.Fatalf("ts=%d: whole chunk: %v", ts, err)
		}
		for b := 0; b < pc.nblocks; b++ {
			n, err := d.DecompressBlock(got, c, b)
			lo := b * pc.Blocksize
			if err != nil || !bytes.Equal(got[:n], src[lo:lo+n]) {
				t.Fatalf("ts=%d: block %d: %v", ts, b, err)
			}
		}
		rng := rand.New(rand.NewPCG(1, uint64(ts)))
		for range 50 {
			off := rng.IntN(len(src))
			n := rng.IntN(len(src) - off + 1)
			part := make([]byte, n)
			if err := d.DecompressRange(part, c, off, n); err != nil || !bytes.Equal(part, src[off:off+n]) {
				t.Fatalf("ts=%d: range [%d, +%d): %v", ts, off, n, err)
			}
		}
	}
}
