package parquet

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// The byte strings are the worked examples of the Parquet encodings spec
// (Encodings.md, "Run Length Encoding / Bit-Packing Hybrid" and the
// deprecated "Bit-packed" level encoding): the values 0..7 at width 3.
func TestDecodeHybrid(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		bw   int
		n    int
		want []int32
	}{
		{"rle", []byte{5 << 1, 0x05}, 3, 5, []int32{5, 5, 5, 5, 5}},
		{"bitpacked", []byte{1<<1 | 1, 0x88, 0xC6, 0xFA}, 3, 8, []int32{0, 1, 2, 3, 4, 5, 6, 7}},
		{"bitpacked padding dropped", []byte{1<<1 | 1, 0x88, 0xC6, 0xFA}, 3, 6, []int32{0, 1, 2, 3, 4, 5}},
		{"rle then bitpacked", []byte{3 << 1, 0x02, 1<<1 | 1, 0x88, 0xC6, 0xFA}, 3, 11, []int32{2, 2, 2, 0, 1, 2, 3, 4, 5, 6, 7}},
		{"rle run longer than needed (100, two-byte header)", []byte{0xC8, 0x01, 0x01}, 1, 4, []int32{1, 1, 1, 1}},
		{"two-byte rle value", []byte{2 << 1, 0x34, 0x12}, 13, 2, []int32{0x1234, 0x1234}},
		{"width 0", []byte{1<<1 | 1}, 0, 8, []int32{0, 0, 0, 0, 0, 0, 0, 0}},
		{"width 32", []byte{1 << 1, 0xff, 0xff, 0xff, 0x7f}, 32, 1, []int32{0x7fffffff}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeHybrid(tc.src, tc.bw, tc.n, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDecodeHybridCorrupt(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		bw   int
		n    int
	}{
		{"empty", nil, 3, 1},
		{"width 33", []byte{2, 0}, 33, 1},
		{"rle value truncated", []byte{2 << 1}, 9, 2},
		{"rle value too wide", []byte{2 << 1, 0x09}, 3, 2},
		{"rle of zero", []byte{0, 0x01}, 1, 1},
		{"bitpacked truncated", []byte{2<<1 | 1, 0x88, 0xC6, 0xFA}, 3, 16},
		{"bitpacked of zero groups", []byte{1}, 3, 1},
		{"runs end early", []byte{2 << 1, 0x01}, 1, 5},
		{"header overflow", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 1, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeHybrid(tc.src, tc.bw, tc.n, nil)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("err = %v, want ErrCorrupt", err)
			}
		})
	}
}

func TestUnpackLegacyLevels(t *testing.T) {
	got, err := unpackLegacyLevels([]byte{0x05, 0x39, 0x77}, 3, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{0, 1, 2, 3, 4, 5, 6, 7}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if _, err := unpackLegacyLevels([]byte{0x05}, 3, 8, nil); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("truncated: err = %v", err)
	}
}

// FuzzDecodeHybrid: never panics, never returns more than n values.
func FuzzDecodeHybrid(f *testing.F) {
	f.Add([]byte{3 << 1, 0x02, 1<<1 | 1, 0x88, 0xC6, 0xFA}, uint8(3), uint16(11))
	f.Add([]byte{1 << 1, 0xff, 0xff, 0xff, 0x7f}, uint8(32), uint16(1))
	f.Fuzz(func(t *testing.T, src []byte, bw uint8, n uint16) {
		out, err := decodeHybrid(src, int(bw), int(n), nil)
		if err == nil && len(out) != int(n) {
			t.Fatalf("%d values for %d", len(out), n)
		}
		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestUnpackWidths packs values bit by bit (the spec's little-endian
// order) and checks unpack at every width and several lengths, so that
// its one-load-per-group and one-load-per-value paths and its tail agree.
func TestUnpackWidths(t *testing.T) {
	for bw := 0; bw <= 32; bw++ {
		for _, cnt := range []int{1, 7, 8, 9, 64, 100} {
			vals := make([]int32, cnt)
			for i := range vals {
				x := uint64(i*2654435761+bw) & (1<<uint(bw) - 1)
				vals[i] = int32(x)
			}
			src := make([]byte, (cnt*bw+7)/8)
			for i, v := range vals {
				for j := 0; j < bw; j++ {
					if uint32(v)>>uint(j)&1 != 0 {
						p := i*bw + j
						src[p/8] |= 1 << uint(p%8)
					}
				}
			}
			got := unpack(src, bw, cnt, []int32{-9})
			if got[0] != -9 || !slices.Equal(got[1:], vals) {
				t.Fatalf("bw=%d cnt=%d: got %v, want %v", bw, cnt, got[1:], vals)
			}
		}
	}
}

// BenchmarkUnpack unpacks 64K bit-packed values per width: narrow codes
// (one load per group), dates and keys (9..24 bits: one load per value at
// offsets fixed per group), and wide values.
func BenchmarkUnpack(b *testing.B) {
	const n = 64 << 10
	for _, bw := range []int{2, 6, 12, 14, 20, 28} {
		src := make([]byte, n*bw/8+8)
		for i := range src {
			src[i] = byte(i * 7919)
		}
		out := make([]int32, 0, n)
		b.Run(fmt.Sprintf("bw=%d", bw), func(b *testing.B) {
			b.SetBytes(n * 4)
			cpu0 := cpuTime()
			for b.Loop() {
				out = unpack(src, bw, n, out[:0])
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/(float64(b.N)*n), "cpu-ns/value")
		})
	}
}
