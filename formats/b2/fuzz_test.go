package b2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// Fuzz targets: decoders must never panic, must bound allocations by what
// the input justifies (fuzzguard: 64 bytes per input byte plus the outputs
// the harness sizes from a validated header, at most fuzzMaxOut each), must
// finish each input within fuzzguard.Timeout, and every error must wrap
// ErrCorrupt (or ErrUnsupported for valid-looking plugin features).

const fuzzMaxOut = 1 << 21

func checkErr(t *testing.T, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
		t.Fatalf("error does not wrap ErrCorrupt: %v", err)
	}
}

func fixtureFiles(t testing.TB, pattern string) [][]byte {
	paths, _ := filepath.Glob(filepath.Join("testdata", pattern))
	var out [][]byte
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func FuzzReadChunk(f *testing.F) {
	for _, b := range fixtureFiles(f, "*.cdata") {
		f.Add(b)
	}
	seeds := append(fixtureFiles(f, "*.b2*"), fixtureFiles(f, "cblosc2/*.b2*")...)
	for _, b := range seeds {
		if fr, err := NewFrame(b, "seed"); err == nil {
			for i := 0; i < fr.NChunks() && i < 4; i++ {
				if c, err := fr.ChunkData(i); err == nil {
					f.Add(append([]byte(nil), c...))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		h, err := ParseChunkHeader(data)
		checkErr(t, err)
		if err != nil || h.Nbytes > fuzzMaxOut {
			return
		}
		// dst, and the decoder's block scratch (two filter buffers, a
		// partial block, DELTA's reference) of at most nbytes each.
		g.Allow(5 * h.Nbytes)
		dst := make([]byte, h.Nbytes)
		d := NewDecoder()
		defer d.Release()
		_, err = d.Decompress(dst, data)
		checkErr(t, err)
		if h.Nbytes > 2 {
			checkErr(t, d.DecompressRange(dst, data, h.Nbytes/3, h.Nbytes/3))
		}
		_, err = d.DecompressBlock(dst, data, 0)
		if err != nil && !strings.Contains(err.Error(), "out of range") {
			checkErr(t, err)
		}
	})
}

func FuzzReadFrame(f *testing.F) {
	for _, b := range fixtureFiles(f, "*.b2*") {
		f.Add(b)
	}
	for _, b := range fixtureFiles(f, "cblosc2/*.b2*") {
		if len(b) < 8192 { // the small ones: big seeds only slow each mutation
			f.Add(b)
		}
	}
	// Small frames reach deep paths with few mutations.
	dir := f.TempDir()
	small := le32s(100, func(i int) int32 { return int32(i % 7) })
	p := CParams{Codec: LZ4, CLevel: 5, Typesize: 4, Filters: [6]uint8{4: FilterDelta, 5: FilterShuffle}}
	if err := WriteArray(dir+"/a.b2nd", "<i4", []int64{10, 10}, small, &ArrayOptions{ChunkShape: []int{4, 6}, BlockShape: []int{2, 3}, CParams: &p,
		VLMeta: []Metalayer{{Name: "k", Content: []byte{0x92, 1, 2}}}}); err != nil {
		f.Fatal(err)
	}
	if err := WriteArray(dir+"/z.b2nd", "<f8", []int64{64}, make([]byte, 512), &ArrayOptions{ChunkShape: []int{16}, BlockShape: []int{8}}); err != nil {
		f.Fatal(err)
	}
	// Doubles in [1, 2) with random mantissas: SHUFFLE planes the writer
	// stores raw (planes.go), one zstd-coded and one a run.
	rnd := make([]byte, 8*256)
	x := uint64(88172645463325252)
	for i := 0; i < len(rnd); i += 8 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		binary.LittleEndian.PutUint64(rnd[i:], 0x3FF0_0000_0000_0000|x&0x0003_FFFF_FFFF_FFFF)
	}
	if err := WriteArray(dir+"/r.b2nd", "<f8", []int64{256}, rnd, &ArrayOptions{ChunkShape: []int{128}, BlockShape: []int{64}}); err != nil {
		f.Fatal(err)
	}
	fw, err := CreateFrame(dir+"/v.b2frame", nil)
	if err != nil {
		f.Fatal(err)
	}
	fw.Append(small[:40])
	fw.Append(small[:64])
	fw.Close()
	for _, n := range []string{"a.b2nd", "z.b2nd", "r.b2nd", "v.b2frame"} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		fr, err := NewFrame(data, "fuzz")
		checkErr(t, err)
		if err != nil {
			return
		}
		// The same bytes read as a file (pread, the chunk prefix kept
		// from read to read by one Decoder): where both reads succeed
		// they give the same bytes.
		ff, err := NewFileFrame(data, "fuzz", bytes.NewReader(data), 0)
		checkErr(t, err)
		d := NewDecoder()
		defer d.Release()
		total := 0
		for i := 0; i < fr.NChunks() && i < 64; i++ {
			n, err := fr.ChunkNbytes(i)
			checkErr(t, err)
			if err != nil || n > fuzzMaxOut || total+n > fuzzMaxOut {
				continue
			}
			total += n
			g.Allow(7 * n) // dst, the file read's part, block scratch
			want := make([]byte, n)
			_, err = fr.DecompressChunk(nil, want, i)
			checkErr(t, err)
			if ff == nil {
				continue
			}
			for off := 0; off < n; off += max(1, n/4) {
				part := make([]byte, min(max(1, n/4), n-off))
				ferr := ff.DecompressChunkRange(d, part, i, off)
				checkErr(t, ferr)
				if err == nil && ferr == nil && !bytes.Equal(part, want[off:off+len(part)]) {
					t.Fatalf("chunk %d bytes [%d, +%d) read from the file differ from memory", i, off, len(part))
				}
			}
		}
		if fr.Header.Nbytes <= fuzzMaxOut && fr.NChunks() <= 1024 {
			g.Allow(6 * int(fr.Header.Nbytes))
			_, err := fr.DecompressAll()
			checkErr(t, err)
		}
		for _, name := range fr.VLMetaNames() {
			_, err := fr.VLMetaValue(name)
			checkErr(t, err)
		}
		a, err := NewArray(fr)
		if err != nil {
			if !strings.Contains(err.Error(), "no b2nd metalayer") {
				checkErr(t, err)
			}
			return
		}
		if a.Len()*int64(a.ItemSize()) <= fuzzMaxOut && a.Len() >= 0 {
			// The result, and a padded chunk per worker.
			g.Allow(3*int(a.Len())*a.ItemSize() + 6*fuzzMaxOut)
			_, err := a.ReadAll()
			checkErr(t, err)
		}
	})
}

func FuzzB2ndMeta(f *testing.F) {
	for _, b := range fixtureFiles(f, "*.b2nd") {
		if fr, err := NewFrame(b, "seed"); err == nil {
			if m, ok := fr.MetaContent("b2nd"); ok {
				f.Add(append([]byte(nil), m...))
			}
		}
	}
	f.Add(B2ndMeta{Shape: []int64{3}, ChunkShape: []int{2}, BlockShape: []int{1}, DType: "[('a', '<i8'), ('b', 'u1', (2,))]"}.Encode())
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		m, err := ParseB2ndMeta(data)
		checkErr(t, err)
		if err != nil {
			return
		}
		// Re-encoding and parsing again is stable.
		m2, err := ParseB2ndMeta(m.Encode())
		if err != nil {
			t.Fatalf("re-parse: %v", err)
		}
		if len(m2.Shape) != len(m.Shape) || m2.DType != m.DType {
			t.Fatalf("round trip changed %+v → %+v", m, m2)
		}
		for i := range m.Shape {
			if m.Shape[i] != m2.Shape[i] || m.ChunkShape[i] != m2.ChunkShape[i] || m.BlockShape[i] != m2.BlockShape[i] {
				t.Fatalf("round trip changed %+v → %+v", m, m2)
			}
		}
		_, err = ParseDType(m.DType)
		checkErr(t, err)
	})
}
