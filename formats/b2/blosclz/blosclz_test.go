package blosclz_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/blosclz"
)

// TestDecompressHandMade decodes streams assembled by hand from the format
// description in doc.go, one per instruction form.
func TestDecompressHandMade(t *testing.T) {
	far := make([]byte, 0, 9000)
	far = append(far, "XYZW"...)
	for len(far) < 8500 {
		far = append(far, byte(len(far)%251))
	}
	tests := []struct {
		name string
		src  []byte
		want []byte
	}{
		{"empty", nil, []byte{}},
		{"literal", []byte{0x02, 'a', 'b', 'c'}, []byte("abc")},
		{"marker bits ignored", []byte{0x22, 'a', 'b', 'c'}, []byte("abc")},
		// field 3 → length 5, distance 0+0+1 = 1: a run of 'c'; streams
		// end with a literal run.
		{"run", []byte{0x02, 'a', 'b', 'c', 0x60, 0x00, 0x00, '.'}, []byte("abc" + "ccccc" + ".")},
		// field 1 → length 3, distance 2: "ab" repeated with overlap.
		{"overlap", []byte{0x01, 'a', 'b', 0x20, 0x01, 0x00, 'z'}, []byte("ababaz")},
		// field 7, extension 255+1 → length 9+256 = 265, distance 1.
		{"long", []byte{0x00, 'q', 0xE0, 0xFF, 0x01, 0x00, 0x00, '.'}, append(bytes.Repeat([]byte("q"), 266), '.')},
		// near distance with high bits: hi=1, code=4 → distance 261.
		{"near high bits", append(append([]byte{}, literalRuns(far[:300])...), 0x21, 0x04, 0x00, '.'),
			append(append(append([]byte{}, far[:300]...), far[300-261:300-261+3]...), '.')},
		// far match: 31<<8 | 255, then F=0x0010 → distance 16+8192 = 8208.
		{"far", append(append([]byte{}, literalRuns(far[:8300])...), 0x3F, 0xFF, 0x00, 0x10, 0x00, '.'),
			append(append(append([]byte{}, far[:8300]...), far[8300-8208:8300-8208+3]...), '.')},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]byte, len(tc.want))
			n, err := blosclz.Decompress(dst, tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(tc.want) || !bytes.Equal(dst, tc.want) {
				t.Fatalf("got %q, want %q", dst[:n], tc.want)
			}
		})
	}
}

// literalRuns encodes b as literal runs only.
func literalRuns(b []byte) []byte {
	var out []byte
	for len(b) > 0 {
		k := min(len(b), 32)
		out = append(out, byte(k-1))
		out = append(out, b[:k]...)
		b = b[k:]
	}
	return out
}

func TestDecompressCorrupt(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		n    int
	}{
		{"empty stream, output expected", nil, 1},
		{"literal overruns input", []byte{0x05, 'a'}, 6},
		{"literal overruns output", []byte{0x02, 'a', 'b', 'c'}, 2},
		{"distance before start", []byte{0x00, 'a', 0x20, 0x01, 0x00, '.'}, 10},
		{"far distance before start", []byte{0x00, 'a', 0x3F, 0xFF, 0x00, 0x00, 0x00, '.'}, 10},
		{"match overruns output", []byte{0x00, 'a', 0x60, 0x00, 0x00, '.'}, 4},
		{"truncated distance", []byte{0x00, 'a', 0x60}, 10},
		{"truncated length", []byte{0x00, 'a', 0xE0, 0xFF}, 1000},
		{"truncated far", []byte{0x00, 'a', 0x3F, 0xFF, 0x00}, 10},
		{"short output", []byte{0x02, 'a', 'b', 'c'}, 4},
		// c-blosc2 3.x stops before copying a final match.
		{"ends with a match", []byte{0x00, 'a', 0x60, 0x00}, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]byte, tc.n)
			n, err := blosclz.Decompress(dst, tc.src)
			if !errors.Is(err, blosclz.ErrCorrupt) {
				t.Fatalf("err = %v, want ErrCorrupt", err)
			}
			if n > tc.n {
				t.Fatalf("n = %d > len(dst)", n)
			}
		})
	}
}

// TestDecompressFixtures decodes BloscLZ streams written by c-blosc2 and
// compares them with the values fixtures/b2/README.md gives, filtered by hand
// (byte shuffle: stream j of a split block holds byte j of every element).
func TestDecompressFixtures(t *testing.T) {
	t.Run("sc_blosclz_nofilter_u8", func(t *testing.T) {
		// 100000 items (i*31+7)&0xFF in chunks of 32768; chunk 0 is one block.
		c := frameChunk(t, readTestdata(t, "sc_blosclz_nofilter_u8.b2frame"), 0)
		want := make([]byte, 32768)
		for i := range want {
			want[i] = byte(i*31 + 7)
		}
		checkBlock(t, c, 0, [][]byte{want})
	})
	t.Run("sc_blosclz_text_u8", func(t *testing.T) {
		words := []string{"alpha ", "beta ", "gamma ", "delta ", "epsilon "}
		var sb strings.Builder
		for k := 0; sb.Len() < 60000; k++ {
			sb.WriteString(words[(k*k+3*k)%5])
		}
		c := frameChunk(t, readTestdata(t, "sc_blosclz_text_u8.b2frame"), 0)
		checkBlock(t, c, 0, [][]byte{[]byte(sb.String()[:60000])})
	})
	t.Run("sc_blosclz_shuffle_i32", func(t *testing.T) {
		// int32 i*3-7; chunk 0 = items 0..19999, one block split in 4 streams.
		c := frameChunk(t, readTestdata(t, "sc_blosclz_shuffle_i32.b2frame"), 0)
		planes := make([][]byte, 4)
		for i := range 20000 {
			var b [4]byte
			binary.LittleEndian.PutUint32(b[:], uint32(int32(i*3-7)))
			for j := range 4 {
				planes[j] = append(planes[j], b[j])
			}
		}
		checkBlock(t, c, 0, planes)
	})
	t.Run("sc_blosclz_shuffle_ts3_odd", func(t *testing.T) {
		// byte k = (k*7 + k/3) & 0xFF; blocks of 1001 3-byte items, split in 3.
		c := frameChunk(t, readTestdata(t, "sc_blosclz_shuffle_ts3_odd.b2frame"), 0)
		// The short last block (2997 bytes) is a single stream.
		for b := range c.NBlocks() {
			bsize := c.BSize(b)
			shuffled := make([]byte, 0, bsize)
			for j := range 3 {
				for i := range bsize / 3 {
					k := b*3003 + i*3 + j
					shuffled = append(shuffled, byte(k*7+k/3))
				}
			}
			checkBlock(t, c, b, splitEven(shuffled, len(c.Streams(t, b))))
		}
	})
	t.Run("compat_blosc-1.3.0-blosclz", func(t *testing.T) {
		// Blosc 1.3.0 (chunk version 2): int32 i for i < 1e6, 262144-byte
		// blocks, shuffled; full blocks split in 4 streams, the last not.
		c := parseChunk(t, readTestdata(t, "compat_blosc-1.3.0-blosclz.cdata"))
		for b := range c.NBlocks() {
			bsize := c.BSize(b)
			first := b * c.Blocksize / 4
			elems := bsize / 4
			shuffled := make([]byte, 0, bsize)
			for j := range 4 {
				for i := range elems {
					shuffled = append(shuffled, byte(uint32(first+i)>>(8*j)))
				}
			}
			checkBlock(t, c, b, splitEven(shuffled, len(c.Streams(t, b))))
		}
	})
}

// splitEven cuts b into n equal streams.
func splitEven(b []byte, n int) [][]byte {
	out := make([][]byte, n)
	for s := range n {
		out[s] = b[s*len(b)/n : (s+1)*len(b)/n]
	}
	return out
}

// checkBlock decodes every stream of block b and compares it with want.
// At least one stream must be BloscLZ-coded, or the test proves nothing.
func checkBlock(t *testing.T, c testChunk, b int, want [][]byte) {
	t.Helper()
	ss := c.Streams(t, b)
	if len(ss) != len(want) {
		t.Fatalf("block %d: %d streams, want %d", b, len(ss), len(want))
	}
	coded := 0
	for i, s := range ss {
		if s.Csize <= 0 || s.Csize == s.Neblock {
			continue // run or raw stream: not a codec test
		}
		coded++
		dst := make([]byte, s.Neblock)
		n, err := blosclz.Decompress(dst, s.Payload)
		if err != nil {
			t.Fatalf("block %d stream %d: %v", b, i, err)
		}
		if n != len(want[i]) || !bytes.Equal(dst, want[i]) {
			t.Fatalf("block %d stream %d: decoded bytes differ", b, i)
		}
	}
	if coded == 0 {
		t.Fatalf("block %d: no BloscLZ stream", b)
	}
}

// testInputs returns named inputs that exercise every instruction form.
func testInputs(rng *rand.Rand, n int) map[string][]byte {
	in := map[string][]byte{}
	zeros := make([]byte, n)
	in["zeros"] = zeros
	rnd := make([]byte, n)
	for i := range rnd {
		rnd[i] = byte(rng.Uint32())
	}
	in["random"] = rnd
	small := make([]byte, n)
	for i := range small {
		small[i] = byte(rng.IntN(4))
	}
	in["smallalphabet"] = small
	per := make([]byte, n)
	p := 1 + rng.IntN(40)
	for i := range per {
		per[i] = byte(i % p * 7)
	}
	in["periodic"] = per
	f := make([]byte, 0, n+8)
	for len(f) < n {
		f = binary.LittleEndian.AppendUint64(f, math.Float64bits(float64(len(f)/8)*0.25))
	}
	in["floats"] = f[:n]
	return in
}

func TestRoundTrip(t *testing.T) {
	seed := uint64(0x5eed)
	t.Logf("seed %#x", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	var lens []int
	for n := range 301 {
		lens = append(lens, n)
	}
	lens = append(lens, 4096, 65536, 100003, 1<<20)
	for _, n := range lens {
		for name, src := range testInputs(rng, n) {
			for _, clevel := range []int{1, 5, 9} {
				roundTrip(t, fmt.Sprintf("%s/n=%d/clevel=%d", name, n, clevel), src, clevel)
			}
		}
	}
}

// TestRoundTripFar forces matches beyond the near range: a random block
// repeated 40 KiB later, then 70 KiB later.
func TestRoundTripFar(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	blk := make([]byte, 3000)
	for i := range blk {
		blk[i] = byte(rng.Uint32())
	}
	src := make([]byte, 0, 200000)
	src = append(src, blk...)
	filler := func(n int) {
		for range n {
			src = append(src, byte(rng.Uint32()&0x03)) // compressible filler
		}
	}
	filler(40000)
	src = append(src, blk...)
	filler(70000)
	src = append(src, blk...)
	dst := make([]byte, len(src))
	n := blosclz.Compress(dst, src, 9)
	if n == 0 {
		t.Fatal("not compressed")
	}
	roundTrip(t, "far", src, 9)
}

func roundTrip(t *testing.T, name string, src []byte, clevel int) {
	t.Helper()
	comp := make([]byte, len(src)+64)
	n := blosclz.Compress(comp, src, clevel)
	if n == 0 {
		zero := true
		for _, b := range src {
			zero = zero && b == 0
		}
		if zero && len(src) >= 256 {
			t.Fatalf("%s: zeros not compressed", name)
		}
		return
	}
	if n >= len(src) {
		t.Fatalf("%s: compressed %d >= %d", name, n, len(src))
	}
	got := make([]byte, len(src))
	m, err := blosclz.Decompress(got, comp[:n])
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if m != len(src) || !bytes.Equal(got, src) {
		t.Fatalf("%s: round trip differs", name)
	}
	// A too-small destination must make Compress give up, not overrun.
	if n > 1 {
		small := make([]byte, n-1, n-1)
		if k := blosclz.Compress(small, src, clevel); k != 0 {
			t.Fatalf("%s: Compress into %d bytes returned %d", name, n-1, k)
		}
	}
}

func ExampleCompress() {
	src := bytes.Repeat([]byte("blosc2 "), 100)
	comp := make([]byte, len(src))
	n := blosclz.Compress(comp, src, 9)
	out := make([]byte, len(src))
	m, err := blosclz.Decompress(out, comp[:n])
	fmt.Println(n < len(src)/10, m, err, bytes.Equal(out, src))
	// Output: true 700 <nil> true
}
