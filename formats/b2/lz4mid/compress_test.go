package lz4mid_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/lz4mid"
	"github.com/pierrec/lz4/v4"
)

// compress returns src as one block, failing the test when it does not fit
// in CompressBlockBound.
func compress(t testing.TB, c *lz4mid.Compressor, src []byte) []byte {
	t.Helper()
	dst := make([]byte, lz4mid.CompressBlockBound(len(src)))
	n := c.Compress(dst, src)
	if n == 0 {
		t.Fatalf("%d bytes did not fit in the bound %d", len(src), len(dst))
	}
	return dst[:n]
}

// roundTrip decodes block with pierrec/lz4 (an independent LZ4 decoder)
// and requires src back.
func roundTrip(t testing.TB, block, src []byte) {
	t.Helper()
	out := make([]byte, len(src)+64)
	n, err := lz4.UncompressBlock(block, out)
	if err != nil {
		t.Fatalf("pierrec/lz4 cannot decode the block: %v", err)
	}
	if !bytes.Equal(out[:n], src) {
		t.Fatalf("decoded %d bytes differ from the %d written", n, len(src))
	}
}

// TestCompressHandMade checks a block assembled by hand from the format:
// "abcdefgh" four times. Positions 0-7 have no earlier match, position 8
// repeats position 0 (offset 8) for as long as the block allows a match
// to run: up to 5 bytes before the end, so 19 bytes; the last 5 bytes
// are literals.
func TestCompressHandMade(t *testing.T) {
	src := []byte(strings.Repeat("abcdefgh", 4))
	want := []byte{
		0x8F,                                   // 8 literals, match length 4+15+...
		'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', // the literals
		0x08, 0x00, // offset 8
		0x00,                          // match length 4+15+0 = 19
		0x50, 'd', 'e', 'f', 'g', 'h', // last sequence: 5 literals
	}
	var c lz4mid.Compressor
	got := compress(t, &c, src)
	if !bytes.Equal(got, want) {
		t.Fatalf("block\n got %x\nwant %x", got, want)
	}
	roundTrip(t, got, src)
}

// TestCompressShapes round-trips the shapes that exercise each part of the
// format: the empty and tiny blocks (literals only), runs (matches
// overlapping their source), literal runs and matches longer than 15 + 255
// (several length bytes), incompressible bytes, text, and a match exactly
// at the 64 KiB window's edge.
func TestCompressShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	edge := random(65535 + 64)
	copy(edge[65535:], edge[:64]) // reachable at offset 65535 exactly
	far := random(65536 + 64)
	copy(far[65536:], far[:64]) // one byte too far
	shapes := map[string][]byte{
		"empty":                   {},
		"one":                     {7},
		"twelve":                  []byte("abcabcabcabc"),
		"thirteen":                []byte("abcabcabcabca"),
		"run":                     bytes.Repeat([]byte{0}, 100000),
		"long literal then match": append(random(1000), bytes.Repeat([]byte("xyz"), 400)...),
		"random":                  random(200000),
		"text":                    []byte(titles(rng, 5000)),
		"window edge":             edge,
		"beyond window":           far,
	}
	for name, src := range shapes {
		t.Run(name, func(t *testing.T) {
			var c lz4mid.Compressor
			block := compress(t, &c, src)
			roundTrip(t, block, src)
		})
	}
}

// TestCompressorReuse compresses many blocks with one Compressor, as a
// chunk writer does: entries of earlier blocks must never be taken as
// matches (their positions would point into the wrong data).
func TestCompressorReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var c lz4mid.Compressor
	for i := range 50 {
		src := []byte(titles(rng, 100+rng.IntN(3000)))
		if i%7 == 3 {
			src = src[:rng.IntN(len(src))]
		}
		roundTrip(t, compress(t, &c, src), src)
	}
}

// TestCompressBudget gives Compress less room than the block needs: it
// reports 0 (store raw) and never writes past dst.
func TestCompressBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	src := []byte(titles(rng, 2000))
	var c lz4mid.Compressor
	full := compress(t, &c, src)
	for _, room := range []int{0, 1, 10, len(full) / 2, len(full) - 1} {
		dst := make([]byte, room, room+16)
		guard := dst[room : room+16]
		for i := range guard {
			guard[i] = 0xAA
		}
		if n := c.Compress(dst, src); n != 0 {
			t.Errorf("room %d of %d: got %d, want 0", room, len(full), n)
		}
		for _, b := range guard {
			if b != 0xAA {
				t.Fatalf("room %d: wrote past dst", room)
			}
		}
	}
	dst := make([]byte, len(full))
	if n := c.Compress(dst, src); n != len(full) {
		t.Errorf("exact room: got %d, want %d", n, len(full))
	}
}

// TestCompressRatioOnText: the point of the package. Text of words gets
// matches spanning words, which plain LZ4 (pierrec's, c-blosc2's codec at
// clevel 9) misses: the block must be clearly smaller than plain LZ4's.
func TestCompressRatioOnText(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	src := []byte(titles(rng, 3000)) // about 150 KB
	var c lz4mid.Compressor
	mid := compress(t, &c, src)
	plain := make([]byte, lz4.CompressBlockBound(len(src)))
	var lc lz4.Compressor
	np, err := lc.CompressBlock(src, plain)
	if err != nil || np == 0 {
		t.Fatalf("plain LZ4: %d, %v", np, err)
	}
	ratio, plainRatio := float64(len(src))/float64(len(mid)), float64(len(src))/float64(np)
	t.Logf("ratio %.2f, plain LZ4 %.2f", ratio, plainRatio)
	if ratio < 1.2*plainRatio || ratio < 2.7 {
		t.Errorf("ratio %.2f: want at least 2.7 and 1.2× plain LZ4's %.2f", ratio, plainRatio)
	}
}

var words = strings.Fields(`alpha amber anchor apple arrow autumn basin beacon berry blue bold breeze
	bridge bright canyon cedar cloud copper coral crystal dawn delta desert dune eagle echo ember falcon
	fern field forest frost garden glacier golden granite harbor hazel horizon island jade lake lantern
	lunar maple meadow mist mountain north ocean orchid pearl pine prairie quartz river sage shadow silver
	stone summit thunder`)

// titles returns n lines of 3-12 random words, the shape of the demo
// table's titles.
func titles(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		k := 3 + rng.IntN(10)
		for j := range k {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
	}
	return b.String()
}
