package b2

import (
	"bytes"
	"encoding/binary"
	"os"
	"runtime"
	"testing"
)

func TestSpecialKinds(t *testing.T) {
	for _, tc := range []struct {
		kind Special
		ts   int
		item []byte
	}{
		{SpecialZeros, 8, make([]byte, 8)},
		{SpecialUninit, 4, make([]byte, 4)},
		{SpecialNaN, 4, binary.LittleEndian.AppendUint32(nil, 0x7FC00000)},
		{SpecialNaN, 8, binary.LittleEndian.AppendUint64(nil, 0x7FF8000000000000)},
	} {
		c := specialChunk(tc.kind, 96, tc.ts)
		got := make([]byte, 96)
		if _, err := Decompress(got, c); err != nil {
			t.Fatal(err)
		}
		if want := bytes.Repeat(tc.item, 96/tc.ts); !bytes.Equal(got, want) {
			t.Errorf("%v/%d: % x", tc.kind, tc.ts, got)
		}
		part := make([]byte, 13)
		if err := DecompressRange(part, c, 5, 13); err != nil || !bytes.Equal(part, bytes.Repeat(tc.item, 96/tc.ts)[5:18]) {
			t.Errorf("%v/%d range: % x %v", tc.kind, tc.ts, part, err)
		}
	}
	// Repeated 3-byte value, read at an unaligned phase.
	c := specialChunk(SpecialValue, 30, 3)
	c = append(c, 'a', 'b', 'c')
	binary.LittleEndian.PutUint32(c[12:], uint32(len(c)))
	part := make([]byte, 7)
	if err := DecompressRange(part, c, 4, 7); err != nil || string(part) != "bcabcab" {
		t.Fatalf("value range %q %v", part, err)
	}
	// NaN with a typesize other than 4 or 8 is corrupt.
	if _, err := ParseChunkHeader(specialChunk(SpecialNaN, 96, 2)); err == nil {
		t.Fatal("NaN chunk with typesize 2 accepted")
	}
}

// zerosFrame writes the frame c-blosc2's b2nd_zeros makes, with chunks of
// one item: every chunk special, and one constant offsets chunk standing
// for all of them, so a frame of a few hundred bytes declares millions of
// chunks.
func zerosFrame(t *testing.T, shape []int64, chunk []int) []byte {
	t.Helper()
	items := int64(1)
	for _, s := range shape {
		items *= s
	}
	meta := B2ndMeta{Shape: shape, ChunkShape: chunk, BlockShape: chunk, DType: "|i1"}.Encode()
	path := t.TempDir() + "/z.b2nd"
	fw, err := CreateFrame(path, &FrameOptions{Typesize: 1, Chunksize: 1, Meta: []Metalayer{{Name: "b2nd", Content: meta}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Append([]byte{0}); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := NewFrame(b, path)
	if err != nil {
		t.Fatal(err)
	}
	// Header, offsets chunk (a repeated-value chunk of one zeros marker),
	// trailer; no chunk bytes.
	tlen := int(binary.BigEndian.Uint32(b[len(b)-frameTrailerMin+1:]))
	offsets := specialChunk(SpecialValue, 8*int(items), 8)
	binary.LittleEndian.PutUint32(offsets[12:], extendedHeaderLen+8)
	offsets = binary.LittleEndian.AppendUint64(offsets, uint64(0x80|SpecialZeros)<<56)
	out := append(append(b[:fr.Header.HeaderLen:fr.Header.HeaderLen], offsets...), b[len(b)-tlen:]...)
	binary.BigEndian.PutUint64(out[16:], uint64(len(out))) // frame_len
	binary.BigEndian.PutUint64(out[30:], uint64(items))    // nbytes
	binary.BigEndian.PutUint64(out[39:], 0)                // cbytes
	return out
}

// A frame of a few hundred bytes that declares 2^21 special chunks reads
// without an allocation per chunk (a fuzz input of this shape went past
// the fuzz time bound).
func TestManyTinySpecialChunks(t *testing.T) {
	for _, tc := range []struct {
		shape []int64
		chunk []int
	}{{[]int64{1 << 21}, []int{1}}, {[]int64{1 << 10, 1 << 11}, []int{1, 1}}} {
		b := zerosFrame(t, tc.shape, tc.chunk)
		if len(b) > 400 {
			t.Fatalf("frame of %d bytes", len(b))
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		fr, err := NewFrame(b, "zeros")
		if err != nil {
			t.Fatal(err)
		}
		a, err := NewArray(fr)
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.ReadAll()
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1<<21 || !bytes.Equal(got, make([]byte, 1<<21)) {
			t.Fatalf("%v: read %d bytes, not all zero", tc.shape, len(got))
		}
		// The result plus fixed costs; an allocation per chunk would be
		// tens of megabytes.
		if used := after.TotalAlloc - before.TotalAlloc; used > 1<<21+1<<20 {
			t.Errorf("%v: ReadAll of %d chunks allocated %d bytes", tc.shape, fr.NChunks(), used)
		}
		d := NewDecoder()
		dst := make([]byte, 1)
		if n := testing.AllocsPerRun(100, func() { fr.DecompressChunk(d, dst, 12345) }); n != 0 {
			t.Errorf("DecompressChunk of a special chunk: %v allocations", n)
		}
	}
}
