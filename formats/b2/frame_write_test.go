package b2

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

func mp(t testing.TB, v any) []byte {
	b, err := msgpack.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFrameWriterRoundTrip(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	data := genData("i32small", 1<<20, rng)
	for _, codec := range []Codec{BloscLZ, LZ4, LZ4HC, Zlib, Zstd} {
		for fname, fl := range map[string][6]uint8{"none": {}, "shuffle": {5: 1}, "bitshuffle": {5: 2}, "delta": {4: 3, 5: 1}, "bytedelta": {4: 1, 5: 35}} {
			p := CParams{Codec: codec, CLevel: 5, Typesize: 4, Filters: fl}
			path := filepath.Join(dir, codec.String()+fname+".b2frame")
			fw, err := CreateFrame(path, &FrameOptions{CParams: &p, Chunksize: 256 << 10,
				Meta:   []Metalayer{{Name: "mymeta", Content: mp(t, []any{1, "hello"})}},
				VLMeta: []Metalayer{{Name: "answer", Content: mp(t, 42)}}})
			if err != nil {
				t.Fatal(err)
			}
			if err := fw.SetVLMeta("name", mp(t, "fixture-v1")); err != nil {
				t.Fatal(err)
			}
			if err := fw.AppendBuffer(data); err != nil {
				t.Fatal(err)
			}
			if err := fw.Append(make([]byte, 100)); err != nil { // short last chunk, all zeros
				t.Fatal(err)
			}
			if err := fw.Close(); err != nil {
				t.Fatal(err)
			}
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			got := readAll(t, f)
			want := append(append([]byte(nil), data...), make([]byte, 100)...)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s/%s: mismatch at %d", codec, fname, firstDiff(got, want))
			}
			if f.NChunks() != 5 || f.Header.Chunksize != 256<<10 || f.Header.Codec != codec || f.Header.Filters != fl {
				t.Errorf("header %+v", f.Header)
			}
			if c, _ := f.MetaContent("mymeta"); !bytes.Equal(c, []byte{0x92, 0x01, 0xa5, 'h', 'e', 'l', 'l', 'o'}) {
				t.Errorf("meta % x", c)
			}
			if v, err := f.VLMetaValue("name"); err != nil || v != "fixture-v1" {
				t.Errorf("vlmeta name %v %v", v, err)
			}
			if v, err := f.VLMetaValue("answer"); err != nil || v != int8(42) {
				t.Errorf("vlmeta answer %#v %v", v, err)
			}
			f.Close()
		}
	}
}

func TestFrameWriterSpecialOffsets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.b2frame")
	p := DefaultCParams(8)
	fw, err := CreateFrame(path, &FrameOptions{CParams: &p, Chunksize: 32768})
	if err != nil {
		t.Fatal(err)
	}
	want := specialFixture()
	for c := 0; c < 6; c++ {
		if err := fw.Append(want[c*32768 : (c+1)*32768]); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := readAll(t, f); !bytes.Equal(got, want) {
		t.Fatalf("mismatch at %d", firstDiff(got, want))
	}
	for i, sp := range []Special{0, 1, 0, 0, 0, 1} {
		if f.ChunkSpecial(i) != sp {
			t.Errorf("chunk %d special %v, want %v", i, f.ChunkSpecial(i), sp)
		}
	}
}

func TestFrameWriterVariableAndEmpty(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "v.b2frame")
	fw, err := CreateFrame(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for i, n := range []int{1000, 300, 5000, 7} {
		b := bytes.Repeat([]byte{byte(i + 1), 2, 3}, n)
		want = append(want, b...)
		if err := fw.Append(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Header.Chunksize != 0 || f.Header.GeneralFlags != 0x53 || f.NChunks() != 4 {
		t.Errorf("variable frame header %+v", f.Header)
	}
	if got := readAll(t, f); !bytes.Equal(got, want) {
		t.Fatal("variable frame mismatch")
	}
	f.Close()
	// An empty frame (no chunks) is a valid vlmeta carrier.
	path = filepath.Join(dir, "e.b2f")
	fw, _ = CreateFrame(path, &FrameOptions{VLMeta: []Metalayer{{Name: "kind", Content: mp(t, "ctable")}}})
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	f, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v, _ := f.VLMetaValue("kind"); f.NChunks() != 0 || v != "ctable" {
		t.Fatalf("empty frame: %d chunks, kind %v", f.NChunks(), v)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(m) != 0 {
		t.Fatalf("temporary files left: %v", m)
	}
}

// TestGoldenFrameHeaders writes each C-written b2nd fixture again from its
// decoded values, with the parameters the reference used, and compares the
// header bytes (everything but frame_len and cbytes, which depend on codec
// output) and the first chunk header.
func TestGoldenFrameHeaders(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range ndFixtures {
		if tc.file == "nd_u8_2d_sparse_zlib.b2nd" {
			continue // sparse frame
		}
		t.Run(tc.file, func(t *testing.T) {
			ref, err := OpenArray(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer ref.Close()
			data, _ := ref.ReadAll()
			h := ref.Frame.Header
			p := CParams{Codec: h.Codec, CLevel: h.CLevel, Filters: h.Filters, FiltersMeta: h.FiltersMeta, SplitMode: h.SplitMode()}
			var vl []Metalayer
			for _, n := range []string{"name", "answer", "shape_tuple", "dict"} {
				if b, ok, _ := ref.Frame.VLMeta(n); ok {
					vl = append(vl, Metalayer{Name: n, Content: b})
				}
			}
			path := filepath.Join(dir, tc.file)
			err = WriteArray(path, ref.Meta.DType, ref.Meta.Shape, data, &ArrayOptions{
				ChunkShape: ref.Meta.ChunkShape, BlockShape: ref.Meta.BlockShape, CParams: &p, VLMeta: vl})
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := ref.Frame.Bytes()
			hl := h.HeaderLen
			if !bytes.Equal(got[:16], want[:16]) || !bytes.Equal(got[24:39], want[24:39]) || !bytes.Equal(got[47:hl], want[47:hl]) {
				t.Errorf("header differs\n got % x\nwant % x", got[:hl], want[:hl])
			}
			a, err := OpenArray(path)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			back, err := a.ReadAll()
			if err != nil || !bytes.Equal(back, data) {
				t.Fatalf("read back: %v", err)
			}
			if ref.NChunks() > 0 && ref.Frame.ChunkSpecial(0) == SpecialNone {
				rc, _ := ref.Frame.ChunkData(0)
				gc, _ := a.Frame.ChunkData(0)
				rh, _ := ParseChunkHeader(rc)
				gh, _ := ParseChunkHeader(gc)
				if rh.Memcpyed() == gh.Memcpyed() && (!bytes.Equal(rc[:12], gc[:12]) || !bytes.Equal(rc[16:32], gc[16:32])) {
					t.Errorf("chunk 0 header\n got % x\nwant % x", gc[:32], rc[:32])
				}
			}
			if ref.NChunks() != a.NChunks() {
				t.Errorf("%d chunks, want %d", a.NChunks(), ref.NChunks())
			}
			for i := 0; i < a.NChunks(); i++ {
				if ref.Frame.ChunkSpecial(i) != a.Frame.ChunkSpecial(i) {
					t.Errorf("chunk %d special %v, want %v", i, a.Frame.ChunkSpecial(i), ref.Frame.ChunkSpecial(i))
				}
			}
		})
	}
}

func TestWriteArrayND(t *testing.T) {
	dir := t.TempDir()
	shape := []int64{23, 17, 9}
	want := expectedND(shape, func(i int64) []byte { return le32s(1, func(int) int32 { return int32(i*7 - 3) }) })
	path := filepath.Join(dir, "a.b2nd")
	err := WriteArray(path, "<i4", shape, want, &ArrayOptions{ChunkShape: []int{10, 6, 9}, BlockShape: []int{3, 4, 2}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := OpenArray(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	got, err := a.ReadAll()
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadAll: %v (diff at %d)", err, firstDiff(got, want))
	}
	start, stop := []int64{4, 3, 1}, []int64{19, 16, 8}
	s, err := a.Slice(start, stop)
	if err != nil || !bytes.Equal(s, subSlab(want, shape, start, stop, 4)) {
		t.Fatalf("slice: %v", err)
	}
	// Automatic shapes, scalar and empty arrays.
	for _, sh := range [][]int64{{100000}, {300, 200}, {}, {0}, {5, 0}} {
		d := expectedND(sh, func(i int64) []byte { return f64s(1, func(int) float64 { return float64(i) / 7 }) })
		p := filepath.Join(dir, "auto.b2nd")
		if err := WriteArray(p, "<f8", sh, d, nil); err != nil {
			t.Fatalf("%v: %v", sh, err)
		}
		a, err := OpenArray(p)
		if err != nil {
			t.Fatalf("%v: %v", sh, err)
		}
		got, err := a.ReadAll()
		if err != nil || !bytes.Equal(got, d) {
			t.Fatalf("%v: %v", sh, err)
		}
		a.Close()
	}
}

func TestArrayWriter1D(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.b2nd")
	aw, err := CreateArray1D(path, "<i8", &ArrayOptions{ChunkShape: []int{1000}, BlockShape: []int{300}})
	if err != nil {
		t.Fatal(err)
	}
	want := le64s(12345, func(i int) uint64 { return uint64(i * i) })
	for off := 0; off < len(want); {
		n := min(len(want)-off, 8*(1+off%977))
		if err := aw.Append(want[off : off+n]); err != nil {
			t.Fatal(err)
		}
		off += n
	}
	if err := aw.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := OpenArray(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Shape()[0] != 12345 || a.NChunks() != 13 {
		t.Fatalf("shape %v, %d chunks", a.Shape(), a.NChunks())
	}
	got, err := a.ReadAll()
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%v", err)
	}
}
