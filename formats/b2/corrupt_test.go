package b2

import (
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestTruncatedFrames cuts fixtures at every length and flips bytes: the
// reader must return ErrCorrupt errors, never panic.
func TestTruncatedFrames(t *testing.T) {
	for _, name := range []string{"nd_i32_2d_edges_zstd.b2nd", "sc_special_chunks_f64.b2frame", "sc_vlblocks_lz4.b2frame", "sc_lz4_dict_i32.b2frame"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		step := max(1, len(b)/400)
		for n := 0; n < len(b); n += step {
			fr, err := NewFrame(b[:n], name)
			if err == nil {
				t.Fatalf("%s truncated to %d: no error", name, n)
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s truncated to %d: %v", name, n, err)
			}
			_ = fr
		}
		for i := 0; i < len(b); i += step {
			c := append([]byte(nil), b...)
			c[i] ^= 0xff
			fr, err := NewFrame(c, name)
			checkErr(t, err)
			if err != nil {
				continue
			}
			for k := 0; k < fr.NChunks(); k++ {
				n, err := fr.ChunkNbytes(k)
				if err != nil || n > 1<<24 {
					continue
				}
				_, err = fr.DecompressChunk(nil, make([]byte, n), k)
				checkErr(t, err)
			}
		}
	}
}

func TestCorruptChunkErrors(t *testing.T) {
	src, _ := os.ReadFile("testdata/compat_blosc-lz4-3.0.0.cdata")
	h, _ := ParseChunkHeader(src)
	mut := func(f func(b []byte)) []byte {
		b := append([]byte(nil), src...)
		f(b)
		return b
	}
	cases := map[string][]byte{
		"short":                   src[:10],
		"cbytes past end":         src[:h.Cbytes-1],
		"zero typesize":           mut(func(b []byte) { b[3] = 0 }),
		"bad version":             mut(func(b []byte) { b[0] = 9 }),
		"blocksize 0":             mut(func(b []byte) { binary.LittleEndian.PutUint32(b[8:], 0) }),
		"huge blocksize":          mut(func(b []byte) { binary.LittleEndian.PutUint32(b[8:], 1<<30) }),
		"negative nbytes":         mut(func(b []byte) { binary.LittleEndian.PutUint32(b[4:], 0xffffff00) }),
		"bstart past end":         mut(func(b []byte) { binary.LittleEndian.PutUint32(b[32:], uint32(h.Cbytes)) }),
		"bstart in header":        mut(func(b []byte) { binary.LittleEndian.PutUint32(b[32:], 8) }),
		"reserved special":        mut(func(b []byte) { b[31] = 0x70 }),
		"huge nbytes, tiny input": mut(func(b []byte) { binary.LittleEndian.PutUint32(b[4:], 1<<30) }),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			hh, err := ParseChunkHeader(b)
			if err == nil {
				if hh.Nbytes > 1<<24 {
					_, err = parseChunk(b)
				} else {
					_, err = Decompress(make([]byte, hh.Nbytes), b)
				}
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("err = %v, want ErrCorrupt", err)
			}
		})
	}
	// Errors from frames name the file, the chunk and its offset.
	b, _ := os.ReadFile("testdata/nd_f64_3d_lz4.b2nd")
	fr, err := NewFrame(b, "x.b2nd")
	if err != nil {
		t.Fatal(err)
	}
	pos := fr.chunkPos(2)
	b[pos+40] ^= 0x55 // inside chunk 2's streams
	b[pos+41] ^= 0x55
	b[pos+60] ^= 0x55
	_, err = fr.DecompressChunk(nil, make([]byte, 1152), 2)
	if err == nil || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "x.b2nd: chunk 2 at offset") {
		t.Fatalf("err = %v", err)
	}
}
