package b2

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBlockEnds checks the block spans worked out from blockEnds against
// the search over every block start that blockSpan makes without them,
// for blocks stored in order, shuffled (a multi-threaded writer), with
// repeated starts (a corrupt chunk) and with DELTA (block 0 joins every
// span).
func TestBlockEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for rep := 0; rep < 200; rep++ {
		nb := 1 + rng.IntN(40)
		const hl = 32
		pos := hl + 4*nb
		starts := make([]int, nb)
		for b := range starts {
			starts[b] = pos
			pos += 4 + rng.IntN(100)
		}
		if rep%2 == 1 {
			rng.Shuffle(nb, func(i, j int) { starts[i], starts[j] = starts[j], starts[i] })
		}
		if rep%5 == 4 && nb > 1 {
			starts[rng.IntN(nb)] = starts[rng.IntN(nb)]
		}
		c := chunk{nblocks: nb, data: make([]byte, hl+4*nb)}
		c.HeaderLen, c.Cbytes = hl, pos
		if rep%3 == 2 {
			c.Filters[0] = FilterDelta
		}
		for b, s := range starts {
			binary.LittleEndian.PutUint32(c.data[hl+4*b:], uint32(s))
		}
		ends, _ := c.blockEnds(nil, nil)
		for first := 0; first < nb; first++ {
			for last := first; last < nb; last++ {
				lo, hi := c.blockSpan(first, last, ends)
				wlo, whi := c.blockSpan(first, last, nil)
				if lo != wlo || hi != whi {
					t.Fatalf("starts %v delta %v: blocks %d..%d span [%d, %d), searched [%d, %d)",
						starts, c.hasDelta(), first, last, lo, hi, wlo, whi)
				}
			}
		}
	}
}

// TestPreadBadBlockStart reads block 0 of a chunk one of whose other block
// starts points past the chunk, through pread: the read fails (the prefix
// is checked whole), and fails again the second time (a prefix whose
// checks failed is not kept as checked).
func TestPreadBadBlockStart(t *testing.T) {
	payload := le32s(16384, func(i int) int32 { return int32(i * i % 1000) })
	p := DefaultCParams(4)
	p.Blocksize = 256
	chunk, err := Compress(nil, payload, p)
	if err != nil {
		t.Fatal(err)
	}
	raw := framedChunks(t, 4, chunk, chunk)
	f0, err := NewFrame(raw, "probe")
	if err != nil {
		t.Fatal(err)
	}
	pc, err := parseChunk(chunk)
	if err != nil {
		t.Fatal(err)
	}
	start := int(int64(f0.Header.HeaderLen) + f0.ChunkOffset(1))
	binary.LittleEndian.PutUint32(raw[start+pc.HeaderLen+4*5:], uint32(pc.Cbytes+100))
	f, err := NewFileFrame(raw, "bad", bytes.NewReader(raw), 0)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder()
	got := make([]byte, 256)
	for try := 0; try < 2; try++ {
		if err := f.DecompressChunkRange(d, got, 1, 0); err == nil || !strings.Contains(err.Error(), "block 5 start") {
			t.Fatalf("read %d of block 0: got %v, want block 5's start refused", try, err)
		}
	}
	if err := f.DecompressChunkRange(d, got, 0, 0); err != nil {
		t.Fatalf("chunk 0: %v", err)
	}
}
