package filter_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/filter"
)

func seq(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

func hexBytes(s ...uint64) []byte { // helper for readable literals
	var b []byte
	for _, v := range s {
		b = append(b, byte(v))
	}
	return b
}

// TestShuffleKnown checks hand-written shuffles: element i of bytes 0..n-1.
func TestShuffleKnown(t *testing.T) {
	tests := []struct {
		name     string
		typesize int
		src      []byte
		want     []byte
	}{
		{"ts2 16 elements", 2, seq(32), hexBytes(
			0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
			1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31)},
		{"ts4 16 elements", 4, seq(64), hexBytes(
			0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60,
			1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61,
			2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 46, 50, 54, 58, 62,
			3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63)},
		{"ts8 2 elements", 8, seq(16), hexBytes(
			0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15)},
		{"ts4 tail kept", 4, seq(18), hexBytes(
			0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 16, 17)},
		{"ts3 tail kept", 3, seq(11), hexBytes(
			0, 3, 6, 1, 4, 7, 2, 5, 8, 9, 10)},
		{"ts5 shorter than two elements", 5, seq(7), seq(7)},
		{"ts1 identity", 1, seq(5), seq(5)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := make([]byte, len(tc.src))
			filter.Shuffle(got, tc.src, tc.typesize)
			if !bytes.Equal(got, tc.want) {
				t.Fatalf("Shuffle = %v, want %v", got, tc.want)
			}
			back := make([]byte, len(tc.src))
			filter.Unshuffle(back, got, tc.typesize)
			if !bytes.Equal(back, tc.src) {
				t.Fatalf("Unshuffle = %v, want %v", back, tc.src)
			}
		})
	}
}

// TestBitShuffleKnown checks hand-computed bit matrices. Rows are m/8 bytes;
// row 8*j+k holds bit k of byte j of each element, element i at bit i%8 of
// row byte i/8.
func TestBitShuffleKnown(t *testing.T) {
	// ts2, 16 elements: byte 0 = i, byte 1 = 0x80 for element 3 only.
	// Row 0 (bit 0 of i): odd i → 0xAAAA; row 1: 0xCCCC; row 2: 0xF0F0;
	// row 3: i >= 8 → 0xFF00; rows 4..14: 0; row 15 (bit 7 of byte 1):
	// element 3 → 0x0008.
	ts2 := make([]byte, 32)
	for i := range 16 {
		ts2[2*i] = byte(i)
	}
	ts2[2*3+1] = 0x80
	want2 := hexBytes(0xAA, 0xAA, 0xCC, 0xCC, 0xF0, 0xF0, 0x00, 0xFF,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x00)

	// ts4, 16 elements: byte 0 = 0xFF, byte 1 = i, byte 2 = 0, byte 3 =
	// 0x80 for element 15 only. Rows 0..7: all ones; rows 8..11 as above;
	// rows 12..30: 0; row 31: element 15 → 0x8000.
	ts4 := make([]byte, 64)
	for i := range 16 {
		ts4[4*i] = 0xFF
		ts4[4*i+1] = byte(i)
	}
	ts4[4*15+3] = 0x80
	want4 := hexBytes(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
		0xAA, 0xAA, 0xCC, 0xCC, 0xF0, 0xF0, 0x00, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x80)

	// Leftover rule: 19 elements + 1 byte of ts2: only 16 elements move.
	tail := append(append([]byte{}, ts2...), 1, 2, 3, 4, 5, 6, 7)
	wantTail := append(append([]byte{}, want2...), 1, 2, 3, 4, 5, 6, 7)

	// ts1, 8 elements = one 8×8 bit matrix: element i = 1<<i transposes to
	// itself; element i = 0xFF for i == 2 fills row by row.
	ts1 := hexBytes(0, 0, 0xFF, 0, 0, 0, 0, 0x01)
	want1 := hexBytes(0x84, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04)

	tests := []struct {
		name     string
		typesize int
		src      []byte
		want     []byte
	}{
		{"ts2 16 elements", 2, ts2, want2},
		{"ts4 16 elements", 4, ts4, want4},
		{"ts2 leftover", 2, tail, wantTail},
		{"ts1 8 elements", 1, ts1, want1},
		{"fewer than 8 elements", 4, seq(28), seq(28)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := make([]byte, len(tc.src))
			if err := filter.BitShuffle(got, tc.src, tc.typesize); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.want) {
				t.Fatalf("BitShuffle = % x\nwant        % x", got, tc.want)
			}
			back := make([]byte, len(tc.src))
			if err := filter.BitUnshuffle(back, got, tc.typesize); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back, tc.src) {
				t.Fatalf("BitUnshuffle = % x, want % x", back, tc.src)
			}
		})
	}
}

func TestBitShuffleErrors(t *testing.T) {
	if err := filter.BitShuffle(make([]byte, 8), seq(8), 0); !errors.Is(err, filter.ErrInvalidParam) {
		t.Errorf("typesize 0: %v", err)
	}
	if err := filter.BitUnshuffle(make([]byte, 7), seq(8), 1); !errors.Is(err, filter.ErrInvalidParam) {
		t.Errorf("short dst: %v", err)
	}
}

// refShuffle and refBitShuffle are the spec's formulas (§2.7.1, §2.7.2),
// one byte or bit at a time.
func refShuffle(src []byte, w int) []byte {
	out := append([]byte{}, src...)
	m := len(src) / w
	for j := range w {
		for i := range m {
			out[j*m+i] = src[i*w+j]
		}
	}
	return out
}

func refBitShuffle(src []byte, w int) []byte {
	out := append([]byte{}, src...)
	m := len(src) / w &^ 7
	clear(out[:m*w])
	for j := range w {
		for k := range 8 {
			for i := range m {
				if src[i*w+j]>>k&1 != 0 {
					bit := (8*j+k)*m + i
					out[bit/8] |= 1 << (bit % 8)
				}
			}
		}
	}
	return out
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// TestRoundTrips runs every kernel pair on random data of every length
// 0..300 and typesizes 1..17, plus sizes that cross bitshuffle tiles, and
// compares the forward kernels with the reference formulas.
func TestRoundTrips(t *testing.T) {
	// Where the CPU has AVX2, run the SSE2 kernels as well.
	for _, avx2 := range []bool{true, false} {
		t.Run(fmt.Sprintf("avx2=%v", avx2), func(t *testing.T) {
			defer filter.SetAVX2(filter.SetAVX2(avx2))
			roundTrips(t)
		})
	}
}

func roundTrips(t *testing.T) {
	const seed = 0xb10c
	t.Logf("seed %#x", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	var lens []int
	for n := range 301 {
		lens = append(lens, n)
	}
	lens = append(lens, 4096+24, 16384*3+136, 262144+17)
	for _, n := range lens {
		for ts := 1; ts <= 17; ts++ {
			name := fmt.Sprintf("n=%d/ts=%d", n, ts)
			src := randBytes(rng, n)
			ref := randBytes(rng, n+int(rng.IntN(9)))
			enc := make([]byte, n)
			dec := make([]byte, n)

			filter.Shuffle(enc, src, ts)
			if want := refShuffle(src, ts); !bytes.Equal(enc, want) {
				t.Fatalf("%s: Shuffle differs from formula", name)
			}
			filter.Unshuffle(dec, enc, ts)
			if !bytes.Equal(dec, src) {
				t.Fatalf("%s: Unshuffle round trip", name)
			}

			if err := filter.BitShuffle(enc, src, ts); err != nil {
				t.Fatal(err)
			}
			if want := refBitShuffle(src, ts); !bytes.Equal(enc, want) {
				t.Fatalf("%s: BitShuffle differs from formula", name)
			}
			if err := filter.BitUnshuffle(dec, enc, ts); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(dec, src) {
				t.Fatalf("%s: BitUnshuffle round trip", name)
			}

			for _, first := range []bool{true, false} {
				filter.DeltaEncode(enc, src, ref, ts, first)
				filter.DeltaDecode(dec, enc, ref, ts, first)
				if !bytes.Equal(dec, src) {
					t.Fatalf("%s first=%v: Delta round trip", name, first)
				}
				// In place, as a chunk reader decodes.
				filter.DeltaDecode(enc, enc, ref, ts, first)
				if !bytes.Equal(enc, src) {
					t.Fatalf("%s first=%v: in-place DeltaDecode", name, first)
				}
			}

			filter.ByteDeltaEncode(enc, src, ts)
			filter.ByteDeltaDecode(dec, enc, ts)
			if !bytes.Equal(dec, src) {
				t.Fatalf("%s: ByteDelta round trip", name)
			}
			filter.ByteDeltaDecode(enc, enc, ts)
			if !bytes.Equal(enc, src) {
				t.Fatalf("%s: in-place ByteDeltaDecode", name)
			}
		}
	}
}

func TestDeltaKnown(t *testing.T) {
	// uint16 words 0x0001, 0x0003, 0x0007 and a trailing byte 0xEE.
	src := hexBytes(0x01, 0x00, 0x03, 0x00, 0x07, 0x00, 0xEE)
	ref := hexBytes(0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70)
	tests := []struct {
		name  string
		ts    int
		first bool
		want  []byte
	}{
		// Block 0: word i ^ word i-1 = 1, 1^3 = 2, 3^7 = 4; tail kept.
		{"first ts2", 2, true, hexBytes(0x01, 0x00, 0x02, 0x00, 0x04, 0x00, 0xEE)},
		// Other blocks: XOR with block 0 at the same index; tail kept.
		{"other ts2", 2, false, hexBytes(0x11, 0x20, 0x33, 0x40, 0x57, 0x60, 0xEE)},
		// typesize 3 works bytewise: every byte XOR the previous one.
		{"first ts3", 3, true, hexBytes(0x01, 0x01, 0x03, 0x03, 0x07, 0x07, 0xEE)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := make([]byte, len(src))
			filter.DeltaEncode(got, src, ref, tc.ts, tc.first)
			if !bytes.Equal(got, tc.want) {
				t.Fatalf("DeltaEncode = % x, want % x", got, tc.want)
			}
			back := make([]byte, len(src))
			filter.DeltaDecode(back, got, ref, tc.ts, tc.first)
			if !bytes.Equal(back, src) {
				t.Fatalf("DeltaDecode = % x, want % x", back, src)
			}
		})
	}
}

func TestByteDeltaKnown(t *testing.T) {
	// Two channels of 3 bytes and one trailing byte.
	src := hexBytes(1, 3, 6, 10, 10, 9, 42)
	want := hexBytes(1, 2, 3, 10, 0, 0xFF, 42)
	got := make([]byte, len(src))
	filter.ByteDeltaEncode(got, src, 2)
	if !bytes.Equal(got, want) {
		t.Fatalf("ByteDeltaEncode = % x, want % x", got, want)
	}
	filter.ByteDeltaDecode(got, got, 2)
	if !bytes.Equal(got, src) {
		t.Fatalf("ByteDeltaDecode = % x, want % x", got, src)
	}
}

func TestTruncPrec(t *testing.T) {
	x := math.Float64bits(1.0/3.0 + 1.0)
	src := binary.LittleEndian.AppendUint64(nil, x)
	src = append(src, 0xAB) // trailing byte kept
	tests := []struct {
		name string
		ts   int
		p    int
		want uint64
		err  bool
	}{
		{"keep 20 of 52", 8, 20, x & 0xFFFFFFFF00000000, false},
		{"zero 4", 8, -4, x &^ 0xF, false},
		{"keep 52", 8, 52, x, false},
		{"keep 0", 8, 0, 0, true},
		{"zero 52", 8, -52, 0, true},
		{"beyond mantissa", 8, 53, 0, true},
		{"typesize 2", 2, 4, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]byte, len(src))
			err := filter.TruncPrec(dst, src, tc.ts, tc.p)
			if tc.err {
				if !errors.Is(err, filter.ErrInvalidParam) {
					t.Fatalf("err = %v, want ErrInvalidParam", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := binary.LittleEndian.Uint64(dst); got != tc.want || dst[8] != 0xAB {
				t.Fatalf("got %#x tail %#x, want %#x", got, dst[8], tc.want)
			}
		})
	}
	f32 := binary.LittleEndian.AppendUint32(nil, math.Float32bits(1.1))
	dst := make([]byte, 4)
	if err := filter.TruncPrec(dst, f32, 4, 3); err != nil {
		t.Fatal(err)
	}
	if got, want := binary.LittleEndian.Uint32(dst), math.Float32bits(1.1)&^(1<<20-1); got != want {
		t.Fatalf("float32: %#x, want %#x", got, want)
	}
}

func ExampleShuffle() {
	src := []byte{0x01, 0x02, 0x11, 0x12, 0x21, 0x22, 0xFF} // three uint16 + 1 tail byte
	dst := make([]byte, len(src))
	filter.Shuffle(dst, src, 2)
	fmt.Printf("% x\n", dst)
	// Output: 01 11 21 02 12 22 ff
}

// TestWideTypesizes covers element widths beyond the common ones: the
// bitshuffle tile shrinks below 64 elements (300) or to 8 elements with a
// heap scratch (2049), and odd widths take every plane-group kernel.
func TestWideTypesizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, ts := range []int{23, 64, 255, 300, 2049} {
		for _, elems := range []int{7, 8, 63, 200} {
			n := ts*elems + rng.IntN(ts)
			src := randBytes(rng, n)
			enc := make([]byte, n)
			dec := make([]byte, n)
			filter.Shuffle(enc, src, ts)
			if !bytes.Equal(enc, refShuffle(src, ts)) {
				t.Fatalf("ts=%d n=%d: Shuffle differs from formula", ts, n)
			}
			filter.Unshuffle(dec, enc, ts)
			if !bytes.Equal(dec, src) {
				t.Fatalf("ts=%d n=%d: Unshuffle round trip", ts, n)
			}
			if err := filter.BitShuffle(enc, src, ts); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(enc, refBitShuffle(src, ts)) {
				t.Fatalf("ts=%d n=%d: BitShuffle differs from formula", ts, n)
			}
			if err := filter.BitUnshuffle(dec, enc, ts); err != nil || !bytes.Equal(dec, src) {
				t.Fatalf("ts=%d n=%d: BitUnshuffle round trip (%v)", ts, n, err)
			}
		}
	}
}

// TestDeltaShortRef: a reference shorter than the block must not panic.
func TestDeltaShortRef(t *testing.T) {
	src := seq(16)
	ref := []byte{0xFF, 0xFF, 0xFF, 0xFF}
	dst := make([]byte, 16)
	filter.DeltaDecode(dst, src, ref, 2, false)
	want := append([]byte{0xFF, 0xFE, 0xFD, 0xFC}, seq(16)[4:]...)
	if !bytes.Equal(dst, want) {
		t.Fatalf("got % x, want % x", dst, want)
	}
	filter.DeltaEncode(dst, src, nil, 8, false)
	if !bytes.Equal(dst, src) {
		t.Fatalf("nil ref: got % x", dst)
	}
}
