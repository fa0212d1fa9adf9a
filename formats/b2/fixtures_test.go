package b2

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// Expected payloads of the reference fixtures, computed from the formulas
// of testdata/README.md (copied from shared/fixtures/b2/README.md).

func le32s(n int, f func(i int) int32) []byte {
	b := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(f(i)))
	}
	return b
}

func le64s(n int, f func(i int) uint64) []byte {
	b := make([]byte, 8*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint64(b[8*i:], f(i))
	}
	return b
}

func le16s(n int, f func(i int) uint16) []byte {
	b := make([]byte, 2*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint16(b[2*i:], f(i))
	}
	return b
}

func f64s(n int, f func(i int) float64) []byte {
	return le64s(n, func(i int) uint64 { return math.Float64bits(f(i)) })
}

func f32s(n int, f func(i int) float32) []byte {
	return le32s(n, func(i int) int32 { return int32(math.Float32bits(f(i))) })
}

func textFixture(n int) []byte {
	w := []string{"alpha ", "beta ", "gamma ", "delta ", "epsilon "}
	var b []byte
	for k := 0; len(b) < n; k++ {
		b = append(b, w[(k*k+3*k)%5]...)
	}
	return b[:n]
}

func ts3Fixture() []byte {
	b := make([]byte, 30021)
	for k := range b {
		b[k] = byte((k*7 + k/3) & 0xff)
	}
	return b
}

func specialFixture() []byte {
	var b []byte
	for c := 0; c < 6; c++ {
		b = append(b, f64s(4096, func(j int) float64 {
			switch c {
			case 0:
				return float64(j) * 0.5
			case 2:
				return math.Float64frombits(0x7FF8000000000000)
			case 3:
				return 3.5
			case 4:
				switch {
				case j < 1024:
					return 7.0
				case j < 2048:
					return 0.0
				case j < 3072:
					return float64(j) * 0.5
				}
				return -1.0
			}
			return 0
		})...)
	}
	return b
}

func vlblocksFixture() []byte {
	var b []byte
	for c := 0; c < 2; c++ {
		nb := 5
		if c == 1 {
			nb = 3
		}
		for blk := 0; blk < nb; blk++ {
			n := 1 + (5*c+blk)*37
			for k := 0; k < n; k++ {
				b = append(b, byte('a'+(k+blk+c)%26))
			}
		}
	}
	return b
}

var frameFixtures = []struct {
	file string
	want func() []byte
}{
	{"sc_blosclz_shuffle_i32.b2frame", func() []byte { return le32s(50000, func(i int) int32 { return int32(i*3 - 7) }) }},
	{"sc_lz4_bitshuffle_i64.b2frame", func() []byte {
		return le64s(30000, func(i int) uint64 { return uint64(int64((i*i)%1000003 - 500000)) })
	}},
	{"sc_lz4hc_shuffle_f64.b2frame", func() []byte { return f64s(30000, func(i int) float64 { return float64(i)*0.25 - 100.0 }) }},
	{"sc_zlib_delta_shuffle_u16.b2frame", func() []byte { return le16s(40000, func(i int) uint16 { return uint16(i * 7) }) }},
	{"sc_zstd_shuffle_u32.b2frame", func() []byte { return le32s(40000, func(i int) int32 { return int32(uint32((i / 3) * 5)) }) }},
	{"sc_zstd_bitshuffle_f32.b2frame", func() []byte {
		return f32s(20000, func(i int) float32 { return float32(i%1000)*float32(0.5) - float32(3.0) })
	}},
	{"sc_zstd_truncprec20_shuffle_f64.b2frame", func() []byte {
		return le64s(20000, func(i int) uint64 { return math.Float64bits(float64(i)/3.0+1.0) & 0xFFFFFFFF00000000 })
	}},
	{"sc_blosclz_nofilter_u8.b2frame", func() []byte {
		b := make([]byte, 100000)
		for i := range b {
			b[i] = byte((i*31 + 7) & 0xff)
		}
		return b
	}},
	{"sc_blosclz_text_u8.b2frame", func() []byte { return textFixture(60000) }},
	{"sc_lz4_shuffle_bytedelta_i32.b2frame", func() []byte { return le32s(30000, func(i int) int32 { return int32(1000000 + i*i) }) }},
	{"sc_memcpyed_i16.b2frame", func() []byte { return le16s(10000, func(i int) uint16 { return uint16(int16(i * 13)) }) }},
	{"sc_zstd_dict_i64.b2frame", func() []byte { return le64s(100000, func(i int) uint64 { return uint64((i % 1000) * 1000003) }) }},
	{"sc_lz4_dict_i32.b2frame", func() []byte { return le32s(100000, func(i int) int32 { return int32((i%777)*31 + i/5000) }) }},
	{"sc_lz4_nosplit_shuffle_i32.b2frame", func() []byte { return le32s(20000, func(i int) int32 { return int32(i * 17 % 4099) }) }},
	{"sc_zlib_alwayssplit_bitshuffle_i32.b2frame", func() []byte { return le32s(20000, func(i int) int32 { return int32(i * 17 % 4099) }) }},
	{"sc_lz4_bitshuffle_ts3_odd.b2frame", ts3Fixture},
	{"sc_blosclz_shuffle_ts3_odd.b2frame", ts3Fixture},
	{"sc_sparse_zstd_i32.b2frame", func() []byte { return le32s(25000, func(i int) int32 { return int32(i%5000 - 2500) }) }},
	{"sc_special_chunks_f64.b2frame", specialFixture},
	{"sc_vlblocks_lz4.b2frame", vlblocksFixture},
}

// readAll decodes every chunk of a frame sequentially, through ChunkData
// and the Decoder, without the parallel path.
func readAll(t testing.TB, f *Frame) []byte {
	t.Helper()
	var out []byte
	d := NewDecoder()
	defer d.Release()
	for i := 0; i < f.NChunks(); i++ {
		n, err := f.ChunkNbytes(i)
		if err != nil {
			t.Fatalf("chunk %d nbytes: %v", i, err)
		}
		buf := make([]byte, n)
		if _, err := f.DecompressChunk(d, buf, i); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
		out = append(out, buf...)
	}
	return out
}

func TestFrameFixtures(t *testing.T) {
	for _, tc := range frameFixtures {
		t.Run(tc.file, func(t *testing.T) {
			f, err := Open(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got := readAll(t, f)
			want := tc.want()
			if int64(len(got)) != f.Header.Nbytes {
				t.Errorf("decoded %d bytes, header nbytes %d", len(got), f.Header.Nbytes)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("payload mismatch: got %d bytes, want %d; first diff at %d", len(got), len(want), firstDiff(got, want))
			}
			// Partial decodes of every chunk agree with the formula.
			var base int
			for i := 0; i < f.NChunks(); i++ {
				nb, _ := f.ChunkNbytes(i)
				off, n := nb/3, nb/4+1
				if off+n > nb {
					off, n = 0, nb
				}
				part := make([]byte, n)
				if err := f.DecompressChunkRange(nil, part, i, off); err != nil {
					t.Fatalf("chunk %d range: %v", i, err)
				}
				if !bytes.Equal(part, want[base+off:base+off+n]) {
					t.Fatalf("chunk %d range [%d,+%d) mismatch", i, off, n)
				}
				base += nb
			}
			all, err := f.DecompressAll()
			if err != nil || !bytes.Equal(all, want) {
				t.Fatalf("DecompressAll: %v", err)
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestCompatChunks(t *testing.T) {
	cases := []struct {
		file    string
		version uint8
		n       int
	}{
		{"compat_blosc-1.3.0-blosclz.cdata", 2, 1000000},
		{"compat_blosc-1.7.0-lz4hc.cdata", 2, 1000000},
		{"compat_blosc-1.11.1-zstd.cdata", 2, 1000000},
		{"compat_blosc-1.14.0-zlib.cdata", 2, 1000000},
		{"compat_blosc-2.0.0-lz4-bitshuffle4-memcpy.cdata", 4, 160273},
		{"compat_blosc-lz4-3.0.0.cdata", 5, 1000000},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			h, err := ParseChunkHeader(src)
			if err != nil {
				t.Fatal(err)
			}
			if h.Version != tc.version {
				t.Errorf("version %d, want %d", h.Version, tc.version)
			}
			want := le32s(tc.n, func(i int) int32 { return int32(i) })
			dst := make([]byte, h.Nbytes)
			n, err := Decompress(dst, src)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(dst[:n], want) {
				t.Fatalf("mismatch at byte %d", firstDiff(dst[:n], want))
			}
			// Partial decode: items straddling block boundaries.
			for _, r := range [][2]int{{0, 1}, {12345, 5000}, {tc.n - 3, 3}, {h.Blocksize/4 - 1, 2}} {
				got := make([]byte, 4*r[1])
				if err := GetItems(got, src, r[0], r[1]); err != nil {
					t.Fatalf("GetItems%v: %v", r, err)
				}
				if !bytes.Equal(got, want[4*r[0]:4*(r[0]+r[1])]) {
					t.Fatalf("GetItems%v mismatch", r)
				}
			}
		})
	}
}
