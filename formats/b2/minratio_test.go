package b2

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestMinRatioStoresPlanesRaw: shuffled int32 values below k leave a
// low-byte plane of log2(k) bits a byte and three all-zero high planes.
// With k = 20 zstd can make the low plane at best 8/4.32 = 1.85× smaller,
// less than DefaultMinRatio (2), so every block must store it raw (csize
// = its size) and the high planes as zero runs (csize 0): the chunk is
// then exactly header + block starts + (4 + plane + 3·4) a block. With
// k = 4 (2 bits a byte, 4× at best) the plane must stay coded, below half
// its size. Both must decode to the input. (Items of four bytes: those of
// one or two may take BITSHUFFLE + LZ4 instead, TestNarrowItemsBitShuffle.)
func TestMinRatioStoresPlanesRaw(t *testing.T) {
	for _, k := range []int{20, 4} {
		rng := rand.New(rand.NewPCG(5, uint64(k)))
		src := make([]byte, 262144)
		for i := 0; i < len(src); i += 4 {
			src[i] = byte(rng.IntN(k))
		}
		p := DefaultCParams(4)
		if p.MinRatio != 2 {
			t.Fatalf("DefaultCParams MinRatio %d, want 2", p.MinRatio)
		}
		c, err := Compress(nil, src, p)
		if err != nil {
			t.Fatal(err)
		}
		h, err := ParseChunkHeader(c)
		if err != nil {
			t.Fatal(err)
		}
		nb := h.NBlocks()
		neblock := h.Blocksize / 4
		if h.Blocksize*nb != len(src) || !h.Split() {
			t.Fatalf("k=%d: blocksize %d × %d blocks, split %v: the test assumes whole split blocks", k, h.Blocksize, nb, h.Split())
		}
		for b := 0; b < nb; b++ {
			at := int(binary.LittleEndian.Uint32(c[extendedHeaderLen+4*b:]))
			low := int(int32(binary.LittleEndian.Uint32(c[at:])))
			at += 4 + low
			high := 0
			for s := 1; s < 4; s++ {
				high |= int(int32(binary.LittleEndian.Uint32(c[at:])))
				at += 4
			}
			switch {
			case k == 20 && low != neblock:
				t.Fatalf("k=20 block %d: low plane csize %d, want raw %d", b, low, neblock)
			case k == 4 && (low <= 0 || 2*low > neblock):
				t.Fatalf("k=4 block %d: low plane csize %d, want coded to at most %d", b, low, neblock/2)
			case high != 0:
				t.Fatalf("k=%d block %d: high planes csizes or'ed %d, want zero runs (0)", k, b, high)
			}
		}
		if want := extendedHeaderLen + nb*(4+4+neblock+3*4); k == 20 && len(c) != want {
			t.Fatalf("k=20: chunk %d bytes, want %d", len(c), want)
		}
		got := make([]byte, len(src))
		if _, err := Decompress(got, c); err != nil || !bytes.Equal(got, src) {
			t.Fatalf("k=%d round trip: %v", k, err)
		}
		p.MinRatio = -1
		if _, err := Compress(nil, src, p); err == nil {
			t.Fatal("MinRatio -1 accepted")
		}
	}
}
